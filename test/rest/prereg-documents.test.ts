import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { type TestPlatform } from '../support/platform.js';
import { createApplication, preregCall, preregPlatform } from '../support/prereg.js';
import { codeOf, documentRequest, PNG, pdfWith, uploadDocument } from '../support/prereg-documents.js';

let t: TestPlatform;
let amina: Record<string, string>;
let bilal: Record<string, string>;
preregPlatform((suite) => ({ t, amina, bilal } = suite));

const newApplication = async (cookie = amina): Promise<string> => (await createApplication(t, cookie)).json.response.preRegistrationId;
const objectsOf = (preRegId: string) => t.platform.deps.objects.list(`prereg/documents/${preRegId}/`);
const list = (preRegId: string, headers = amina) => preregCall(t, 'GET', `/documents/preregistration/${preRegId}`, { headers });
const content = (preRegId: string, docId: string, headers = amina) => preregCall(t, 'GET', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers });
const copy = (preRegId: string, query: string, headers = amina) => preregCall(t, 'PUT', `/documents/${preRegId}?${query}`, { headers });

const DOCUMENT_FIELDS = 'documentId preRegistrationId docName docCatCode docTypCode langCode docFileFormat refNumber';

describe('documents', () => {
  it('uploads, lists, reads, replaces and deletes the applicant’s documents', async () => {
    const preRegId = await newApplication();
    const lease = pdfWith('lease of 12 Cedar Lane');
    const uploaded = await uploadDocument(t, amina, preRegId, documentRequest(), { file: { name: 'lease.pdf', bytes: lease } });
    expect(uploaded.json.errors).toBeNull();
    const { docId } = uploaded.json.response;
    expect(uploaded.json.response).toEqual({
      preRegistrationId: preRegId,
      docId,
      docName: 'lease.pdf',
      docCatCode: 'POA',
      docTypCode: 'RNC',
      docFileFormat: 'pdf',
    });

    expect((await list(preRegId)).json.response).toEqual({
      documentsMetaData: [{ docName: 'lease.pdf', documentId: docId, docCatCode: 'POA', docTypCode: 'RNC', langCode: 'eng', refNumber: 'RC-1' }],
    });
    expect(Buffer.from((await content(preRegId, docId)).json.response.document, 'base64').equals(lease)).toBe(true);

    // A new upload of the category replaces the document under the same id; the old file goes.
    const replaced = await uploadDocument(t, amina, preRegId, documentRequest({ docTypCode: 'CIN', refNumber: null }), {
      file: { name: 'card.png', bytes: PNG },
    });
    expect(replaced.json.response).toMatchObject({ docId, docName: 'card.png', docTypCode: 'CIN', docFileFormat: 'png' });
    // No number on the document: left out, or empty as the portal sends it.
    for (const request of [{ docCatCode: 'POA', docTypCode: 'CIN', langCode: 'eng' }, documentRequest({ docTypCode: 'CIN', refNumber: '' })]) {
      expect((await uploadDocument(t, amina, preRegId, request, { file: { name: 'card.png', bytes: PNG } })).json.errors).toBeNull();
      expect((await list(preRegId)).json.response.documentsMetaData[0].refNumber).toBeNull();
    }
    expect(Buffer.from((await content(preRegId, docId)).json.response.document, 'base64').equals(PNG)).toBe(true);
    expect(await objectsOf(preRegId)).toHaveLength(1);

    const identity = await uploadDocument(t, amina, preRegId, documentRequest({ docCatCode: 'POI', docTypCode: 'PAS', langCode: 'fra' }));
    const listed = (await list(preRegId)).json.response.documentsMetaData;
    expect(listed.map((document: { docCatCode: string }) => document.docCatCode)).toEqual(['POA', 'POI']);
    expect(listed[0].refNumber).toBeNull();

    const deleted = await preregCall(t, 'DELETE', `/documents/${docId}?preRegistrationId=${preRegId}`, { headers: amina });
    expect(deleted.json.response).toEqual({ message: 'Document successfully deleted' });
    expect((await list(preRegId)).json.response.documentsMetaData.map((document: { documentId: string }) => document.documentId)).toEqual([
      identity.json.response.docId,
    ]);
    expect(codeOf(await content(preRegId, docId))).toBe('PRG_PAM_DOC_005');

    const all = await preregCall(t, 'DELETE', `/documents/preregistration/${preRegId}`, { headers: amina });
    expect(all.json.response.message).toMatch(/deleted/);
    expect(codeOf(await list(preRegId))).toBe('PRG_PAM_DOC_005');
    expect(await objectsOf(preRegId)).toEqual([]);
  });

  it('serves the same rules through GraphQL: upload as base64, documents of applications, content, delete', async () => {
    const [first, second] = [await newApplication(), await newApplication()];
    const upload = `mutation($input: UploadPreRegistrationDocumentInput!) {
      uploadPreRegistrationDocument(input: $input) { preRegistrationDocument { ${DOCUMENT_FIELDS} } userErrors { code } } }`;
    const input = (preRegistrationId: string, over: Record<string, unknown> = {}) => ({
      preRegistrationId,
      ...documentRequest(),
      fileName: 'lease.pdf',
      content: pdfWith(preRegistrationId).toString('base64'),
      ...over,
    });
    const made = (await t.graphql(upload, { input: input(first) }, amina)).data.uploadPreRegistrationDocument;
    expect(made.userErrors).toEqual([]);
    expect(made.preRegistrationDocument).toMatchObject({ preRegistrationId: first, docName: 'lease.pdf', docFileFormat: 'pdf', refNumber: 'RC-1' });
    await t.graphql(upload, { input: input(second, { docCatCode: 'POI', docTypCode: 'CIN' }) }, amina);
    const refused = (await t.graphql(upload, { input: input(first, { fileName: 'lease.png' }) }, amina)).data.uploadPreRegistrationDocument;
    expect(refused).toEqual({ preRegistrationDocument: null, userErrors: [{ code: 'PRG_PAM_DOC_004' }] });

    // Every application of the viewer with its documents, loaded together.
    const viewer = await t.graphql(
      `{ viewer { preRegistrations(first: 10) { edges { node { preRegistrationId documents { docCatCode docName } } } } } }`,
      {},
      amina,
    );
    const byId = Object.fromEntries(
      viewer.data.viewer.preRegistrations.edges.map(({ node }: { node: { preRegistrationId: string; documents: unknown[] } }) => [
        node.preRegistrationId,
        node.documents,
      ]),
    );
    expect(byId[first]).toEqual([{ docCatCode: 'POA', docName: 'lease.pdf' }]);
    expect(byId[second]).toEqual([{ docCatCode: 'POI', docName: 'lease.pdf' }]);

    const read = await t.graphql(
      'query($p: String!, $d: String!) { preRegistrationDocumentContent(preRegistrationId: $p, documentId: $d) { document } }',
      { p: first, d: made.preRegistrationDocument.documentId },
      amina,
    );
    expect(Buffer.from(read.data.preRegistrationDocumentContent.document, 'base64').equals(pdfWith(first))).toBe(true);
    const removed = await t.graphql(
      'mutation($p: String!) { deletePreRegistrationDocuments(input: { preRegistrationId: $p }) { preRegistrationMessage { status } userErrors { code } } }',
      { p: first },
      amina,
    );
    expect(removed.data.deletePreRegistrationDocuments).toEqual({ preRegistrationMessage: { status: 'success' }, userErrors: [] });
    const none = await t.graphql('query($p: String!) { preRegistrationDocuments(preRegistrationId: $p) { documentId } }', { p: first }, amina);
    expect(none.errors[0].extensions.code).toBe('PRG_PAM_DOC_005');
  });

  it('copies the proof of address into another of the applicant’s applications, sealed anew', async () => {
    const [source, destination] = [await newApplication(), await newApplication()];
    const lease = pdfWith('shared address');
    const original = (await uploadDocument(t, amina, source, documentRequest(), { file: { name: 'lease.pdf', bytes: lease } })).json.response;
    const copied = await copy(destination, `catCode=POA&sourcePreId=${source}`);
    expect(copied.json.errors).toBeNull();
    expect(copied.json.response).toMatchObject({
      preRegistrationId: destination,
      docName: 'lease.pdf',
      docCatCode: 'POA',
      docTypCode: 'RNC',
      docFileFormat: 'pdf',
      refNumber: 'RC-1',
    });
    expect(copied.json.response.docId).not.toBe(original.docId);
    expect(Buffer.from((await content(destination, copied.json.response.docId)).json.response.document, 'base64').equals(lease)).toBe(true);
    // Sealed for the destination: another object, another ciphertext.
    const [sourceKey] = await objectsOf(source);
    const [destinationKey] = await objectsOf(destination);
    const sealed = async (key: string | undefined) => (await t.platform.deps.objects.get(key!))!.toString('utf8');
    expect(await sealed(destinationKey)).not.toBe(await sealed(sourceKey));
    // Copied again: the destination's POA keeps its id.
    expect((await copy(destination, `catCode=POA&sourcePreId=${source}`)).json.response.docId).toBe(copied.json.response.docId);

    const [empty, bilals] = [await newApplication(), await newApplication(bilal)];
    await expectRejected(t, () => copy(destination, `catCode=POI&sourcePreId=${source}`), 'PRG_CORE_REQ_017');
    await expectRejected(t, () => copy(destination, `sourcePreId=${source}`), 'PRG_CORE_REQ_001');
    await expectRejected(t, () => copy(destination, 'catCode=POA'), 'PRG_CORE_REQ_001');
    await expectRejected(t, () => copy(destination, `catCode=POA&sourcePreId=${empty}`), 'PRG_PAM_DOC_005');
    await expectRejected(t, () => copy(destination, 'catCode=POA&sourcePreId=99999999999999'), 'PRG_PAM_APP_005');
    await expectRejected(t, () => copy(destination, `catCode=POA&sourcePreId=${bilals}`), 'PRG_PAM_APP_017');
  });

  it('sets the number written on a document', async () => {
    const preRegId = await newApplication();
    const { docId } = (await uploadDocument(t, amina, preRegId)).json.response;
    const updated = await preregCall(t, 'PUT', `/documents/document/${docId}?preRegistrationId=${preRegId}&refNumber=RC-2`, { headers: amina });
    expect(updated.json.response).toBe('STATUS_UPDATED_SUCESSFULLY');
    expect((await list(preRegId)).json.response.documentsMetaData[0].refNumber).toBe('RC-2');
    await expectRejected(t, () => preregCall(t, 'PUT', `/documents/document/${docId}?preRegistrationId=${preRegId}`, { headers: amina }), 'PRG_CORE_REQ_001');
    await expectRejected(
      t,
      () => preregCall(t, 'PUT', `/documents/document/${'9'.repeat(65)}?preRegistrationId=${preRegId}&refNumber=R`, { headers: amina }),
      'PRG_PAM_DOC_019',
    );
  });
});
