import { beforeAll, describe, expect, it } from 'vitest';
import { TIMESTAMP, expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const BASE = '/v1/masterdata';
let t: TestPlatform;
let auth: Record<string, string>;
let adminBearer: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

// A fresh database has no languages: the master data of a country starts with them.
beforeAll(async () => {
  adminBearer = bearer(await t.adminToken());
  const now = new Date();
  await t.platform.deps.prisma.language.createMany({
    data: [
      { code: 'eng', name: 'English', createdBy: 'test', createdAt: now, changedAt: now },
      { code: 'fra', name: 'French', createdBy: 'test', createdAt: now, changedAt: now },
      { code: 'ara', name: 'Arabic', createdBy: 'test', createdAt: now, changedAt: now },
    ],
  });
});

const send = (method: string, path: string, body?: unknown, headers = auth) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers });
const doc = (code: string, langCode = 'eng', name = `${code} ${langCode}`, isActive = true) => ({
  code,
  langCode,
  name,
  description: `about ${code}`,
  isActive,
});
const category = (code: string, langCode = 'eng', name?: string) => send('POST', '/documentcategories', doc(code, langCode, name));
const type = (code: string, langCode = 'eng', name?: string) => send('POST', '/documenttype', doc(code, langCode, name));
const graphql = (query: string, variables: Record<string, unknown> = {}) => t.graphql(query, variables, adminBearer);

