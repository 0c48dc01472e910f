// npm run packet -- <identity.json> [files…] [--cbeff file.xml] [--category field[:TYPE]]…
//   [--centre 10001 --machine 10001] [--base http://localhost:8080] [--certificate cert.pem] [--out dir]
// Builds one encrypted registration packet (ABIS.md (e)) and the body of its sync call, and prints
// the curl commands that sync and upload it. Example with the sample country's input:
//   npm run packet -- subgraphs/regproc/sample/identity.json subgraphs/regproc/sample/proof-of-address.pdf \
//     --cbeff subgraphs/regproc/sample/individualBiometrics_bio_CBEFF.xml
// (a second packet with the same CBEFF is a biometric duplicate of the first: leave --cbeff out to
// get fresh random biometrics).
import { randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bdbDigests, buildCbeff, parseCbeff } from '../lib/packet/cbeff.js';
import { makeRid, packetProblems, readPacketZip } from '../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody, type PacketDocument } from '../lib/packet/write.js';
import { sampleBiometrics } from '../tools/registration/sample-resident.js';
import { adminCredentials, registrationCertificate, signIn, SYNC_PATH, UPLOAD_PATH } from '../tools/registration/client.js';

const USAGE =
  'usage: npm run packet -- <identity.json> [files…] [--cbeff file.xml] [--category field[:TYPE]]… ' +
  '[--centre 10001] [--machine 10001] [--base http://localhost:8080] [--certificate cert.pem] [--out dir]';

