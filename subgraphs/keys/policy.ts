import type { Role } from '../../lib/roles.js';

/** One application id of the key policy (MOSIP's key_policy_def), with who may use its keys. */
export interface KeyPolicy {
  applicationId: string;
  /** validity of a newly generated key, in days */
  validityDays: number;
  /** whether reference ids (machines, partners, SIGN) may have their own base keys */
  referenceIds: boolean;
  /** whether the master key is generated on first use; false: only by generateMasterKey (else KER-KMS-012) */
  autoGenerate: boolean;
  /** reference ids whose base keys are generated on first use (the signing keys) */
  autoReferenceIds?: string[];
  /**
   * The roles whose callers may encrypt and decrypt with this application's
   * keys through the crypto manager; every other caller gets KER-ATH-403.
   * Empty: only the platform itself uses these keys.
   */
  cryptoRoles: Role[];
}

export const ROOT_APPLICATION = 'ROOT';
/** The platform's own keys: response signatures, sealed notifications. Never reachable through the crypto manager. */
export const PLATFORM_APPLICATION = 'PLATFORM';
export const RESPONSE_SIGNING_KEY = { applicationId: PLATFORM_APPLICATION, referenceId: 'RESPONSE_SIGN' };
export const NOTIFICATION_KEY = { applicationId: PLATFORM_APPLICATION, referenceId: 'NOTIFY' };
/** The ID repository's own key: it seals the keys that encrypt identities. Never reachable through the crypto manager. */
export const IDREPO_APPLICATION = 'IDREPO';
/** Pre-registration's own key: it seals the keys that encrypt applications and documents. Never reachable through the crypto manager. */
export const PREREG_APPLICATION = 'PREREG';
/** The keys only the platform itself uses (its signatures, the keys sealing stored data): the crypto manager never serves them, whatever a policy grants. */
export const PLATFORM_ONLY_APPLICATIONS: readonly string[] = [PLATFORM_APPLICATION, IDREPO_APPLICATION, PREREG_APPLICATION];
/** Registration clients' keys: packets and syncs are encrypted for it (ABIS.md (e)). */
export const REGISTRATION_APPLICATION = 'REGISTRATION';

const REGISTRATION_STAFF: Role[] = ['REGISTRATION_ADMIN', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER', 'REGISTRATION_PROCESSOR'];

/**
 * MOSIP's application ids, each with the services that own its keys. A role
 * alone never opens another application's data: ID_REPO data is for the ID
 * repository, IDA's for ID authentication, and so on. PLATFORM_KEY_POLICY
 * (JSON array of KeyPolicy) replaces the list.
 */
export const DEFAULT_KEY_POLICY: KeyPolicy[] = [
  { applicationId: ROOT_APPLICATION, validityDays: 1826, referenceIds: false, autoGenerate: true, cryptoRoles: [] },
  {
    applicationId: PLATFORM_APPLICATION,
    validityDays: 1095,
    referenceIds: true,
    autoGenerate: true,
    autoReferenceIds: [RESPONSE_SIGNING_KEY.referenceId, NOTIFICATION_KEY.referenceId],
    cryptoRoles: [],
  },
  {
    applicationId: 'KERNEL',
    validityDays: 1095,
    referenceIds: true,
    autoGenerate: true,
    autoReferenceIds: ['SIGN'],
    cryptoRoles: ['GLOBAL_ADMIN', 'KEY_MAKER'],
  },
  { applicationId: IDREPO_APPLICATION, validityDays: 1095, referenceIds: false, autoGenerate: true, cryptoRoles: [] },
  { applicationId: PREREG_APPLICATION, validityDays: 1095, referenceIds: false, autoGenerate: true, cryptoRoles: [] },
  { applicationId: REGISTRATION_APPLICATION, validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: REGISTRATION_STAFF },
  { applicationId: 'REGISTRATION_PROCESSOR', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: ['REGISTRATION_PROCESSOR'] },
  {
    applicationId: 'PRE_REGISTRATION',
    validityDays: 1095,
    referenceIds: true,
    autoGenerate: true,
    cryptoRoles: ['PRE_REGISTRATION_ADMIN'],
  },
  { applicationId: 'ID_REPO', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: ['ID_REPOSITORY'] },
  { applicationId: 'IDA', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: ['ID_AUTHENTICATION'] },
  // The resident service's keys: no self-registered resident decrypts with them.
  { applicationId: 'RESIDENT', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: [] },
  { applicationId: 'PMS', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: ['PARTNER_ADMIN', 'PARTNERMANAGER'] },
  { applicationId: 'DATASHARE', validityDays: 1095, referenceIds: true, autoGenerate: true, cryptoRoles: ['REGISTRATION_PROCESSOR', 'ID_REPOSITORY'] },
  // Partners' certificates, to encrypt towards a partner.
  {
    applicationId: 'PARTNER',
    validityDays: 1095,
    referenceIds: true,
    autoGenerate: true,
    cryptoRoles: ['PARTNER_ADMIN', 'PARTNERMANAGER', 'REGISTRATION_PROCESSOR', 'ID_REPOSITORY', 'ID_AUTHENTICATION'],
  },
];

/**
 * PLATFORM_KEY_POLICY, or MOSIP's. ROOT, PLATFORM, IDREPO and PREREG are always there; an
 * entry without `cryptoRoles` takes the default entry's roles for its
 * application id, or none.
 */
export function loadKeyPolicy(json: string | undefined): KeyPolicy[] {
  if (!json) return DEFAULT_KEY_POLICY;
  const parsed = JSON.parse(json) as (Omit<KeyPolicy, 'cryptoRoles'> & { cryptoRoles?: Role[] })[];
  if (
    !Array.isArray(parsed) ||
    parsed.some((p) => typeof p.applicationId !== 'string' || !(p.validityDays > 0) || (p.cryptoRoles !== undefined && !Array.isArray(p.cryptoRoles)))
  ) {
    throw new Error('PLATFORM_KEY_POLICY must be a JSON array of {applicationId, validityDays, referenceIds, autoGenerate, autoReferenceIds?, cryptoRoles?}');
  }
  const defaults = new Map(DEFAULT_KEY_POLICY.map((p) => [p.applicationId, p]));
  const policy: KeyPolicy[] = parsed.map((p) => ({ ...p, cryptoRoles: p.cryptoRoles ?? defaults.get(p.applicationId)?.cryptoRoles ?? [] }));
  for (const required of [IDREPO_APPLICATION, PREREG_APPLICATION, PLATFORM_APPLICATION, ROOT_APPLICATION]) {
    if (!policy.some((p) => p.applicationId === required)) policy.unshift(defaults.get(required)!);
  }
  return policy;
}
