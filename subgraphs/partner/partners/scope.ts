import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Principal } from '../../../lib/tokens.js';

/** What a caller may see of partners: everything (admins), its own partner record, the partners of the groups it manages. */
export interface Scope {
  all: boolean;
  subject: string;
  /** the policy groups the caller manages (PolicyGroupManager rows) */
  groupIds: string[];
}

const SEE_ALL = ['GLOBAL_ADMIN', 'PARTNER_ADMIN'];

export async function scopeOf(prisma: PrismaClient, caller: Pick<Principal, 'subject' | 'roles'>): Promise<Scope> {
  const managed = caller.roles.includes('PARTNERMANAGER')
    ? await prisma.policyGroupManager.findMany({ where: { userId: caller.subject }, select: { policyGroupId: true } })
    : [];
  return { all: caller.roles.some((role) => SEE_ALL.includes(role)), subject: caller.subject, groupIds: managed.map((row) => row.policyGroupId) };
}