interface DocumentSlot {
  field: string;
  type?: string;
  format?: string;
  value?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const withoutExtension = (file: string) => path.basename(file).replace(/\.[^.]*$/, '');

/** The demographic fields and the document slots ({format, type, value} objects) of an identity file (ID.json shape or bare). */
function readIdentity(file: string): { demographics: Record<string, unknown>; slots: DocumentSlot[] } {
  const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const identity = isObject(json) && isObject(json.identity) ? json.identity : json;
  if (!isObject(identity)) throw new Error(`${file} holds no identity object`);
  const demographics: Record<string, unknown> = {};
  const slots: DocumentSlot[] = [];
  for (const [field, value] of Object.entries(identity)) {
    const reference = isObject(value) && typeof value.format === 'string' ? value : undefined;
    // Biometric references are rewritten by the packet builder; document references become slots for the files.
    if (reference?.format === 'cbeff') continue;
    if (reference)
      slots.push({ field, type: reference.type as string | undefined, format: reference.format as string, value: reference.value as string | undefined });
    else demographics[field] = value;
  }
  return { demographics, slots };
}

/**
 * Each file's document: the --category given in the same position, else the
 * slot whose value or field is the file's name, else the next free slot.
 */
function documentsOf(files: string[], categories: string[], slots: DocumentSlot[]): PacketDocument[] {
  if (categories.length && categories.length !== files.length)
    throw new Error(`give one --category per file (${files.length} files, ${categories.length} categories)`);
  const free = [...slots];
  const take = (slot: DocumentSlot | undefined) => (slot ? free.splice(free.indexOf(slot), 1)[0] : undefined);
  const documents = files.map((file, index): PacketDocument => {
    const [field, explicitType] = categories[index]?.split(':') ?? [];
    const name = withoutExtension(file);
    const slot = field
      ? (take(free.find((each) => each.field === field)) ?? { field })
      : (take(free.find((each) => each.value === name || each.field === name)) ?? take(free[0]));
    if (!slot) throw new Error(`no document category for ${file}: the identity has no free document field; use --category field:TYPE`);
    const type = explicitType ?? slot.type;
    if (!type) throw new Error(`no document type for ${slot.field}: use --category ${slot.field}:TYPE (e.g. RNC)`);
    const extension = path.extname(file).slice(1).toLowerCase();
    return { field: slot.field, type, format: extension || slot.format || 'pdf', data: readFileSync(file) };
  });
  if (free.length) throw new Error(`the identity names the document ${free.map((slot) => slot.field).join(', ')} but no file was given for it`);
  return documents;
}

function readCbeff(file: string | undefined): { cbeff: Buffer; note: string } {
  if (!file) return { cbeff: buildCbeff(sampleBiometrics(randomUUID())), note: 'biometrics: 13 random sample BDBs (no --cbeff given)' };
  const cbeff = readFileSync(file);
  const usable = bdbDigests(parseCbeff(cbeff)).length;
  if (!usable) throw new Error(`${file} holds no captured biometric (every BIR is an exception or has no BDB)`);
  return { cbeff, note: `biometrics: ${file} (${usable} BDBs)` };
}

/** Single-quoted for a POSIX shell. */
const shell = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      cbeff: { type: 'string' },
      category: { type: 'string', multiple: true, default: [] },
      centre: { type: 'string', default: '10001' },
      machine: { type: 'string', default: '10001' },
      base: { type: 'string', default: 'http://localhost:8080' },
      certificate: { type: 'string' },
      out: { type: 'string', default: '.' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [identityFile, ...files] = positionals;
  if (!identityFile) throw new Error(USAGE);
  const base = values.base.replace(/\/+$/, '');
  const { demographics, slots } = readIdentity(identityFile);
  const documents = documentsOf(files, values.category, slots);
  const { cbeff, note } = readCbeff(values.cbeff);

  const now = new Date();
  const registrationId = makeRid(values.centre, values.machine, randomInt(0, 100_000), now);
  const zip = buildPacketZip({
    registrationId,
    centerId: values.centre,
    machineId: values.machine,
    creationDate: now,
    officerId: 'sample-officer',
    supervisorId: 'sample-supervisor',
    identity: demographics,
    cbeff,
    documents,
  });
  // The builder's own output, read as the platform will: a problem here is a bug, not bad input.
  const problems = packetProblems(await readPacketZip(zip, { maxUncompressedBytes: Number.MAX_SAFE_INTEGER }));
  if (problems.length) throw new Error(`the packet has problems: ${problems.join('; ')}`);

  let certificate: string;
  if (values.certificate) certificate = readFileSync(values.certificate, 'utf8');
  else {
    const cookie = await signIn(base, adminCredentials());
    certificate = await registrationCertificate(base, cookie, values.centre, values.machine);
  }
  const sealed = sealPacket(zip, certificate);
  const record = syncRecordOf(registrationId, sealed, { supervisorComment: 'built by npm run packet' });
  mkdirSync(values.out, { recursive: true });
  const packetFile = path.join(values.out, `${registrationId}.zip`);
  const syncFile = path.join(values.out, `${registrationId}.sync.json`);
  writeFileSync(packetFile, sealed);
  writeFileSync(syncFile, syncRequestBody([record], certificate, now));

  const login = JSON.stringify({
    id: 'platform.authentication.useridPwd',
    version: '1.0',
    requesttime: now.toISOString(),
    request: { userName: 'admin', password: '<password>', appId: 'admin' },
  });
  console.log(`RID   ${registrationId}
hash  ${record.packetHashValue}
size  ${record.packetSize} bytes
${note}; documents: ${documents.map((document) => `${document.field} (${document.type})`).join(', ') || 'none'}
wrote ${packetFile} and ${syncFile}

# sign in once (the Authorization cookie goes to ./cookies):
curl -s -c cookies -H 'Content-Type: application/json' -d ${shell(login)} ${base}/v1/authmanager/authenticate/internal/useridPwd
# sync, then upload:
curl -s -b cookies -H 'Content-Type: application/json' -H 'Center-Machine-RefId: ${values.centre}_${values.machine}' -H 'timestamp: ${now.toISOString()}' --data-binary @${shell(syncFile)} ${base}${SYNC_PATH}
curl -s -b cookies -F ${shell(`file=@${packetFile};filename=${registrationId}.zip`)} ${base}${UPLOAD_PATH}`);
}

await main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exitCode = 1;
});
