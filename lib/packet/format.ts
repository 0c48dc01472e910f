import { createHash } from 'node:crypto';
import { readZip, type ZipReadLimits } from './zip.js';

/**
 * The platform's registration packet (ABIS.md (e)): MOSIP 1.1's shape, one
 * part, a zip of ID.json, the applicant's CBEFF, documents and the metadata
 * with its two hash files, sealed whole with E_REG for the REGISTRATION keys.
 * Here: its names, RIDs and hashes, and reading it; writing it is write.ts's.
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
export const baseName = (entry: string) => entry.replace(/\.[^./]*$/, '');

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
