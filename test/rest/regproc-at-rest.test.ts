// Packets stay encrypted in the object store, and nothing decrypted from a packet is left in the
// database or in files, beyond what the ID repository stores under its own keys: after two residents'
// packets are PROCESSED (one notified by e-mail, one by SMS), neither their names, e-mail, phone,
// their documents' text nor a biometric's bytes are anywhere in a dump of the database (PostgreSQL's
// pg_dump, or PGlite's data folder with its WAL) or under the platform's data folder (objects, spool).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleResident, type SampleResident } from '../../tools/registration/sample-resident.js';
import { cookieHeader, startTestPlatform, type TestDatabaseKind, type TestPlatform } from '../support/platform.js';
import { registrationClient, type RegistrationClient } from '../support/regproc.js';

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;

/** Everything the database holds on disk, as bytes: PGlite's data folder (tables and WAL), or a pg_dump of the server's database. */
async function databaseBytes(): Promise<{ kind: string; bytes: Buffer }> {
  const { database } = t.platform;
  if (database.pglite) return { kind: 'pglite', bytes: Buffer.from(await (await database.pglite.dumpDataDir('none')).arrayBuffer()) };
  const name = (await database.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT current_database() AS name'))[0]!.name;
  return { kind: 'postgresql', bytes: execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '--data-only', name], { maxBuffer: 256 * 1024 * 1024 }) };
}

/** Every file under a folder, with its bytes. */
function filesUnder(folder: string): { file: string; bytes: Buffer }[] {
  if (!existsSync(folder)) return [];
  const found: { file: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    const stat = statSync(full);
    if (stat.isDirectory()) found.push(...filesUnder(full));
    else if (stat.isFile()) found.push({ file: full, bytes: readFileSync(full) });
  }
  return found;
}

/** A value searched for at rest: its name in the report, and the byte forms it could be kept in. */
interface Needle {
  what: string;
  forms: Buffer[];
}

const text = (what: string, value: string): Needle => ({
  what,
  forms: [...new Set([value, value.toLowerCase(), value.toUpperCase()])].map((form) => Buffer.from(form, 'utf8')),
});
const bytes = (what: string, value: Buffer): Needle => ({ what, forms: [value] });

/** A slice of the base64 of `data` (encoded whole, as the packet's CBEFF holds a BDB, as the ID repository takes a document). */
const base64Slice = (data: Buffer, from = 60, length = 44) => data.toString('base64').slice(from, from + length);

/** Where each needle is found: "<what> in <place>". */
function findings(needles: Needle[], places: { place: string; bytes: Buffer }[]): string[] {
  const found: string[] = [];
  for (const { place, bytes: haystack } of places)
    for (const needle of needles) if (needle.forms.some((form) => haystack.includes(form))) found.push(`${needle.what} in ${place}`);
  return found;
}

/** What a resident's packet carried that must not be found in clear. */
function needlesOf(label: string, resident: SampleResident): Needle[] {
  const names = resident.identity.fullName as { language: string; value: string }[];
  const pdf = resident.documents[0]!.data;
  const pdfText = pdf.toString('latin1');
  const holder = /Holder: [^)]+/.exec(pdfText)?.[0];
  const reference = /Reference: [^)]+/.exec(pdfText)?.[0];
  expect(holder).toBe(`Holder: ${names.find((name) => name.language === 'eng')!.value}`);
  expect(reference).toBe(`Reference: ${resident.seed}`);
  const bdb = resident.biometrics[0]?.bdb;
  if (!bdb?.length) throw new Error(`${label} has no biometric BDB`);
  return [
    ...names.map((name) => text(`${label}'s full name (${name.language})`, name.value)),
    text(`${label}'s phone`, resident.identity.phone as string),
    ...(typeof resident.identity.email === 'string' ? [text(`${label}'s e-mail`, resident.identity.email)] : []),
    text(`${label}'s document text (holder)`, holder!),
    text(`${label}'s document text (reference)`, reference!),
    bytes(`${label}'s biometric BDB bytes`, bdb.subarray(64, 96)),
    text(`${label}'s biometric BDB as base64`, base64Slice(bdb)),
    text(`${label}'s document as base64`, base64Slice(pdf)),
    text(`${label}'s CBEFF as base64`, base64Slice(resident.cbeff, 600)),
  ];
}

/**
 * The project's database (PLATFORM_TEST_DB): PostgreSQL's pg_dump and PGlite's data folder (with its
 * WAL) keep different traces; the file runs in the postgres and the pglite projects.
 */
const kind = (process.env.PLATFORM_TEST_DB ?? 'postgres') as TestDatabaseKind;
describe(`registration packets at rest, on ${kind}`, () => {
  beforeAll(async () => {
    // The object store is the files one: its objects live under the data folder that is searched.
    t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', REGPROC_DEDUPE: 'local' }, undefined, { database: kind });
    admin = cookieHeader(await t.adminToken());
    client = await registrationClient(t, admin);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('leaves no name, e-mail, phone, document text or biometric of a processed resident in the database or under the data folder', async () => {
    const seed = `at-rest-${Date.now().toString(36)}`;
    const withEmail = sampleResident(`${seed}-mail`);
    const withoutEmail = sampleResident(`${seed}-sms`);
    delete withoutEmail.identity.email;
    expect(withEmail.identity.email).toEqual(expect.stringMatching(/@example\.org$/));

    const built = [withEmail, withoutEmail].map((resident) => client.build(resident.seed, { resident }));
    for (const packet of built) await client.submit(packet);
    for (const packet of built) expect(await client.settle(packet.rid)).toBe('PROCESSED');
    for (const packet of built) expect(await t.platform.deps.services.identities.byRegistration(packet.rid)).not.toBeNull();

    // Notified by e-mail and by SMS: the notifications were written (sealed), so they are part of what is searched.
    const outbox = 'query($to: String) { outbox(to: $to) { channel subject } }';
    expect((await t.graphql(outbox, { to: withEmail.identity.email }, admin)).data.outbox).toEqual([{ channel: 'EMAIL', subject: expect.any(String) }]);
    expect((await t.graphql(outbox, { to: withoutEmail.identity.phone }, admin)).data.outbox).toEqual([expect.objectContaining({ channel: 'SMS' })]);

    // The packets are stored as uploaded: encrypted.
    const { dataDir } = t.platform.deps.config;
    for (const packet of built) {
      const stored = await t.platform.deps.objects.get(`regproc/packets/${packet.rid}.zip`);
      expect(stored?.equals(packet.sealed)).toBe(true);
    }

    const database = await databaseBytes();
    expect(database.kind).toBe(kind === 'postgres' ? 'postgresql' : 'pglite');
    expect(database.bytes.length).toBeGreaterThan(10_000);
    const files = filesUnder(dataDir);
    // The search sees what is there: the RIDs in the database, the sealed packets in the object files.
    for (const packet of built) {
      expect(database.bytes.includes(Buffer.from(packet.rid))).toBe(true);
      expect(files.some((file) => file.bytes.includes(packet.sealed.subarray(1000, 1032)))).toBe(true);
    }
    expect(files.some((file) => file.file.startsWith(path.join(dataDir, 'objects', 'regproc', 'packets')))).toBe(true);

    const needles = [...needlesOf('the e-mailed resident', withEmail), ...needlesOf('the texted resident', withoutEmail)];
    const places = [
      { place: `the ${database.kind} database dump`, bytes: database.bytes },
      ...files.map((file) => ({ place: path.relative(dataDir, file.file), bytes: file.bytes })),
    ];
    expect(findings(needles, places)).toEqual([]);
  });
});