describe('document categories (REST)', () => {
  it('creates, reads, updates and deletes a category in several languages', async () => {
    expect((await category('POA')).json.response).toEqual({ code: 'POA', langCode: 'eng' });
    expect((await category('POA', 'fra', 'Preuve d’adresse')).json.response).toEqual({ code: 'POA', langCode: 'fra' });
    const all = (await send('GET', '/documentcategories')).json.response.documentcategories;
    expect(all).toEqual(
      expect.arrayContaining([
        { code: 'POA', langCode: 'eng', name: 'POA eng', description: 'about POA', isActive: true },
        { code: 'POA', langCode: 'fra', name: 'Preuve d’adresse', description: 'about POA', isActive: true },
      ]),
    );
    expect((await send('GET', '/documentcategories/POA/fra')).json.response).toEqual({
      documentcategories: [{ code: 'POA', langCode: 'fra', name: 'Preuve d’adresse', description: 'about POA', isActive: true }],
    });
    const updated = await send('PUT', '/documentcategories', { ...doc('POA'), name: 'Proof of address', isActive: false });
    expect(updated.json.response).toEqual({ code: 'POA', langCode: 'eng' });
    const english = (await send('GET', '/documentcategories/eng')).json.response.documentcategories;
    expect(english.find((row: any) => row.code === 'POA')).toMatchObject({ name: 'Proof of address', isActive: false });
    expect(english.every((row: any) => row.langCode === 'eng')).toBe(true);

    expect((await send('DELETE', '/documentcategories/POA')).json.response).toEqual({ code: 'POA' });
    const rows = await t.platform.deps.prisma.documentCategory.findMany({ where: { code: 'POA' } });
    expect(rows.map((row) => [row.langCode, row.isDeleted, row.updatedBy])).toEqual(
      expect.arrayContaining([
        ['eng', true, 'admin'],
        ['fra', true, 'admin'],
      ]),
    );
    await expectRejected(t, () => send('GET', '/documentcategories/POA/eng'), 'KER-MSD-014');
    // A re-create revives the soft-deleted row.
    expect((await category('POA', 'eng', 'Address again')).json.response).toEqual({ code: 'POA', langCode: 'eng' });
    expect((await send('GET', '/documentcategories/POA/eng')).json.response.documentcategories[0].name).toBe('Address again');
  });

  it('searches with the spec’s columns (Name, Status) and MOSIP’s (name, isActive), and lists filter values', async () => {
    for (const [code, name] of [
      ['SRCH1', 'Search alpha'],
      ['SRCH2', 'Search beta'],
      ['SRCH3', 'Other gamma'],
    ]) {
      await category(code!, 'ara', name);
    }
    await send('PUT', '/documentcategories', { ...doc('SRCH2', 'ara', 'Search beta'), isActive: false });
    const search = (request: unknown) => send('POST', '/documentcategories/search', request);
    const byName = await search({
      filters: [{ columnName: 'Name', type: 'contains', value: 'search' }],
      languageCode: 'ara',
      sort: [{ sortfield: 'name', sorttype: 'DESC' }],
    });
    expect(byName.json.response).toMatchObject({ fromRecord: 0, toRecord: 2, totalRecord: 2 });
    expect(byName.json.response.data.map((row: any) => row.code)).toEqual(['SRCH2', 'SRCH1']);
    expect(byName.json.response.data[0]).toMatchObject({
      langCode: 'ara',
      createdBy: 'admin',
      updatedBy: 'admin',
      isDeleted: false,
      deletedDateTime: null,
    });
    expect(byName.json.response.data[0].createdDateTime).toMatch(TIMESTAMP);
    const active = await search({ filters: [{ columnName: 'Status', type: 'equals', value: 'active' }], languageCode: 'ara' });
    expect(active.json.response.data.map((row: any) => row.code).sort()).toEqual(['SRCH1', 'SRCH3']);
    const inactive = await search({
      filters: [
        { columnName: 'isActive', type: 'equals', value: 'false' },
        { columnName: 'name', type: 'startsWith', value: 'Sea' },
      ],
    });
    expect(inactive.json.response.data.map((row: any) => row.code)).toEqual(['SRCH2']);
    const paged = await search({ languageCode: 'ara', pagination: { pageStart: 1, pageFetch: 2 }, sort: [{ sortfield: 'code', sorttype: 'ASC' }] });
    expect(paged.json.response).toMatchObject({ fromRecord: 2, toRecord: 3, totalRecord: 3 });
    expect(paged.json.response.data.map((row: any) => row.code)).toEqual(['SRCH3']);

    const values = await send('POST', '/documentcategories/filtervalues', { filters: [{ columnName: 'name', type: 'unique' }], languageCode: 'ara' });
    expect(values.json.response.filters).toEqual([
      { fieldID: 'name', fieldValue: 'Other gamma' },
      { fieldID: 'name', fieldValue: 'Search alpha' },
      { fieldID: 'name', fieldValue: 'Search beta' },
    ]);
    await expectRejected(t, () => search({ filters: [{ columnName: 'colour', type: 'equals', value: 'x' }] }), 'KER-MSD-317');
    await expectRejected(t, () => search({ languageCode: 'xyz' }), 'KER-MSD-999');
  });

  it('refuses bad input, unknown codes and languages, and duplicates with MOSIP’s codes, changing nothing', async () => {
    await category('DUP');
    await expectRejected(t, () => category('DUP'), 'KER-MSD-051');
    await expectRejected(t, () => category('NEW', 'xyz'), 'KER-MSD-999', /Language xyz is not supported/);
    await expectRejected(t, () => category('NEW', 'english'), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/documentcategories', { code: 'NEW', langCode: 'eng', isActive: true }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/documentcategories', { ...doc('NEW'), code: '  ' }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/documentcategories', { ...doc('NEW'), isActive: 'yes' }), 'KER-MSD-999');
    await expectRejected(t, () => send('PUT', '/documentcategories', doc('NOPE')), 'KER-MSD-014');
    await expectRejected(t, () => send('PUT', '/documentcategories', doc('DUP', 'fra')), 'KER-MSD-014');
    await expectRejected(t, () => send('DELETE', '/documentcategories/NOPE'), 'KER-MSD-014');
    await expectRejected(t, () => send('GET', '/documentcategories/DUP/fra'), 'KER-MSD-014');
    await expectRejected(t, () => send('GET', '/documentcategories/xyz'), 'KER-MSD-999');
  });

  it('lets exactly one of racing creates of one code and language win; the others get KER-MSD-051', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => category('RACE', 'eng')));
    const codes = results.map((result) => result.json.errors?.[0]?.errorCode ?? 'ok');
    expect(codes.filter((code) => code === 'ok')).toHaveLength(1);
    expect(codes.filter((code) => code === 'KER-MSD-051')).toHaveLength(5);
    expect(await t.platform.deps.prisma.documentCategory.count({ where: { code: 'RACE' } })).toBe(1);
    const types = await Promise.all(Array.from({ length: 4 }, () => type('RACETYPE', 'fra')));
    expect(types.map((result) => result.json.errors?.[0]?.errorCode ?? 'ok').sort()).toEqual(['KER-MSD-052', 'KER-MSD-052', 'KER-MSD-052', 'ok']);
  });
});

