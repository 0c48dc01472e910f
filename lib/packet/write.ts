import { X509Certificate } from 'node:crypto';
import { encodeBase64Url, encryptRegistration, type RecipientKey } from '../crypto/envelope.js';
import { PacketFormatError } from './errors.js';
import { baseName, BIOMETRICS_FILE, BIOMETRICS_NAME, DATA_HASH, ID_JSON, META_INFO, OPERATIONS_HASH, packetHash } from './format.js';
import { writeZip } from './zip.js';

/**
 * Writing the platform's registration packet (ABIS.md (e)) as a registration
 * client does: the zip, sealed with E_REG for the REGISTRATION keys, and the
 * sync record and body that announce it. Reading it is format.ts's.
 */

export interface PacketDocument {
  /** the ID schema field, e.g. proofOfAddress */
  field: string;
  /** the document type code, e.g. RNC */
  type: string;
  /** the file format (its extension), e.g. pdf */
  format: string;
  data: Buffer;
}

/** How an officer or supervisor signed in at the registration client, as the packet records it (MOSIP's operationsData labels). */
export interface PacketAuthentication {
  password?: boolean;
  otp?: boolean;
  /** their biometrics captured at the client (a CBEFF), stored in the packet and named by `<role>BiometricFileName` */
  biometrics?: Buffer;
}

export interface PacketInput {
  registrationId: string;
  registrationType?: string;
  centerId: string;
  machineId: string;
  creationDate: Date;
  officerId: string;
  supervisorId: string;
  /** how each signed in at the client; by password when not given */
  officerAuthentication?: PacketAuthentication;
  supervisorAuthentication?: PacketAuthentication;
  /** the ID schema's demographic fields; IDSchemaVersion, the biometrics and documents references are added */
  identity: Record<string, unknown>;
  /** the applicant's CBEFF (section d); omitted: a packet without biometrics */
  cbeff?: Buffer | null;
  documents?: readonly PacketDocument[];
  /** the pre-registration the applicant came with (MOSIP's `preRegistrationId` metaData label): registration consumes it */
  preRegistrationId?: string;
}

const labelled = (pairs: readonly (readonly [string, string])[]) => pairs.map(([label, value]) => ({ label, value }));

/** The packet zip (not yet encrypted). */
export function buildPacketZip(input: PacketInput): Buffer {
  const identity: Record<string, unknown> = { ...input.identity };
  const files: { name: string; data: Buffer }[] = [];
  const demographicSequence = [baseName(ID_JSON)];
  const biometricSequence: string[] = [];
  if (input.cbeff) {
    identity.individualBiometrics = { format: 'cbeff', version: 1.0, value: BIOMETRICS_NAME };
    biometricSequence.push(BIOMETRICS_NAME);
    files.push({ name: BIOMETRICS_FILE, data: input.cbeff });
  }
  for (const document of input.documents ?? []) {
    identity[document.field] = { format: document.format, type: document.type, value: document.field };
    demographicSequence.push(document.field);
    files.push({ name: `${document.field}.${document.format}`, data: document.data });
  }
  const idJson = Buffer.from(JSON.stringify({ identity }), 'utf8');
  const otherFiles: string[] = [];
  const authenticated = (role: 'officer' | 'supervisor', how: PacketAuthentication = { password: true }) => {
    const labels: [string, string][] = [
      [`${role}Password`, String(!!how.password)],
      [`${role}OTPAuthentication`, String(!!how.otp)],
    ];
    if (how.biometrics) {
      const name = `${role}_bio_CBEFF`;
      labels.push([`${role}BiometricFileName`, name]);
      otherFiles.push(name);
      files.push({ name: `${name}.xml`, data: how.biometrics });
    }
    return labels;
  };
  const operations = [
    ['officerId', input.officerId] as const,
    ...authenticated('officer', input.officerAuthentication),
    ['supervisorId', input.supervisorId] as const,
    ...authenticated('supervisor', input.supervisorAuthentication),
  ];
  const metaInfo = {
    identity: {
      metaData: labelled([
        ['registrationId', input.registrationId],
        ['registrationType', input.registrationType ?? 'NEW'],
        ['centerId', input.centerId],
        ['machineId', input.machineId],
        ['creationDate', input.creationDate.toISOString()],
        ...(input.preRegistrationId ? [['preRegistrationId', input.preRegistrationId] as const] : []),
      ]),
      operationsData: labelled(operations),
      hashSequence1: [
        { label: 'biometricSequence', value: biometricSequence },
        { label: 'demographicSequence', value: demographicSequence },
      ],
      // The officer's and supervisor's biometrics, when they signed in with them (else the hash of nothing).
      hashSequence2: [{ label: 'otherFiles', value: otherFiles }],
    },
  };
  const all = [{ name: ID_JSON, data: idJson }, ...files];
  const byName = new Map(all.map((file) => [baseName(file.name), file.data]));
  const dataHash = packetHash([...biometricSequence, ...demographicSequence].map((name) => byName.get(name)!));
  return writeZip(
    [
      ...all,
      { name: META_INFO, data: Buffer.from(JSON.stringify(metaInfo), 'utf8') },
      { name: DATA_HASH, data: Buffer.from(dataHash, 'ascii') },
      { name: OPERATIONS_HASH, data: Buffer.from(packetHash(otherFiles.map((name) => byName.get(name)!)), 'ascii') },
    ],
    { modified: input.creationDate },
  );
}

function recipientOf(certificatePem: string): RecipientKey {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    throw new PacketFormatError('the REGISTRATION certificate is not a PEM X.509 certificate');
  }
  return { certificate, publicKey: certificate.publicKey };
}

/** E_REG(zip): what the client uploads (ABIS.md (e)). */
export function sealPacket(zip: Buffer, certificatePem: string): Buffer {
  return encryptRegistration(recipientOf(certificatePem), zip);
}

export interface SyncRecord {
  registrationId: string;
  registrationType: string;
  packetHashValue: string;
  packetSize: number;
  supervisorStatus: 'APPROVED' | 'REJECTED';
  supervisorComment: string | null;
  langCode: string;
  optionalValues: { key: string; value: string | null }[] | null;
}

/** The sync record of a sealed packet: its hash and size are those of the bytes uploaded. */
export function syncRecordOf(registrationId: string, sealed: Buffer, over: Partial<SyncRecord> = {}): SyncRecord {
  return {
    registrationId,
    registrationType: 'NEW',
    packetHashValue: packetHash(sealed),
    packetSize: sealed.length,
    supervisorStatus: 'APPROVED',
    supervisorComment: null,
    langCode: 'eng',
    optionalValues: null,
    ...over,
  };
}

/** The body of POST registrationstatus/sync: a JSON string literal of base64url(E_REG(sync request)). */
export function syncRequestBody(records: readonly SyncRecord[], certificatePem: string, now: Date): string {
  const request = { id: 'platform.registration.sync', version: '1.0', requesttime: now.toISOString(), request: records };
  return JSON.stringify(encodeBase64Url(encryptRegistration(recipientOf(certificatePem), Buffer.from(JSON.stringify(request), 'utf8'))));
}
