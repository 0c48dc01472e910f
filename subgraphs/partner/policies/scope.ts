import type { PrismaClient } from '../../../generated/prisma/client.js';

/** Roles that act on every policy group; any other caller acts only inside the groups it manages. */
const ALL_GROUPS: readonly string[] = ['GLOBAL_ADMIN', 'PARTNER_ADMIN'];

/** The policy groups a caller reaches. */
export type Scope = { all: true } | { all: false; groupIds: readonly string[] };

/** Who acts, and where. */
export interface Caller {
  subject: string;
  scope: Scope;
}

/** One indexed query (PolicyGroupManager by userId) for a manager; none for an admin. */
export async function scopeOf(prisma: PrismaClient, principal: { subject: string; roles: readonly string[] }): Promise<Scope> {
  if (principal.roles.some((role) => ALL_GROUPS.includes(role))) return { all: true };
  const rows = await prisma.policyGroupManager.findMany({ where: { userId: principal.subject }, select: { policyGroupId: true } });
  return { all: false, groupIds: rows.map((row) => row.policyGroupId) };
}

export const inScope = (scope: Scope, groupId: string): boolean => scope.all || scope.groupIds.includes(groupId);

/** A Prisma filter on a group id column that keeps the scope's groups. */
export const groupsIn = (scope: Scope): { in: string[] } | undefined => (scope.all ? undefined : { in: [...scope.groupIds] });
