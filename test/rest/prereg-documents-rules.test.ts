// The documents' rules, each code made to happen: what the configuration and master data refuse, the
// upload's envelope, locked applications, documents of another application, another applicant's calls
// (PRG_PAM_APP_017 by REST and GraphQL), administrators' and staff's reach, and stored data that fails its checks.
import { describe, expect, it } from 'vitest';
import { expectError, expectRejected } from '../support/assertions.js';
import { bearer, type TestPlatform } from '../support/platform.js';
import { createApplication, preregCall, preregPlatform } from '../support/prereg.js';
import { codeOf, documentRequest, PNG, pdfWith, uploadDocument } from '../support/prereg-documents.js';

let t: TestPlatform;
let amina: Record<string, string>;
let bilal: Record<string, string>;
preregPlatform((suite) => ({ t, amina, bilal } = suite));

const newApplication = async (cookie = amina): Promise<string> => (await createApplication(t, cookie)).json.response.preRegistrationId;
/** An application of Amina's holding a proof of address: its id and the document's. */
async function withDocument(): Promise<{ preRegId: string; docId: string }> {
  const preRegId = await newApplication();
  const uploaded = await uploadDocument(t, amina, preRegId);
  return { preRegId, docId: uploaded.json.response.docId as string };
}
const file = (name: string, bytes: Buffer) => ({ file: { name, bytes } });
/** The code a GraphQL answer carries: a top-level error's, or the payload's first user error's. */
const graphCode = (answer: any, field: string): string | undefined => answer.errors?.[0]?.extensions?.code ?? answer.data?.[field]?.userErrors?.[0]?.code;

describe('an upload the rules refuse changes nothing', () => {
  it('refuses a type the configuration does not allow, by extension and by content, a file too large, a name too long, no file', async () => {
    const preRegId = await newApplication();
    const send = (options: Parameters<typeof uploadDocument>[4]) => () => uploadDocument(t, amina, preRegId, documentRequest(), options);
    await expectRejected(t, send(file('notes.txt', Buffer.from('plain text'))), 'PRG_PAM_DOC_004');
    await expectRejected(t, send(file('photo.pdf', PNG)), 'PRG_PAM_DOC_004');
    await expectRejected(t, send(file('scan.gif', Buffer.from('GIF89a-body'))), 'PRG_PAM_DOC_004');
    await expectRejected(t, send(file('empty.pdf', Buffer.alloc(0))), 'PRG_PAM_DOC_004');
    await expectRejected(t, send(file('large.pdf', Buffer.concat([pdfWith('large'), Buffer.alloc(2_000_000)]))), 'PRG_PAM_DOC_007');
    await expectRejected(t, send(file(`${'n'.repeat(47)}.pdf`, pdfWith('name'))), 'PRG_CORE_REQ_004', /longer than 50 characters/);
    await expectRejected(t, send({ file: null }), 'PRG_CORE_REQ_001');
  });

  it('refuses an unknown category, a type not valid for it, a language not supported, a missing field', async () => {
    const preRegId = await newApplication();
    const send = (request: Record<string, unknown>) => () => uploadDocument(t, amina, preRegId, request);
    await expectRejected(t, send(documentRequest({ docCatCode: 'XYZ' })), 'PRG_CORE_REQ_018');
    await expectRejected(t, send(documentRequest({ docTypCode: 'PAS' })), 'PRG_CORE_REQ_017');
    await expectRejected(t, send(documentRequest({ langCode: 'xyz' })), 'PRG_CORE_REQ_014');
    await expectRejected(t, send(documentRequest({ docCatCode: undefined })), 'PRG_CORE_REQ_001');
    await expectRejected(t, () => uploadDocument(t, amina, '99999999999999'), 'PRG_PAM_APP_005');
  });

  it('checks the Document request envelope as every pre-registration envelope: id, version, requesttime on the current date', async () => {
    const preRegId = await newApplication();
    const send = (options: Parameters<typeof uploadDocument>[4]) => () => uploadDocument(t, amina, preRegId, documentRequest(), options);
    const yesterday = new Date(t.clock.now().getTime() - 86_400_000).toISOString();
    await expectRejected(t, send({ envelope: { id: 'platform.pre-registration.document.copy' } }), 'PRG_PAM_CORE_001');
    await expectRejected(t, send({ envelope: { id: undefined } }), 'PRG_PAM_CORE_001');
    await expectRejected(t, send({ envelope: { version: '2.0' } }), 'PRG_PAM_CORE_002');
    await expectRejected(t, send({ envelope: { requesttime: undefined } }), 'PRG_PAM_CORE_003');
    await expectRejected(t, send({ envelope: { requesttime: 'today' } }), 'PRG_PAM_CORE_003');
    await expectRejected(t, send({ envelope: { requesttime: yesterday } }), 'PRG_CORE_REQ_013');
    await expectRejected(t, send({ envelopeText: '' }), 'PRG_CORE_REQ_001');
    await expectRejected(t, send({ envelopeText: '{not json' }), 'PRG_CORE_REQ_004');
  });
});