describe('document types and valid documents (REST)', () => {
  it('creates and updates a type with its audit fields, maps it to categories, and lists the valid types', async () => {
    const created = await type('PASS', 'eng', 'Passport');
    expect(created.json.response).toEqual({
      code: 'PASS',
      langCode: 'eng',
      name: 'Passport',
      description: 'about PASS',
      isActive: true,
      createdBy: 'admin',
      createdDateTime: expect.stringMatching(TIMESTAMP),
      updatedBy: null,
      updatedDateTime: null,
      isDeleted: false,
      deletedDateTime: null,
    });
    await type('PASS', 'fra', 'Passeport');
    await type('BILL', 'eng', 'Utility bill');
    const updated = await send('PUT', '/documenttype', { ...doc('BILL'), name: 'Electricity bill' });
    expect(updated.json.response).toMatchObject({
      code: 'BILL',
      name: 'Electricity bill',
      updatedBy: 'admin',
      updatedDateTime: expect.stringMatching(TIMESTAMP),
    });
    await category('POI', 'eng', 'Proof of identity');
    await category('POI', 'fra', 'Preuve d’identité');

    const mapped = await send('PUT', '/validdocuments/map/POI/PASS');
    expect(mapped.json.response).toEqual({ status: 'mapped', message: 'Document Category POI - Document Type Mapping PASS is added successfully' });
    await send('PUT', '/validdocuments/map/POI/BILL');
    const english = await send('GET', '/documenttypes/POI/eng');
    expect(english.json.response).toEqual({
      documenttypes: [
        { code: 'BILL', langCode: 'eng', name: 'Electricity bill', description: 'about BILL', isActive: true },
        { code: 'PASS', langCode: 'eng', name: 'Passport', description: 'about PASS', isActive: true },
      ],
    });
    expect((await send('GET', '/documenttypes/POI/fra')).json.response.documenttypes.map((row: any) => row.name)).toEqual(['Passeport']);
    const legacy = (await send('GET', '/documentcategorytypes')).json.response.documenttypes;
    expect(legacy).toEqual(expect.arrayContaining([{ code: 'PASS', name: 'Passeport', descr: 'about PASS', lang_code: 'fra', is_active: true }]));

    const unmapped = await send('PUT', '/validdocuments/unmap/POI/BILL');
    expect(unmapped.json.response).toEqual({ status: 'un-mapped', message: 'Document Category POI - Document Type Mapping BILL is un-mapped successfully' });
    expect((await send('GET', '/documenttypes/POI/eng')).json.response.documenttypes.map((row: any) => row.code)).toEqual(['PASS']);
    // Re-mapping re-activates the mapping; through GraphQL the answer names the category and type it tied, in the language asked.
    const remapped = await graphql(
      'mutation { mapValidDocument(input: { docCategoryCode: "POI", docTypeCode: "BILL" }) { validDocumentMapping { status isActive documentCategory(langCode: "fra") { code name } documentType(langCode: "eng") { code name } } userErrors { code } } }',
    );
    expect(remapped.data.mapValidDocument).toEqual({
      validDocumentMapping: {
        status: 'mapped',
        isActive: true,
        documentCategory: { code: 'POI', name: 'Preuve d’identité' },
        documentType: { code: 'BILL', name: 'Electricity bill' },
      },
      userErrors: [],
    });
  });

  it('searches types and lists their filter values', async () => {
    await type('SRT1', 'ara', 'Card one');
    await type('SRT2', 'ara', 'Card two');
    const found = await send('POST', '/documenttypes/search', { filters: [{ columnName: 'code', type: 'startsWith', value: 'SRT' }], languageCode: 'ara' });
    expect(found.json.response).toMatchObject({ fromRecord: 0, toRecord: 2, totalRecord: 2 });
    expect(found.json.response.data[0]).toMatchObject({ code: 'SRT1', name: 'Card one', createdBy: 'admin', isDeleted: false });
    const status = await send('POST', '/documenttypes/search', { filters: [{ columnName: 'status', type: 'equals', value: 'true' }], languageCode: 'ara' });
    expect(status.json.response.totalRecord).toBeGreaterThanOrEqual(2);
    const values = await send('POST', '/documenttypes/filtervalues', { filters: [{ columnName: 'isActive', type: 'unique' }], languageCode: 'ara' });
    expect(values.json.response.filters).toEqual([{ fieldID: 'isActive', fieldValue: 'true' }]);
  });

  it('gives MOSIP’s codes for types and mappings, changing nothing', async () => {
    await type('TDUP');
    await category('CDEP');
    await type('TDEP');
    await send('PUT', '/validdocuments/map/CDEP/TDEP');
    await expectRejected(t, () => type('TDUP'), 'KER-MSD-052');
    await expectRejected(t, () => type('TNEW', 'zzz'), 'KER-MSD-999');
    await expectRejected(t, () => send('PUT', '/documenttype', doc('TNOPE')), 'KER-MSD-118');
    await expectRejected(t, () => send('DELETE', '/documenttypes/TNOPE'), 'KER-MSD-118');
    await expectRejected(t, () => send('GET', '/documenttypes/CDUMMY/eng'), 'KER-MSD-118');
    await expectRejected(t, () => send('DELETE', '/documentcategories/CDEP'), 'KER-MSD-123');
    await expectRejected(t, () => send('DELETE', '/documenttypes/TDEP'), 'KER-MSD-124');
    await expectRejected(t, () => send('PUT', '/validdocuments/map/CDEP/TDEP'), 'KER-MSD-360');
    await expectRejected(t, () => send('PUT', '/validdocuments/map/CNOPE/TDEP'), 'KER-MSD-014');
    await expectRejected(t, () => send('PUT', '/validdocuments/map/CDEP/TNOPE'), 'KER-MSD-118');
    await expectRejected(t, () => send('PUT', '/validdocuments/unmap/CDEP/TDUP'), 'KER-MSD-361');
    await send('PUT', '/validdocuments/unmap/CDEP/TDEP');
    await expectRejected(t, () => send('PUT', '/validdocuments/unmap/CDEP/TDEP'), 'KER-MSD-363');
    // Unmapped, both can go.
    expect((await send('DELETE', '/documenttypes/TDEP')).json.response).toEqual({ code: 'TDEP' });
    expect((await send('DELETE', '/documentcategories/CDEP')).json.response).toEqual({ code: 'CDEP' });
  });
});

