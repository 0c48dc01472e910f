// An uploaded document stays sealed: after a document holding a unique text is uploaded (then copied,
// replaced and given a new number), neither that text, its file name, its number nor the applicant's name
// is in any file under the platform's data folder (objects, spool) or in a dump of the database.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, applicantIdentity, createApplication, preregCall } from '../support/prereg.js';
import { documentRequest, PNG, pdfWith, uploadDocument } from '../support/prereg-documents.js';

let t: TestPlatform;
let amina: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' });
  amina = await applicant(t, 'amina@example.org');
});
afterAll(async () => {
  await t?.close();
});

/** Every file under a folder, with its bytes. */
function filesUnder(folder: string): { place: string; bytes: Buffer }[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesUnder(full) : stat.isFile() ? [{ place: full, bytes: readFileSync(full) }] : [];
  });
}

/** The database as bytes: a pg_dump of its data (this file runs on PostgreSQL), or PGlite's data folder. */
async function databaseBytes(): Promise<Buffer> {
  const { database } = t.platform;
  if (database.pglite) return Buffer.from(await (await database.pglite.dumpDataDir('none')).arrayBuffer());
  const name = (await database.prisma.$queryRawUnsafe<{ name: string }[]>('SELECT current_database() AS name'))[0]!.name;
  return execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '--data-only', name], { maxBuffer: 256 * 1024 * 1024 });
}

it('keeps nothing of a document or its applicant in clear: not its text, name or number, nor the applicant’s name', async () => {
  const marker = `marker-${randomUUID()}`;
  const applicantName = 'Zephyrine Quillfeather';
  const fileName = `quillfeather-${randomUUID().slice(0, 8)}.pdf`;
  const refNumber = `REF-${randomUUID().slice(0, 12)}`;
  const identity = applicantIdentity({ fullName: [{ language: 'eng', value: applicantName }] });
  const [first, second] = [
    (await createApplication(t, amina, identity)).json.response.preRegistrationId,
    (await createApplication(t, amina, identity)).json.response.preRegistrationId,
  ];

  const uploaded = await uploadDocument(t, amina, first, documentRequest({ refNumber }), { file: { name: fileName, bytes: pdfWith(marker) } });
  expect(uploaded.json.response.docName).toBe(fileName);
  await preregCall(t, 'PUT', `/documents/${second}?catCode=POA&sourcePreId=${first}`, { headers: amina });
  await uploadDocument(t, amina, first, documentRequest({ docCatCode: 'POI', docTypCode: 'PAS', refNumber }), { file: { name: `${marker}.png`, bytes: PNG } });
  await preregCall(t, 'PUT', `/documents/document/${uploaded.json.response.docId}?preRegistrationId=${first}&refNumber=${refNumber}-2`, { headers: amina });
  // Still readable by its applicant, as uploaded.
  const read = await preregCall(t, 'GET', `/documents/${uploaded.json.response.docId}?preRegistrationId=${first}`, { headers: amina });
  expect(Buffer.from(read.json.response.document, 'base64').toString('latin1')).toContain(marker);

  const { dataDir } = t.platform.deps.config;
  const objects = filesUnder(path.join(dataDir, 'objects'));
  expect(objects.filter(({ place }) => place.includes('prereg'))).toHaveLength(3);
  // Object keys hold ids only, never what the applicant wrote.
  for (const { place } of objects) expect(place).not.toMatch(/quillfeather|marker|\.pdf|\.png/i);
  expect(filesUnder(path.join(dataDir, 'spool'))).toEqual([]);

  const places = [...objects, ...filesUnder(path.join(dataDir, 'spool')), { place: 'the database', bytes: await databaseBytes() }];
  const needles = [marker, fileName, refNumber, applicantName, 'Quillfeather', 'amina@example.org'];
  const found = places.flatMap(({ place, bytes }) =>
    needles
      .filter((needle) => [needle, needle.toLowerCase(), needle.toUpperCase()].some((form) => bytes.includes(Buffer.from(form, 'utf8'))))
      .map((needle) => `${needle} in ${place}`),
  );
  expect(found).toEqual([]);
});

it('keeps the keys that seal them out of the crypto manager’s reach, for the platform admin and pre-registration’s own', async () => {
  const sealed = (await t.platform.database.prisma.preRegKey.findFirstOrThrow({ where: { purpose: 'DATA' } })).sealedKey;
  const preregAdmin = bearer((await t.clientToken(['PRE_REGISTRATION_ADMIN'])).token);
  for (const headers of [cookieHeader(await t.adminToken()), preregAdmin])
    for (const [applicationId, referenceId] of [
      ['PREREG', ''],
      ['PRE_REGISTRATION', 'INDIVIDUAL'],
    ]) {
      const opened = await t.request('POST', '/v1/cryptomanager/decrypt', { headers, body: envelopeOf({ applicationId, referenceId, data: sealed }) });
      expect(opened.json.response, applicationId).toBeNull();
      expect(opened.json.errors[0].errorCode, applicationId).toMatch(/^KER-(CRY|ATH)-\d{3}$/);
    }
});
