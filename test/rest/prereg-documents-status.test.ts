// Documents move an application between Application_Incomplete and Pending_Appointment by the
// configuration's mandatory categories; and the configured size holds for both doors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant, createApplication, preregCall } from '../support/prereg.js';
import { documentRequest, pdfWith, uploadDocument } from '../support/prereg-documents.js';

/** The shipped configuration with POA mandatory and documents of at most this many bytes. */
const MAX_BYTES = 1000;
const folder = mkdtempSync(path.join(tmpdir(), 'prereg-config-'));
const configFile = path.join(folder, 'prereg.properties');
writeFileSync(
  configFile,
  readFileSync('config/prereg/prereg.properties', 'utf8')
    .replace(/^preregistration\.documentupload\.mandatory\.categories=.*$/m, 'preregistration.documentupload.mandatory.categories=POA')
    .replace(/^preregistration\.documentupload\.allowed\.file\.size=.*$/m, `preregistration.documentupload.allowed.file.size=${MAX_BYTES}`),
);

let t: TestPlatform;
let amina: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PREREG_CONFIG_FILE: configFile });
  amina = await applicant(t, 'amina@example.org');
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

const statusOf = async (preRegId: string) =>
  (await preregCall(t, 'GET', `/applications/prereg/status/${preRegId}`, { headers: amina })).json.response.statusCode;

it('makes an application incomplete until its proof of address is in, and incomplete again once it is deleted', async () => {
  const { preRegistrationId: preRegId } = (await createApplication(t, amina)).json.response;
  expect(await statusOf(preRegId)).toBe('Application_Incomplete');
  // Another category does not complete it.
  await uploadDocument(t, amina, preRegId, documentRequest({ docCatCode: 'POI', docTypCode: 'PAS' }));
  expect(await statusOf(preRegId)).toBe('Application_Incomplete');

  const { docId } = (await uploadDocument(t, amina, preRegId)).json.response;
  expect(await statusOf(preRegId)).toBe('Pending_Appointment');
  await preregCall(t, 'DELETE', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: amina });
  expect(await statusOf(preRegId)).toBe('Application_Incomplete');

  // A copied proof of address completes it too; deleting every document undoes it.
  const { preRegistrationId: source } = (await createApplication(t, amina)).json.response;
  await uploadDocument(t, amina, source);
  await preregCall(t, 'PUT', `/documents/${preRegId}?catCode=POA&sourcePreId=${source}`, { headers: amina });
  expect(await statusOf(preRegId)).toBe('Pending_Appointment');
  await preregCall(t, 'DELETE', `/documents/preregistration/${preRegId}`, { headers: amina });
  expect(await statusOf(preRegId)).toBe('Application_Incomplete');
});

it('answers a GraphQL upload with the application it moved on, its documents and status as they are now', async () => {
  const { preRegistrationId: preRegId } = (await createApplication(t, amina)).json.response;
  const content = pdfWith('poa');
  const answer = await t.graphql(
    `mutation($input: UploadPreRegistrationDocumentInput!) { uploadPreRegistrationDocument(input: $input) {
      preRegistrationDocument { documentId application { preRegistrationId statusCode documents { documentId docCatCode } } } userErrors { code } } }`,
    { input: { preRegistrationId: preRegId, ...documentRequest(), fileName: 'poa.pdf', content: content.toString('base64') } },
    amina,
  );
  const uploaded = answer.data.uploadPreRegistrationDocument.preRegistrationDocument;
  expect(uploaded.application).toEqual({
    preRegistrationId: preRegId,
    statusCode: 'Pending_Appointment',
    documents: [{ documentId: uploaded.documentId, docCatCode: 'POA' }],
  });
});

it('refuses a document over the configured size through REST and GraphQL alike (PRG_PAM_DOC_007)', async () => {
  const { preRegistrationId: preRegId } = (await createApplication(t, amina)).json.response;
  const large = Buffer.concat([pdfWith('large'), Buffer.alloc(MAX_BYTES)]);
  await expectRejected(t, () => uploadDocument(t, amina, preRegId, documentRequest(), { file: { name: 'large.pdf', bytes: large } }), 'PRG_PAM_DOC_007');
  const before = await t.snapshot();
  const answer = await t.graphql(
    'mutation($input: UploadPreRegistrationDocumentInput!) { uploadPreRegistrationDocument(input: $input) { preRegistrationDocument { documentId } userErrors { code } } }',
    { input: { preRegistrationId: preRegId, ...documentRequest(), fileName: 'large.pdf', content: large.toString('base64') } },
    amina,
  );
  expect(answer.data.uploadPreRegistrationDocument).toEqual({ preRegistrationDocument: null, userErrors: [{ code: 'PRG_PAM_DOC_007' }] });
  expect(await t.snapshot()).toEqual(before);
  // Exactly at the limit is taken.
  const fits = Buffer.concat([pdfWith('fits'), Buffer.alloc(MAX_BYTES - pdfWith('fits').length)]);
  expect((await uploadDocument(t, amina, preRegId, documentRequest(), { file: { name: 'fits.pdf', bytes: fits } })).json.errors).toBeNull();
});

it('refuses Pending_Appointment while the proof of address is missing (PRG_PAM_APP_023), changing nothing', async () => {
  const { preRegistrationId: preRegId } = (await createApplication(t, amina)).json.response;
  await expectRejected(
    t,
    () => preregCall(t, 'PUT', `/applications/prereg/status/${preRegId}?statusCode=Pending_Appointment`, { headers: amina }),
    'PRG_PAM_APP_023',
  );
  expect(await statusOf(preRegId)).toBe('Application_Incomplete');
});

it('answers PRG_PAM_DOC_011 when the copy cannot be stored, and keeps the destination as it was', async () => {
  const [{ preRegistrationId: source }, { preRegistrationId: destination }] = [
    (await createApplication(t, amina)).json.response,
    (await createApplication(t, amina)).json.response,
  ];
  expect((await uploadDocument(t, amina, source)).json.errors).toBeNull();
  // A file where the destination's folder of the object store must go: the store cannot write there.
  const blocked = path.join(t.platform.deps.config.dataDir, 'objects', 'prereg', 'documents', destination);
  mkdirSync(path.dirname(blocked), { recursive: true });
  writeFileSync(blocked, 'not a folder');
  try {
    await expectRejected(t, () => preregCall(t, 'PUT', `/documents/${destination}?catCode=POA&sourcePreId=${source}`, { headers: amina }), 'PRG_PAM_DOC_011');
    expect(await statusOf(destination)).toBe('Application_Incomplete');
  } finally {
    rmSync(blocked);
  }
});
