/** One application id of the key policy (MOSIP's key_policy_def). */
export interface KeyPolicy {
  applicationId: string;
  /** validity of a newly generated key, in days */
  validityDays: number;
  /** whether reference ids (machines, partners, SIGN) may have their own base keys */
  referenceIds: boolean;
  /** whether the master key is generated on first use; false: only by generateMasterKey (else KER-KMS-012) */
  autoGenerate: boolean;
  /** reference ids whose base keys are generated on first use (the signing key) */
  autoReferenceIds?: string[];
}

export const ROOT_APPLICATION = 'ROOT';

/** MOSIP's application ids; PLATFORM_KEY_POLICY (JSON array of KeyPolicy) replaces it. */
export const DEFAULT_KEY_POLICY: KeyPolicy[] = [
  { applicationId: ROOT_APPLICATION, validityDays: 1826, referenceIds: false, autoGenerate: true },
  { applicationId: 'KERNEL', validityDays: 1095, referenceIds: true, autoGenerate: true, autoReferenceIds: ['SIGN'] },
  { applicationId: 'REGISTRATION', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'REGISTRATION_PROCESSOR', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'PRE_REGISTRATION', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'ID_REPO', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'IDA', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'RESIDENT', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'PMS', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'DATASHARE', validityDays: 1095, referenceIds: true, autoGenerate: true },
  { applicationId: 'PARTNER', validityDays: 1095, referenceIds: true, autoGenerate: true },
];

export function loadKeyPolicy(json: string | undefined): KeyPolicy[] {
  if (!json) return DEFAULT_KEY_POLICY;
  const parsed = JSON.parse(json) as KeyPolicy[];
  if (!Array.isArray(parsed) || parsed.some((p) => typeof p.applicationId !== 'string' || !(p.validityDays > 0))) {
    throw new Error('PLATFORM_KEY_POLICY must be a JSON array of {applicationId, validityDays, referenceIds, autoGenerate}');
  }
  if (!parsed.some((p) => p.applicationId === ROOT_APPLICATION)) parsed.unshift(DEFAULT_KEY_POLICY[0]!);
  return parsed;
}