describe('applicant documents', () => {
  const docCatTypes = (query: string) => send('GET', `/doccattypes?${query}`);
  const check = (query: string) => send('GET', `/checkapptypedoccattypedoctype?${query}`);

  it('resolves the applicant type by its rule and answers its categories with their types (maintained through GraphQL)', async () => {
    await category('POB', 'eng', 'Proof of birth');
    await category('POB', 'fra', 'Preuve de naissance');
    await type('BCERT', 'eng', 'Birth certificate');
    await type('BCERT', 'fra', 'Acte de naissance');
    await type('HOSP', 'eng', 'Hospital record');
    await send('PUT', '/validdocuments/map/POB/BCERT');
    await send('PUT', '/validdocuments/map/POB/HOSP');
    const rule = await graphql(
      'mutation { saveApplicantTypeRule(input: {individualTypeCode: "NFR", ageGroupTypeCode: "CHILD", genderTypeCode: "FLE", applicantTypeCode: "004", isActive: true}) { applicantTypeRule { applicantTypeCode isActive createdBy { userId } } userErrors { field code message } } }',
    );
    expect(rule.data.saveApplicantTypeRule.applicantTypeRule).toEqual({ applicantTypeCode: '004', isActive: true, createdBy: { userId: 'admin' } });
    for (const docType of ['BCERT', 'HOSP']) {
      const mapped = await graphql(
        'mutation($t: String!) { mapApplicantValidDocument(input: { applicantTypeCode: "004", docCategoryCode: "POB", docTypeCode: $t }) { applicantValidDocument { applicantTypeCode docCategoryCode docTypeCode isActive } userErrors { field code message } } }',
        { t: docType },
      );
      expect(mapped.data.mapApplicantValidDocument.applicantValidDocument).toEqual({
        applicantTypeCode: '004',
        docCategoryCode: 'POB',
        docTypeCode: docType,
        isActive: true,
      });
    }

    const all = await docCatTypes('individualtypecode=NFR&agegrouptypecode=CHILD&gendertypecode=FLE');
    expect(all.json.response.documentcategories).toEqual([
      {
        code: 'POB',
        langCode: 'eng',
        name: 'Proof of birth',
        description: 'about POB',
        isActive: true,
        documenttype: [
          { code: 'BCERT', name: 'Birth certificate', descr: 'about BCERT', lang_code: 'eng', is_active: true },
          { code: 'HOSP', name: 'Hospital record', descr: 'about HOSP', lang_code: 'eng', is_active: true },
        ],
      },
      {
        code: 'POB',
        langCode: 'fra',
        name: 'Preuve de naissance',
        description: 'about POB',
        isActive: true,
        documenttype: [{ code: 'BCERT', name: 'Acte de naissance', descr: 'about BCERT', lang_code: 'fra', is_active: true }],
      },
    ]);
    const french = await docCatTypes('individualtypecode=NFR&agegrouptypecode=CHILD&gendertypecode=FLE&languages=fra');
    expect(french.json.response.documentcategories.map((row: any) => row.langCode)).toEqual(['fra']);

    expect((await check('applicanttypecode=004&documentcategorycode=POB&documenttypecode=HOSP')).json.response).toEqual({
      resultMessage: 'Valid document for applicant type',
    });

    const rules = await graphql(
      '{ applicantTypeRules(filter: {applicantTypeCode: "004"}) { totalCount edges { node { individualTypeCode genderTypeCode } } } }',
    );
    expect(rules.data.applicantTypeRules).toEqual({ totalCount: 1, edges: [{ node: { individualTypeCode: 'NFR', genderTypeCode: 'FLE' } }] });
    const firstPage = await graphql(
      '{ applicantValidDocuments(first: 1, filter: {applicantTypeCode: "004"}) { totalCount pageInfo { hasNextPage endCursor } edges { node { docTypeCode } } } }',
    );
    expect(firstPage.data.applicantValidDocuments).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: true },
      edges: [{ node: { docTypeCode: 'BCERT' } }],
    });
    const secondPage = await graphql(
      'query($a: String) { applicantValidDocuments(first: 1, after: $a, filter: {applicantTypeCode: "004"}) { pageInfo { hasNextPage } edges { node { docTypeCode } } } }',
      {
        a: firstPage.data.applicantValidDocuments.pageInfo.endCursor,
      },
    );
    expect(secondPage.data.applicantValidDocuments).toEqual({ pageInfo: { hasNextPage: false }, edges: [{ node: { docTypeCode: 'HOSP' } }] });

    const withdrawn = await graphql(
      'mutation { unmapApplicantValidDocument(input: { applicantTypeCode: "004", docCategoryCode: "POB", docTypeCode: "HOSP" }) { applicantValidDocument { isActive } userErrors { field code message } } }',
    );
    expect(withdrawn.data.unmapApplicantValidDocument.applicantValidDocument.isActive).toBe(false);
    await expectRejected(t, () => check('applicanttypecode=004&documentcategorycode=POB&documenttypecode=HOSP'), 'KER-MSD-150');
    // The category is still used by an applicant valid document: it cannot be deleted.
    await expectRejected(t, () => send('DELETE', '/documentcategories/POB'), 'KER-MSD-123');
    const removed = await graphql(
      'mutation { deleteApplicantTypeRule(input: { individualTypeCode: "NFR", ageGroupTypeCode: "CHILD", genderTypeCode: "FLE" }) { applicantTypeRule { isActive } userErrors { field code message } } }',
    );
    expect(removed.data.deleteApplicantTypeRule.applicantTypeRule.isActive).toBe(false);
    await expectRejected(t, () => docCatTypes('individualtypecode=NFR&agegrouptypecode=CHILD&gendertypecode=FLE'), 'KER-MSD-150');
  });

  it('answers KER-MSD-150 for what is not mapped, KER-MSD-999 for missing parameters, and refuses unmapped pairs', async () => {
    await expectRejected(t, () => docCatTypes('individualtypecode=FR&agegrouptypecode=ADULT&gendertypecode=MLE'), 'KER-MSD-150');
    await expectRejected(t, () => docCatTypes('individualtypecode=FR&agegrouptypecode=ADULT'), 'KER-MSD-999');
    await expectRejected(t, () => docCatTypes('individualtypecode=FR&agegrouptypecode=ADULT&gendertypecode=MLE&languages=xyz'), 'KER-MSD-999');
    await expectRejected(t, () => check('applicanttypecode=009&documentcategorycode=POB&documenttypecode=BCERT'), 'KER-MSD-150');
    await expectRejected(t, () => check('applicanttypecode=009&documentcategorycode=POB'), 'KER-MSD-999');
    await category('PRS');
    await type('PRT');
    const before = await t.snapshot();
    const refused = await graphql(
      'mutation { mapApplicantValidDocument(input: { applicantTypeCode: "001", docCategoryCode: "PRS", docTypeCode: "PRT" }) { applicantValidDocument { isActive } userErrors { field code message } } }',
    );
    expect(refusalOf(refused)!.code).toBe('KER-MSD-361');
    const missing = await graphql(
      'mutation { unmapApplicantValidDocument(input: { applicantTypeCode: "001", docCategoryCode: "PRS", docTypeCode: "PRT" }) { applicantValidDocument { isActive } userErrors { field code message } } }',
    );
    expect(refusalOf(missing)!.code).toBe('KER-MSD-150');
    const noRule = await graphql(
      'mutation { deleteApplicantTypeRule(input: { individualTypeCode: "X", ageGroupTypeCode: "Y", genderTypeCode: "Z" }) { applicantTypeRule { isActive } userErrors { field code message } } }',
    );
    expect(refusalOf(noRule)!.code).toBe('KER-MSD-150');
    expect(await t.snapshot()).toEqual(before);
  });
});