describe('what a document call names', () => {
  it('keeps the documents of a booked, expired, cancelled or fetched application: PRG_PAM_DOC_024, reading still allowed', async () => {
    const { preRegId, docId } = await withDocument();
    const { preRegId: source } = await withDocument();
    await t.platform.database.prisma.preRegApplication.update({ where: { id: preRegId }, data: { statusCode: 'Booked' } });
    await expectRejected(t, () => uploadDocument(t, amina, preRegId), 'PRG_PAM_DOC_024');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: amina }), 'PRG_PAM_DOC_024');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/preregistration/${preRegId}`, { headers: amina }), 'PRG_PAM_DOC_024');
    await expectRejected(t, () => preregCall(t, 'PUT', `/documents/${preRegId}?catCode=POA&sourcePreId=${source}`, { headers: amina }), 'PRG_PAM_DOC_024');
    const reference = `/documents/document/${docId}?preRegistrationId=${preRegId}&refNumber=R2`;
    await expectRejected(t, () => preregCall(t, 'PUT', reference, { headers: amina }), 'PRG_PAM_DOC_024');
    const upload = await t.graphql(
      'mutation($input: UploadPreRegistrationDocumentInput!) { uploadPreRegistrationDocument(input: $input) { userErrors { code } } }',
      { input: { preRegistrationId: preRegId, ...documentRequest(), fileName: 'lease.pdf', content: pdfWith('x').toString('base64') } },
      amina,
    );
    expect(graphCode(upload, 'uploadPreRegistrationDocument')).toBe('PRG_PAM_DOC_024');
    expect((await preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: amina })).json.response.documentsMetaData).toHaveLength(1);
  });

  it('answers PRG_PAM_DOC_022 for another application’s document, PRG_PAM_DOC_005 and PRG_PAM_DOC_006 for none, and checks the ids', async () => {
    const { preRegId, docId } = await withDocument();
    const other = await newApplication();
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${other}`, { headers: amina }), 'PRG_PAM_DOC_022');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/${docId}?preRegistrationId=${other}`, { headers: amina }), 'PRG_PAM_DOC_022');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${unknown}?preRegistrationId=${preRegId}`, { headers: amina }), 'PRG_PAM_DOC_005');
    await expectRejected(
      t,
      () => preregCall(t, 'PUT', `/documents/document/${unknown}?preRegistrationId=${preRegId}&refNumber=R`, { headers: amina }),
      'PRG_PAM_DOC_005',
    );
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/preregistration/${other}`, { headers: amina }), 'PRG_PAM_DOC_005');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/${unknown}?preRegistrationId=${preRegId}`, { headers: amina }), 'PRG_PAM_DOC_006');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/preregistration/${other}`, { headers: amina }), 'PRG_PAM_DOC_006');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${docId}`, { headers: amina }), 'PRG_CORE_REQ_001');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${'d'.repeat(65)}?preRegistrationId=${preRegId}`, { headers: amina }), 'PRG_PAM_DOC_019');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${'1'.repeat(65)}`, { headers: amina }), 'PRG_PAM_DOC_018');
  });

  it('gives another applicant PRG_PAM_APP_017 on every call naming the application, by REST and by GraphQL', async () => {
    const { preRegId, docId } = await withDocument();
    const bilals = await newApplication(bilal);
    const rest = [
      () => uploadDocument(t, bilal, preRegId),
      () => preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: bilal }),
      () => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: bilal }),
      () => preregCall(t, 'DELETE', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: bilal }),
      () => preregCall(t, 'DELETE', `/documents/preregistration/${preRegId}`, { headers: bilal }),
      () => preregCall(t, 'PUT', `/documents/${preRegId}?catCode=POA&sourcePreId=${bilals}`, { headers: bilal }),
      () => preregCall(t, 'PUT', `/documents/${bilals}?catCode=POA&sourcePreId=${preRegId}`, { headers: bilal }),
      () => preregCall(t, 'PUT', `/documents/document/${docId}?preRegistrationId=${preRegId}&refNumber=R`, { headers: bilal }),
    ];
    for (const send of rest) await expectRejected(t, send, 'PRG_PAM_APP_017');

    const p = preRegId;
    const graph: [string, string, Record<string, unknown>][] = [
      ['preRegistrationDocuments', 'query($p: String!) { preRegistrationDocuments(preRegistrationId: $p) { documentId } }', { p }],
      [
        'preRegistrationDocumentContent',
        'query($p: String!, $d: String!) { preRegistrationDocumentContent(preRegistrationId: $p, documentId: $d) { document } }',
        { p, d: docId },
      ],
      ['preRegistration', 'query($p: String!) { preRegistration(preRegistrationId: $p) { documents { documentId } } }', { p }],
      [
        'uploadPreRegistrationDocument',
        'mutation($i: UploadPreRegistrationDocumentInput!) { uploadPreRegistrationDocument(input: $i) { userErrors { code } } }',
        { i: { preRegistrationId: p, ...documentRequest(), fileName: 'a.pdf', content: pdfWith('a').toString('base64') } },
      ],
      [
        'deletePreRegistrationDocument',
        'mutation($p: String!, $d: String!) { deletePreRegistrationDocument(input: { preRegistrationId: $p, documentId: $d }) { userErrors { code } } }',
        { p, d: docId },
      ],
      [
        'deletePreRegistrationDocuments',
        'mutation($p: String!) { deletePreRegistrationDocuments(input: { preRegistrationId: $p }) { userErrors { code } } }',
        { p },
      ],
      [
        'copyPreRegistrationDocument',
        'mutation($p: String!, $s: String!) { copyPreRegistrationDocument(input: { preRegistrationId: $p, sourcePreRegistrationId: $s, docCatCode: "POA" }) { userErrors { code } } }',
        { p: bilals, s: p },
      ],
      [
        'updatePreRegistrationDocumentReference',
        'mutation($p: String!, $d: String!) { updatePreRegistrationDocumentReference(input: { preRegistrationId: $p, documentId: $d, refNumber: "R" }) { userErrors { code } } }',
        { p, d: docId },
      ],
    ];
    const before = await t.snapshot();
    for (const [field, query, variables] of graph) expect(graphCode(await t.graphql(query, variables, bilal), field), field).toBe('PRG_PAM_APP_017');
    expect(await t.snapshot()).toEqual(before);
  });

  it('lets pre-registration administrators read any application’s documents and change none; registration staff reach nothing', async () => {
    const { preRegId, docId } = await withDocument();
    const admin = bearer((await t.clientToken(['PRE_REGISTRATION_ADMIN'])).token);
    const officer = bearer((await t.clientToken(['REGISTRATION_OFFICER'])).token);
    expect((await preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: admin })).json.response.documentsMetaData).toHaveLength(1);
    expect((await preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: admin })).json.response.document).toBeTruthy();
    await expectRejected(t, () => uploadDocument(t, admin, preRegId), 'KER-ATH-403');
    await expectRejected(t, () => preregCall(t, 'DELETE', `/documents/preregistration/${preRegId}`, { headers: admin }), 'KER-ATH-403');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: officer }), 'KER-ATH-403');
    await expectRejected(t, () => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: officer }), 'KER-ATH-403');
  });
});

