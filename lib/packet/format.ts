import { createHash, X509Certificate } from 'node:crypto';
import { encodeBase64Url, encryptRegistration, type RecipientKey } from '../crypto/envelope.js';
import { PacketFormatError } from './errors.js';
import { readZip, writeZip, type ZipReadLimits } from './zip.js';

/**
 * The platform's registration packet (ABIS.md (e)): MOSIP 1.1's shape, one
 * part, a zip of ID.json, the applicant's CBEFF, documents and the metadata
 * with its two hash files, sealed whole with E_REG for the REGISTRATION keys.
 */

export const ID_JSON = 'ID.json';
export const META_INFO = 'packet_meta_info.json';
export const DATA_HASH = 'packet_data_hash.txt';
export const OPERATIONS_HASH = 'packet_operations_hash.txt';
/** The CBEFF's name without extension, as ID.json and the hash sequence name it. */
export const BIOMETRICS_NAME = 'individualBiometrics_bio_CBEFF';
export const BIOMETRICS_FILE = `${BIOMETRICS_NAME}.xml`;

const META_LABELS = ['registrationId', 'registrationType', 'centerId', 'machineId', 'creationDate'] as const;
const OPERATIONS_LABELS = ['officerId', 'supervisorId'] as const;

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
}

export interface PacketMeta {
  registrationId: string | null;
  registrationType: string | null;
  centerId: string | null;
  machineId: string | null;
  creationDate: string | null;
  officerId: string | null;
  supervisorId: string | null;
}

export interface ReadPacket {
  /** ID.json parsed; undefined when missing or not JSON (packetProblems says which) */
  idJson: unknown;
  metaInfo: unknown;
  meta: PacketMeta;
  cbeff: Buffer | null;
  /** each document named by ID.json, by its field (proofOfAddress -> bytes) */
  documents: Map<string, Buffer>;
  /** every file entry's name, in the zip's order */
  entries: string[];
  /** every file entry's bytes, by name */
  files: Map<string, Buffer>;
}

/** Uppercase hex SHA-256 (MOSIP's HMACUtils2.digestAsPlainText). */
export function packetHash(bytes: Buffer | readonly Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of Buffer.isBuffer(bytes) ? [bytes] : bytes) hash.update(part);
  return hash.digest('hex').toUpperCase();
}

/** A file's name without its extension: how ID.json and the hash sequences name files. */
const baseName = (entry: string) => entry.replace(/\.[^./]*$/, '');

/**
 * A RID: centre (5 digits), machine (5), sequence (5), then yyyyMMddHHmmss in
 * UTC. Shorter numeric ids are zero-padded, as MOSIP's clients do.
 */