describe('the portal graph', () => {
  it('pages categories and types with filters, order and audit users', async () => {
    for (const [code, name] of [
      ['GQ1', 'Graph zeta'],
      ['GQ2', 'Graph alpha'],
      ['GQ3', 'Other'],
    ]) {
      await category(code!, 'fra', name);
    }
    await send('PUT', '/documentcategories', { ...doc('GQ3', 'fra', 'Graph other'), isActive: false });
    const query = `query($after: String, $filter: DocumentCategoryFilter, $orderBy: DocumentOrder) {
      documentCategories(first: 1, after: $after, filter: $filter, orderBy: $orderBy) {
        totalCount pageInfo { hasNextPage endCursor } edges { node { code langCode name isActive createdAt createdBy { userId } updatedBy { userId } } }
      } }`;
    const filter = { langCode: 'fra', isActive: true, nameContains: 'GRAPH' };
    const first = await graphql(query, { filter, orderBy: { field: 'NAME' } });
    expect(first.data.documentCategories).toMatchObject({
      totalCount: 2,
      pageInfo: { hasNextPage: true },
      edges: [{ node: { code: 'GQ2', langCode: 'fra', name: 'Graph alpha', isActive: true, createdBy: { userId: 'admin' }, updatedBy: null } }],
    });
    expect(first.data.documentCategories.edges[0].node.createdAt).toMatch(TIMESTAMP);
    const second = await graphql(query, { filter, orderBy: { field: 'NAME' }, after: first.data.documentCategories.pageInfo.endCursor });
    expect(second.data.documentCategories.edges.map((edge: any) => edge.node.code)).toEqual(['GQ1']);
    expect(second.data.documentCategories.pageInfo.hasNextPage).toBe(false);
    const inactive = await graphql(query, { filter: { langCode: 'fra', isActive: false } });
    expect(inactive.data.documentCategories.edges[0].node).toMatchObject({ code: 'GQ3', updatedBy: { userId: 'admin' } });
    const forged = await graphql(query, { after: Buffer.from('not json').toString('base64url') });
    expect(refusalOf(forged)!.code).toBe('BAD_USER_INPUT');

    await type('GQT', 'fra', 'Graph type');
    await send('PUT', '/validdocuments/map/GQ1/GQT');
    const types = await graphql('{ documentTypes(filter: {categoryCode: "GQ1", langCode: "fra"}) { totalCount edges { node { code name langCode } } } }');
    expect(types.data.documentTypes).toEqual({ totalCount: 1, edges: [{ node: { code: 'GQT', name: 'Graph type', langCode: 'fra' } }] });
  });
});