describe('stored data that fails its checks is refused, never served', () => {
  it('answers PRG_CORE_REQ_012 for bytes that do not decrypt, PRG_CORE_REQ_010 for bytes that fail their HMAC, PRG_PAM_CORE_012 for a name', async () => {
    const { preRegId, docId } = await withDocument();
    const { docId: otherDocId } = await withDocument();
    const { prisma } = t.platform.database;
    const [row, other] = await Promise.all([
      prisma.preRegDocument.findUniqueOrThrow({ where: { id: docId } }),
      prisma.preRegDocument.findUniqueOrThrow({ where: { id: otherDocId } }),
    ]);
    const read = () => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: amina });

    // Another document's sealed bytes moved here: bound to that document, they do not decrypt.
    const original = (await t.platform.deps.objects.get(row.objectKey))!;
    await t.platform.deps.objects.put(row.objectKey, (await t.platform.deps.objects.get(other.objectKey))!);
    expectError((await read()).json, 'PRG_CORE_REQ_012');
    await t.platform.deps.objects.put(row.objectKey, original);

    await prisma.preRegDocument.update({ where: { id: docId }, data: { hash: other.hash } });
    expectError((await read()).json, 'PRG_CORE_REQ_010');
    await prisma.preRegDocument.update({ where: { id: docId }, data: { hash: row.hash, docName: other.docName } });
    expectError((await preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: amina })).json, 'PRG_PAM_CORE_012');
    await prisma.preRegDocument.update({ where: { id: docId }, data: { docName: row.docName } });
    expect(codeOf(await read())).toBeUndefined();
  });

  it('answers PRG_PAM_DOC_012 when the documents table cannot be reached, with no word of the driver', async () => {
    const { preRegId } = await withDocument();
    const { prisma } = t.platform.database;
    await prisma.$executeRawUnsafe('ALTER TABLE prereg_document RENAME TO prereg_document_away');
    try {
      const answer = (await preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: amina })).json;
      expectError(answer, 'PRG_PAM_DOC_012');
      expect(JSON.stringify(answer.errors)).not.toMatch(/prereg_document|relation|prisma|\.ts/i);
    } finally {
      await prisma.$executeRawUnsafe('ALTER TABLE prereg_document_away RENAME TO prereg_document');
    }
    expect(codeOf(await preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers: amina }))).toBeUndefined();
  });
});