export function makeRid(centreId: string, machineId: string, sequence: number, date: Date): string {
  const five = (value: string, what: string) => {
    if (!/^\d{1,5}$/.test(value)) throw new RangeError(`the ${what} must be 1 to 5 digits to make a RID`);
    return value.padStart(5, '0');
  };
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > 99_999) throw new RangeError('the RID sequence must be 0 to 99999');
  const stamp = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${five(centreId, 'centre id')}${five(machineId, 'machine id')}${String(sequence).padStart(5, '0')}${stamp}`;
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

function parseJson(data: Buffer | undefined): unknown {
  if (!data) return undefined;
  try {
    return JSON.parse(data.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const identityOf = (json: unknown) => (isObject(json) && isObject(json.identity) ? json.identity : undefined);

/** The `value` of the `{label, value}` item with this label in a list of them, when a string. */
function labelValue(list: unknown, label: string): string | null {
  if (!Array.isArray(list)) return null;
  const item: unknown = list.find((each) => isObject(each) && each.label === label);
  return isObject(item) && typeof item.value === 'string' ? item.value : null;
}

/**
 * Every `{label, value}` of packet_meta_info.json's metaData and operationsData, merged into one
 * map as MOSIP's OSIUtils reads them (operationsData last); values that are not text are left out.
 */
export function metaLabels(metaInfo: unknown): Map<string, string> {
  const identity = identityOf(metaInfo);
  const labels = new Map<string, string>();
  for (const list of [identity?.metaData, identity?.operationsData])
    for (const item of Array.isArray(list) ? (list as unknown[]) : [])
      if (isObject(item) && typeof item.label === 'string' && typeof item.value === 'string') labels.set(item.label, item.value);
  return labels;
}

/** The ID.json fields that reference a file: documents {format, type, value} and biometrics {format cbeff, value}. */
function fileReferences(identity: Record<string, unknown>): { field: string; name: string; biometric: boolean }[] {
  return Object.entries(identity).flatMap(([field, value]) =>
    isObject(value) && typeof value.value === 'string' && typeof value.format === 'string'
      ? [{ field, name: value.value, biometric: value.format.toLowerCase() === 'cbeff' }]
      : [],
  );
}

/** The named files by name without extension; a name two entries share is left out (packetProblems reports it). */
function filesByBaseName(files: Map<string, Buffer>): { byName: Map<string, Buffer>; ambiguous: Set<string> } {
  const byName = new Map<string, Buffer>();
  const ambiguous = new Set<string>();
  for (const [name, data] of files) {
    const base = baseName(name);
    if (byName.has(base) || ambiguous.has(base)) {
      ambiguous.add(base);
      byName.delete(base);
    } else byName.set(base, data);
  }
  return { byName, ambiguous };
}

/**
 * Opens a packet zip (already decrypted), inflating off the event loop.
 * Rejects with PacketFormatError only when the zip itself cannot be read
 * safely (a bomb among them); what is wrong inside is for packetProblems.
 */
export async function readPacketZip(zip: Buffer, limits: ZipReadLimits): Promise<ReadPacket> {
  const files = new Map((await readZip(zip, limits)).map((entry) => [entry.name, entry.data]));
  const idJson = parseJson(files.get(ID_JSON));
  const metaInfo = parseJson(files.get(META_INFO));
  const metaIdentity = identityOf(metaInfo);
  const meta = Object.fromEntries([
    ...META_LABELS.map((label) => [label, labelValue(metaIdentity?.metaData, label)]),
    ...OPERATIONS_LABELS.map((label) => [label, labelValue(metaIdentity?.operationsData, label)]),
  ]) as unknown as PacketMeta;
  const { byName } = filesByBaseName(files);
  const documents = new Map<string, Buffer>();
  let cbeff: Buffer | null = null;
  const identity = identityOf(idJson);
  for (const reference of identity ? fileReferences(identity) : []) {
    const data = byName.get(reference.name);
    if (!data) continue;
    if (!reference.biometric) documents.set(reference.field, data);
    else if (reference.field === 'individualBiometrics') cbeff = data;
  }
  return { idJson, metaInfo, meta, cbeff, documents, entries: [...files.keys()], files };
}

/** The names of a hash sequence (hashSequence1 or 2), all labels in order; undefined when malformed. */
function sequenceNames(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const names: string[] = [];
  for (const item of value) {
    if (!isObject(item) || !Array.isArray(item.value) || !item.value.every((name) => typeof name === 'string')) return undefined;
    names.push(...item.value);
  }
  return names;
}

/** The problems of one hash file against its sequence. */
function hashProblems(sequence: string, names: string[] | undefined, hashFile: string, packet: ReadPacket, byName: Map<string, Buffer>): string[] {
  if (!names) return [`${META_INFO} has no well-formed ${sequence}`];
  const problems = names.filter((name) => !byName.has(name)).map((name) => `${sequence} names the file ${name}, which is missing`);
  const stored = packet.files.get(hashFile);
  if (!stored) return [...problems, `${hashFile} is missing`];
  if (problems.length) return problems;
  const expected = packetHash(names.map((name) => byName.get(name)!));
  if (stored.toString('ascii').trim().toUpperCase() !== expected) problems.push(`${hashFile} does not match the files of ${sequence}`);
  return problems;
}

/**
 * Everything wrong with a packet's structure, for the validation stage: files
 * ID.json or the hash sequences name that are missing, hash mismatches,
 * unparsable JSON, missing metadata. Messages name files and fields only,
 * never an identity's values.
 */
export function packetProblems(packet: ReadPacket): string[] {
  const problems: string[] = [];
  const { byName, ambiguous } = filesByBaseName(packet.files);
  for (const name of ambiguous) problems.push(`more than one file is named ${name} (extension aside)`);

  const identity = identityOf(packet.idJson);
  if (!packet.files.has(ID_JSON)) problems.push(`${ID_JSON} is missing`);
  else if (packet.idJson === undefined) problems.push(`${ID_JSON} is not JSON`);
  else if (!identity) problems.push(`${ID_JSON} has no identity object`);
  for (const reference of identity ? fileReferences(identity) : [])
    if (!byName.has(reference.name) && !ambiguous.has(reference.name))
      problems.push(`${ID_JSON} field ${reference.field} names the file ${reference.name}, which is missing`);

  const metaIdentity = identityOf(packet.metaInfo);
  if (!packet.files.has(META_INFO)) return [...problems, `${META_INFO} is missing`];
  if (packet.metaInfo === undefined) return [...problems, `${META_INFO} is not JSON`];
  if (!metaIdentity) return [...problems, `${META_INFO} has no identity object`];
  for (const label of META_LABELS) if (!packet.meta[label]) problems.push(`${META_INFO} metaData lacks ${label}`);
  for (const label of OPERATIONS_LABELS) if (!packet.meta[label]) problems.push(`${META_INFO} operationsData lacks ${label}`);
  problems.push(
    ...hashProblems('hashSequence1', sequenceNames(metaIdentity.hashSequence1), DATA_HASH, packet, byName),
    ...hashProblems('hashSequence2', sequenceNames(metaIdentity.hashSequence2 ?? []), OPERATIONS_HASH, packet, byName),
  );
  return problems;
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