describe('roles', () => {
  it('lets a registration officer read but not write (KER-ATH-403), and a caller without a token nothing', async () => {
    await category('ROLE');
    const officer = cookieHeader((await t.clientToken(['REGISTRATION_OFFICER'], 'registrationclient')).token);
    expect((await send('GET', '/documentcategories/ROLE/eng', undefined, officer)).json.response.documentcategories).toHaveLength(1);
    await expectRejected(t, () => send('POST', '/documentcategories', doc('ROLE2'), officer), 'KER-ATH-403');
    await expectRejected(t, () => send('PUT', '/documentcategories', doc('ROLE'), officer), 'KER-ATH-403');
    await expectRejected(t, () => send('DELETE', '/documentcategories/ROLE', undefined, officer), 'KER-ATH-403');
    await expectRejected(t, () => send('POST', '/documenttype', doc('ROLET'), officer), 'KER-ATH-403');
    await expectRejected(t, () => send('PUT', '/validdocuments/map/ROLE/PASS', undefined, officer), 'KER-ATH-403');
    await expectRejected(t, () => send('GET', '/documentcategories', undefined, {}), 'KER-ATH-006');
    const graph = await t.graphql(
      'mutation { saveApplicantTypeRule(input: {individualTypeCode: "A", ageGroupTypeCode: "B", genderTypeCode: "C", applicantTypeCode: "001", isActive: true}) { applicantTypeRule { isActive } userErrors { field code message } } }',
      {},
      officer,
    );
    expect(refusalOf(graph)!.code).toBe('KER-ATH-403');
  });
});
