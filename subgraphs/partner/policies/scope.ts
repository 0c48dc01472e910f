/** Roles that act on every policy group; any other caller acts only inside the groups it manages. */
const ALL_GROUPS: readonly string[] = ['GLOBAL_ADMIN', 'PARTNER_ADMIN'];

/** The policy groups a caller reaches. */
export type Scope = { all: true } | { all: false; groupIds: readonly string[] };

/** Who acts, and where. */
export interface Caller {
  subject: string;
  scope: Scope;
}

/** Whether the caller's roles reach every group, without looking up the groups it manages. */
export const reachesAllGroups = (roles: readonly string[]): boolean => roles.some((role) => ALL_GROUPS.includes(role));

export const inScope = (scope: Scope, groupId: string): boolean => scope.all || scope.groupIds.includes(groupId);

/** A policy manager of no group: no policy is its to act on (PMS_POL_001). */
export const managesNone = (scope: Scope): boolean => !scope.all && scope.groupIds.length === 0;
