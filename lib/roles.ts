/** MOSIP's role names (DESIGN.md). */
export const ROLES = [
  'GLOBAL_ADMIN', 'ZONAL_ADMIN', 'MASTERDATA_ADMIN', 'KEY_MAKER', 'REGISTRATION_ADMIN',
  'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER', 'REGISTRATION_PROCESSOR', 'PRE_REGISTRATION_ADMIN',
  'INDIVIDUAL', 'RESIDENT', 'ID_AUTHENTICATION', 'ID_REPOSITORY', 'PARTNER_ADMIN', 'PARTNERMANAGER',
  'POLICYMANAGER', 'MISP', 'PARTNER',
] as const;

export type Role = (typeof ROLES)[number];

/**
 * Who may call an operation: anyone (the operation checks credentials itself,
 * as logins and token validation do), any valid token, or a token holding one
 * of the listed roles.
 */
export type Access = { kind: 'public' } | { kind: 'authenticated' } | { kind: 'roles'; roles: readonly Role[] };

const PUBLIC: Access = { kind: 'public' };
const roles = (...list: Role[]): Access => ({ kind: 'roles', roles: list });

/**
 * Every GraphQL root field, as "<Type>.<field>", with its access rule. The one
 * table the subgraphs enforce and a test checks: a field missing here is denied.
 */
export const ROLE_TABLE: Readonly<Record<string, Access>> = {
  // auth: logins and token checks read the credentials themselves
  'Mutation.loginWithPassword': PUBLIC,
  'Mutation.loginWithClientSecret': PUBLIC,
  'Mutation.invalidateToken': PUBLIC,
  'Query.validateToken': PUBLIC,
  'Query.authRealms': roles('GLOBAL_ADMIN'),
};

export function accessFor(operation: string): Access | undefined {
  return ROLE_TABLE[operation];
}
