/** MOSIP's role names (DESIGN.md). */
export const ROLES = [
  'GLOBAL_ADMIN',
  'ZONAL_ADMIN',
  'MASTERDATA_ADMIN',
  'KEY_MAKER',
  'REGISTRATION_ADMIN',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_OFFICER',
  'REGISTRATION_PROCESSOR',
  'PRE_REGISTRATION_ADMIN',
  'INDIVIDUAL',
  'RESIDENT',
  'ID_AUTHENTICATION',
  'ID_REPOSITORY',
  'PARTNER_ADMIN',
  'PARTNERMANAGER',
  'POLICYMANAGER',
  'MISP',
  'PARTNER',
  /** an ABIS, as a client: reads data shares and the biometric file only (ABIS.md) */
  'ABIS',
] as const;

export type Role = (typeof ROLES)[number];

/**
 * Who may call an operation: anyone (the operation checks credentials itself,
 * as logins and token validation do), any valid token, or a token holding one
 * of the listed roles.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  /** `specOpen`: the spec flags it "no authentication"; open only with PLATFORM_SPEC_OPEN_ENDPOINTS=true (CONTRACT.md) */
  | { kind: 'roles'; roles: readonly Role[]; specOpen?: boolean };

/** The rows components write in their role tables. */
export const access = {
  PUBLIC: { kind: 'public' } as Access,
  AUTHENTICATED: { kind: 'authenticated' } as Access,
  roles: (...list: Role[]): Access => ({ kind: 'roles', roles: list }),
  /** open without a token only with PLATFORM_SPEC_OPEN_ENDPOINTS=true */
  specOpen: (...list: Role[]): Access => ({ kind: 'roles', roles: list, specOpen: true }),
  ADMIN: { kind: 'roles', roles: ['GLOBAL_ADMIN'] } as Access,
};
