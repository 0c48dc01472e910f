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
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  /** `specOpen`: the spec flags it "no authentication"; open only with PLATFORM_SPEC_OPEN_ENDPOINTS=true (CONTRACT.md) */
  | { kind: 'roles'; roles: readonly Role[]; specOpen?: boolean };

const PUBLIC: Access = { kind: 'public' };
const roles = (...list: Role[]): Access => ({ kind: 'roles', roles: list });
const specOpen = (...list: Role[]): Access => ({ kind: 'roles', roles: list, specOpen: true });
const ADMIN = roles('GLOBAL_ADMIN');
/**
 * Callers of the OTP manager: the services that send OTPs (authentication,
 * pre-registration, registration processing). Self-registered users
 * (INDIVIDUAL, RESIDENT) do not reach it: their OTPs come from the login flows.
 */
const OTP_CALLERS: Role[] = ['GLOBAL_ADMIN', 'ID_AUTHENTICATION', 'PRE_REGISTRATION_ADMIN', 'REGISTRATION_PROCESSOR'];
/** Services that encrypt, decrypt and sign through the crypto manager. */
const CRYPTO_USERS: Role[] = ['GLOBAL_ADMIN', 'KEY_MAKER', 'REGISTRATION_PROCESSOR', 'ID_AUTHENTICATION', 'ID_REPOSITORY', 'RESIDENT', 'PRE_REGISTRATION_ADMIN', 'PARTNER_ADMIN', 'REGISTRATION_ADMIN'];
/** Everyone who may read public certificates: the crypto users, registration staff and partners. */
const KEY_READERS: Role[] = [...CRYPTO_USERS, 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER', 'PARTNER', 'MISP', 'PARTNERMANAGER', 'INDIVIDUAL'];
const LICENSE_ADMINS = roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER');
/** MOSIP's notifier callers: kernel services and admins. */
const NOTIFY_CALLERS: Role[] = ['GLOBAL_ADMIN', 'ID_AUTHENTICATION', 'RESIDENT', 'REGISTRATION_PROCESSOR', 'PRE_REGISTRATION_ADMIN', 'REGISTRATION_ADMIN', 'PARTNER_ADMIN'];

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
  'Query.authRealms': ADMIN,
  'Mutation.sendOtp': PUBLIC,
  'Mutation.loginWithOtp': PUBLIC,
  // auth: users and clients administration
  'Query.users': ADMIN,
  'Query.user': ADMIN,
  'Query.clients': ADMIN,
  'Mutation.createUser': ADMIN,
  'Mutation.updateUser': ADMIN,
  'Mutation.resetPassword': ADMIN,
  'Mutation.lockUser': ADMIN,
  'Mutation.unlockUser': ADMIN,
  'Mutation.createClient': ADMIN,
  'Mutation.updateClient': ADMIN,
  'Mutation.rotateClientSecret': ADMIN,
  // otp
  'Mutation.generateOtp': specOpen(...OTP_CALLERS),
  'Mutation.validateOtp': specOpen(...OTP_CALLERS),
  // notify
  'Mutation.sendSms': roles(...NOTIFY_CALLERS),
  'Mutation.sendEmail': roles(...NOTIFY_CALLERS),
  'Query.outbox': ADMIN,
  'Query.notificationTemplates': ADMIN,
  // key manager, crypto manager, signature, sync data keys (MOSIP's keymanager roles)
  'Query.certificate': roles(...KEY_READERS),
  'Query.syncPublicKey': roles(...KEY_READERS),
  'Mutation.generateMasterKey': roles('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.generateCsr': specOpen('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.uploadCertificate': specOpen('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.uploadOtherDomainCertificate': specOpen('GLOBAL_ADMIN', 'KEY_MAKER', 'PARTNER_ADMIN', 'PARTNERMANAGER'),
  'Mutation.encrypt': roles(...CRYPTO_USERS),
  'Mutation.decrypt': roles(...CRYPTO_USERS),
  'Mutation.sign': roles(...CRYPTO_USERS),
  'Mutation.validateSignature': roles(...KEY_READERS),
  'Mutation.uploadMachinePublicKey': roles('GLOBAL_ADMIN', 'REGISTRATION_ADMIN', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'),
  'Mutation.verifyMachinePublicKey': roles('GLOBAL_ADMIN', 'REGISTRATION_ADMIN', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'),
  // license key manager: MOSIP's partner and admin roles; IDA reads permissions
  'Mutation.generateLicenseKey': LICENSE_ADMINS,
  'Mutation.mapLicensePermissions': LICENSE_ADMINS,
  'Mutation.updateLicenseStatus': LICENSE_ADMINS,
  'Query.licensePermissions': roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER', 'MISP', 'ID_AUTHENTICATION'),
  'Query.licenseKeys': LICENSE_ADMINS,
  'Query.licensePermissionValues': { kind: 'authenticated' },
  'Mutation.saveNotificationTemplate': ADMIN,
};

export function accessFor(operation: string): Access | undefined {
  return ROLE_TABLE[operation];
}
