import type { Principal } from '../../../lib/tokens.js';

/** What a caller may see of partners: everything (admins), its own partner record, the partners of the groups it manages. */
export interface Scope {
  all: boolean;
  subject: string;
  /** the policy groups the caller manages (PolicyGroupManager rows) */
  groupIds: string[];
}

export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** A caller with the kind of its subject (a user, a client, a resident). */
export type Signed = Caller & Pick<Principal, 'subjectType'>;

const SEE_ALL = ['GLOBAL_ADMIN', 'PARTNER_ADMIN'];

/** Whether the caller manages partners, whose groups are then looked up. */
export const managesPartners = (caller: Caller): boolean => caller.roles.includes('PARTNERMANAGER');

/** Whether the caller is a partner's login: a user (not a client or a resident) holding PARTNER. */
export const isPartnerLogin = (caller: Signed): boolean => caller.subjectType === 'user' && caller.roles.includes('PARTNER');

/** The scope of a caller, given the groups it manages (looked up only for a partner manager). */
export const scopeOf = (caller: Caller, managedGroupIds: string[]): Scope => ({
  all: caller.roles.some((role) => SEE_ALL.includes(role)),
  subject: caller.subject,
  groupIds: managedGroupIds,
});

/** Whether the scope sees the partner: an admin's, its own, or one of its groups'. */
export const sees = (scope: Scope, partner: { userId: string | null; policyGroupId: string }): boolean =>
  scope.all || partner.userId === scope.subject || scope.groupIds.includes(partner.policyGroupId);
