import { describe, expect, it } from 'vitest';
import { ApplicantDocumentsService } from '../../subgraphs/masterdata/documents/applicants.js';
import { DocumentsService } from '../../subgraphs/masterdata/documents/service.js';
import type { ApplicantDocumentKey, ApplicantStore, RuleKey } from '../../subgraphs/masterdata/documents/storage/applicants.js';
import type {
  ApplicantTypeRuleRow,
  ApplicantValidDocumentRow,
  CodedFilter,
  CodedKey,
  CodedRow,
  CodedStore,
  MappedCode,
} from '../../subgraphs/masterdata/documents/storage/coded.js';
import type { ValidDocumentKey, ValidDocumentStore } from '../../subgraphs/masterdata/documents/storage/valid-documents.js';
import type { LanguageStore } from '../../subgraphs/masterdata/storage.js';

/*
 * The rules of documents/service.ts, coded.ts and applicants.ts over
 * in-memory tables: no database. The fakes keep the storage's contract
 * (documents/storage/): every key is unique over live and deleted rows, as
 * the tables' primary keys are.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const LATER = new Date('2026-05-02T10:00:00.000Z');
const rejectsWith = (promise: Promise<unknown>, code: string, message?: string) =>
  expect(promise).rejects.toMatchObject({ code, ...(message ? { message } : {}) });
const notFaked = (name: string) => () => Promise.reject(new Error(`not faked: ${name}`));

const stamped = { createdBy: 'seed', createdAt: NOW, updatedBy: null, updatedAt: null, isDeleted: false, deletedAt: null, changedAt: NOW };
const coded = (code: string, langCode: string, extra: Partial<CodedRow> = {}): CodedRow => ({
  code,
  langCode,
  name: `${code} (${langCode})`,
  description: null,
  isActive: true,
  ...stamped,
  ...extra,
});
type ValidRow = ValidDocumentKey & typeof stamped & { isActive: boolean };
const valid = (docCategoryCode: string, docTypeCode: string, extra: Partial<ValidRow> = {}): ValidRow => ({
  docCategoryCode,
  docTypeCode,
  isActive: true,
  ...stamped,
  ...extra,
});
const applicantDocument = (applicantTypeCode: string, docCategoryCode: string, docTypeCode: string, extra: Partial<ApplicantValidDocumentRow> = {}) => ({
  applicantTypeCode,
  docCategoryCode,
  docTypeCode,
  isActive: true,
  ...stamped,
  ...extra,
});
const rule = (key: RuleKey, applicantTypeCode: string, extra: Partial<ApplicantTypeRuleRow> = {}): ApplicantTypeRuleRow => ({
  ...key,
  applicantTypeCode,
  isActive: true,
  ...stamped,
  ...extra,
});

const matches = <T extends object>(row: T, key: Partial<T>) => Object.entries(key).every(([field, value]) => row[field as keyof T] === value);
const live = <T extends { isDeleted: boolean }>(rows: T[]) => rows.filter((row) => !row.isDeleted);

/** A table of categories or of types in memory. */
class MemoryCoded implements CodedStore {
  constructor(readonly rows: CodedRow[]) {}
  insert(row: CodedRow) {
    if (this.rows.some((other) => other.code === row.code && other.langCode === row.langCode)) return Promise.resolve(null);
    this.rows.push(row);
    return Promise.resolve(row);
  }
  revive(key: CodedKey, values: Parameters<CodedStore['revive']>[1]) {
    const row = this.rows.find((candidate) => candidate.isDeleted && matches(candidate, key));
    return Promise.resolve(row ? (Object.assign(row, values), 1) : 0);
  }
  change(key: CodedKey, values: Parameters<CodedStore['change']>[1]) {
    const row = live(this.rows).find((candidate) => matches(candidate, key));
    return Promise.resolve(row ? (Object.assign(row, values), 1) : 0);
  }
  rowOf(key: CodedKey) {
    return Promise.resolve(this.rows.find((row) => matches(row, key)) ?? null);
  }
  liveRow(code: string, langCode?: string) {
    return Promise.resolve(live(this.rows).find((row) => row.code === code && (langCode === undefined || row.langCode === langCode)) ?? null);
  }
  async exists(code: string) {
    return (await this.liveRow(code)) !== null;
  }
  remove(code: string, stamp: Parameters<CodedStore['remove']>[1]) {
    const rows = live(this.rows).filter((row) => row.code === code);
    for (const row of rows) Object.assign(row, stamp);
    return Promise.resolve(rows.length);
  }
  matching(filter: CodedFilter, take: number) {
    const rows = live(this.rows).filter(
      (row) =>
        (!filter.langCode || row.langCode === filter.langCode) &&
        (typeof filter.isActive !== 'boolean' || row.isActive === filter.isActive) &&
        (!filter.nameContains || row.name.toLowerCase().includes(filter.nameContains.toLowerCase())) &&
        (!filter.codes || filter.codes.includes(row.code)),
    );
    return Promise.resolve(this.sorted(rows).slice(0, take));
  }
  activeOf(codes: readonly string[], languages?: readonly string[] | null) {
    const rows = live(this.rows).filter((row) => row.isActive && codes.includes(row.code) && (!languages?.length || languages.includes(row.langCode)));
    return Promise.resolve(this.sorted(rows));
  }
  private sorted(rows: CodedRow[]) {
    return [...rows].sort((a, b) => a.code.localeCompare(b.code) || a.langCode.localeCompare(b.langCode));
  }
  list = notFaked('list');
  search = notFaked('search');
  countSearch = notFaked('countSearch');
  columnValues = notFaked('columnValues');
  byKeys = notFaked('byKeys');
}

/** The valid documents' table in memory. */
class MemoryValidDocuments implements ValidDocumentStore {
  constructor(readonly rows: ValidRow[]) {}
  mapsActive(code: MappedCode) {
    return Promise.resolve(live(this.rows).some((row) => row.isActive && matches(row, code as Partial<ValidRow>)));
  }
  isMapped(key: ValidDocumentKey) {
    return Promise.resolve(live(this.rows).some((row) => row.isActive && matches(row, key)));
  }
  typeCodesOf(docCategoryCode: string, take: number) {
    return Promise.resolve(
      live(this.rows)
        .filter((row) => row.isActive && row.docCategoryCode === docCategoryCode)
        .map((row) => row.docTypeCode)
        .slice(0, take),
    );
  }
  reactivate(key: ValidDocumentKey, stamp: Parameters<ValidDocumentStore['reactivate']>[1]) {
    const row = this.rows.find((candidate) => matches(candidate, key) && (!candidate.isActive || candidate.isDeleted));
    return Promise.resolve(row ? (Object.assign(row, { isActive: true, isDeleted: false, deletedAt: null, ...stamp }), 1) : 0);
  }
  insert(row: Parameters<ValidDocumentStore['insert']>[0]) {
    if (this.rows.some((other) => matches(other, { docCategoryCode: row.docCategoryCode, docTypeCode: row.docTypeCode }))) return Promise.resolve(false);
    this.rows.push({ ...row, isActive: true, updatedBy: null, updatedAt: null });
    return Promise.resolve(true);
  }
  liveRow(key: ValidDocumentKey) {
    return Promise.resolve((live(this.rows).find((row) => matches(row, key)) as Awaited<ReturnType<ValidDocumentStore['liveRow']>>) ?? null);
  }
  deactivate(key: ValidDocumentKey, stamp: Parameters<ValidDocumentStore['deactivate']>[1]) {
    const row = live(this.rows).find((candidate) => candidate.isActive && matches(candidate, key));
    return Promise.resolve(row ? (Object.assign(row, { isActive: false, ...stamp }), 1) : 0);
  }
}

/** The applicant types' tables in memory. */
class MemoryApplicants implements ApplicantStore {
  constructor(
    readonly ruleTable: ApplicantTypeRuleRow[],
    readonly documentsTable: ApplicantValidDocumentRow[],
  ) {}
  activeRule(key: RuleKey) {
    return Promise.resolve(live(this.ruleTable).find((row) => row.isActive && matches(row, key)) ?? null);
  }
  documentsOf(applicantTypeCode: string, take: number) {
    return Promise.resolve(
      live(this.documentsTable)
        .filter((row) => row.isActive && row.applicantTypeCode === applicantTypeCode)
        .slice(0, take),
    );
  }
  presents(key: ApplicantDocumentKey) {
    return Promise.resolve(live(this.documentsTable).some((row) => row.isActive && matches(row, key)));
  }
  maps(code: MappedCode) {
    return Promise.resolve(live(this.documentsTable).some((row) => matches(row, code as Partial<ApplicantValidDocumentRow>)));
  }
  saveRule(key: RuleKey, row: Parameters<ApplicantStore['saveRule']>[1]) {
    const existing = this.ruleTable.find((candidate) => matches(candidate, key));
    if (existing) return Promise.resolve(Object.assign(existing, row.update));
    const created = { ...key, ...row.create, updatedBy: null, updatedAt: null };
    this.ruleTable.push(created);
    return Promise.resolve(created);
  }
  removeRule(key: RuleKey, stamp: Parameters<ApplicantStore['removeRule']>[1]) {
    const row = live(this.ruleTable).find((candidate) => matches(candidate, key));
    return Promise.resolve(row ? Object.assign(row, stamp) : null);
  }
  saveDocument(key: ApplicantDocumentKey, row: Parameters<ApplicantStore['saveDocument']>[1]) {
    const existing = this.documentsTable.find((candidate) => matches(candidate, key));
    if (existing) return Promise.resolve(Object.assign(existing, row.update));
    const created = { ...key, ...row.create, updatedBy: null, updatedAt: null };
    this.documentsTable.push(created);
    return Promise.resolve(created);
  }
  removeDocument(key: ApplicantDocumentKey, stamp: Parameters<ApplicantStore['removeDocument']>[1]) {
    const row = live(this.documentsTable).find((candidate) => matches(candidate, key));
    return Promise.resolve(row ? Object.assign(row, stamp) : null);
  }
  rules = notFaked('rules');
  documents = notFaked('documents');
}

const ADULT_MALE: RuleKey = { individualTypeCode: 'FR', ageGroupTypeCode: 'ADL', genderTypeCode: 'MLE' };

/**
 * Categories POI and POA in eng and fra (POA inactive in fra), POB in eng; types PAS and CIN (eng, fra), RNC (eng);
 * POI is proven by PAS and CIN, POA by RNC; applicant type 001 (adult male) presents POI by PAS or CIN, POA by RNC.
 */
function world() {
  const categories = new MemoryCoded([
    coded('POI', 'eng'),
    coded('POI', 'fra'),
    coded('POA', 'eng'),
    coded('POA', 'fra', { isActive: false }),
    coded('POB', 'eng'),
  ]);
  const types = new MemoryCoded([coded('PAS', 'eng'), coded('PAS', 'fra'), coded('CIN', 'eng'), coded('CIN', 'fra'), coded('RNC', 'eng')]);
  const validDocuments = new MemoryValidDocuments([valid('POI', 'PAS'), valid('POI', 'CIN'), valid('POA', 'RNC')]);
  const applicantTables = new MemoryApplicants(
    [rule(ADULT_MALE, '001'), rule({ ...ADULT_MALE, genderTypeCode: 'FLE' }, '002', { isActive: false })],
    [applicantDocument('001', 'POI', 'PAS'), applicantDocument('001', 'POI', 'CIN'), applicantDocument('001', 'POA', 'RNC')],
  );
  const supported = new Set(['eng', 'fra']);
  const languages: LanguageStore = { isSupported: (code) => Promise.resolve(supported.has(code)) };
  const documents = new DocumentsService({ categories, types, validDocuments, applicants: applicantTables, languages });
  const applicants = new ApplicantDocumentsService({ store: applicantTables, categories, types, documents });
  return { documents, applicants, categories, types, validDocuments, applicantTables };
}

const fields = (code: string, langCode = 'eng') => ({ code, langCode, name: `${code} name`, description: 'desc', isActive: true });

describe('document categories and types', () => {
  it('are written in a live, active language only (KER-MSD-999), changing nothing', async () => {
    const { documents, categories } = world();
    await rejectsWith(documents.create(documents.categories, fields('POR', 'xyz'), 'admin', NOW), 'KER-MSD-999', 'Language xyz is not supported');
    await rejectsWith(documents.update(documents.types, fields('PAS', 'ara'), 'admin', NOW), 'KER-MSD-999');
    await rejectsWith(documents.category('POI', 'deu'), 'KER-MSD-999');
    expect(categories.rows).toHaveLength(5);
  });

  it('are created once per code and language; a live namesake is the duplicate code, a deleted one comes back', async () => {
    const { documents, categories, types } = world();
    await expect(documents.create(documents.categories, fields('POR'), 'admin', NOW)).resolves.toMatchObject({
      code: 'POR',
      createdBy: 'admin',
      updatedBy: null,
      isDeleted: false,
    });
    await rejectsWith(
      documents.create(documents.categories, fields('POI', 'fra'), 'admin', NOW),
      'KER-MSD-051',
      'Error occurred while inserting Document Category details: POI already exists in fra',
    );
    await rejectsWith(documents.create(documents.types, fields('PAS'), 'admin', NOW), 'KER-MSD-052');
    categories.rows.push(coded('OLD', 'eng', { isDeleted: true, deletedAt: NOW, updatedBy: 'x', updatedAt: NOW }));
    const revived = await documents.create(documents.categories, fields('OLD'), 'editor', LATER);
    expect(revived).toMatchObject({ code: 'OLD', name: 'OLD name', isDeleted: false, deletedAt: null, createdBy: 'editor', createdAt: LATER, updatedBy: null });
    expect(types.rows).toHaveLength(5);
  });

  it('are updated in one language while live (KER-MSD-014 / KER-MSD-118 otherwise)', async () => {
    const { documents } = world();
    const row = await documents.update(documents.categories, { ...fields('POI', 'fra'), name: 'Preuve' }, 'editor', LATER);
    expect(row).toMatchObject({ langCode: 'fra', name: 'Preuve', updatedBy: 'editor', updatedAt: LATER, changedAt: LATER });
    await rejectsWith(documents.update(documents.categories, fields('XXX'), 'editor', LATER), 'KER-MSD-014', 'Document Category not found: XXX in eng');
    await rejectsWith(documents.update(documents.types, fields('RNC', 'fra'), 'editor', LATER), 'KER-MSD-118', 'Document Type not found: RNC in fra');
  });

  it('are deleted in every language unless a live mapping uses them (KER-MSD-123, KER-MSD-124)', async () => {
    const { documents, categories, applicantTables, validDocuments } = world();
    await rejectsWith(documents.categories.remove('POI', 'admin', NOW), 'KER-MSD-123', 'Cannot delete dependency found: document category POI is mapped');
    await rejectsWith(documents.types.remove('RNC', 'admin', NOW), 'KER-MSD-124');
    await rejectsWith(documents.categories.remove('NONE', 'admin', NOW), 'KER-MSD-014');
    await expect(documents.categories.remove('POB', 'admin', NOW)).resolves.toBe('POB');
    expect(categories.rows.find((row) => row.code === 'POB')).toMatchObject({ isDeleted: true, isActive: false, deletedAt: NOW });
    await rejectsWith(documents.categories.remove('POB', 'admin', NOW), 'KER-MSD-014');
    // An inactive valid document no longer holds a code; an applicant's mapping holds it while live, even inactive.
    validDocuments.rows.find((row) => row.docCategoryCode === 'POA')!.isActive = false;
    applicantTables.documentsTable.find((row) => row.docCategoryCode === 'POA')!.isActive = false;
    await rejectsWith(documents.categories.remove('POA', 'admin', NOW), 'KER-MSD-123');
    applicantTables.documentsTable.find((row) => row.docCategoryCode === 'POA')!.isDeleted = true;
    await expect(documents.categories.remove('POA', 'admin', NOW)).resolves.toBe('POA');
    expect(categories.rows.filter((row) => row.code === 'POA').map((row) => row.isDeleted)).toEqual([true, true]);
  });

  it('are listed whole by language; an empty list is the not-found code', async () => {
    const { documents, categories } = world();
    expect((await documents.categoryList('fra')).map((row) => row.code)).toEqual(['POA', 'POI']);
    expect((await documents.typeList()).map((row) => `${row.code}/${row.langCode}`)).toEqual(['CIN/eng', 'CIN/fra', 'PAS/eng', 'PAS/fra', 'RNC/eng']);
    for (const row of categories.rows) row.isDeleted = true;
    await rejectsWith(documents.categoryList(), 'KER-MSD-014', 'Document Category not found');
  });
});

describe('valid documents: which types prove which category', () => {
  it('answers the types of a category in a language; none is KER-MSD-118', async () => {
    const { documents } = world();
    expect((await documents.validTypes('POI', 'fra')).map((row) => row.code)).toEqual(['CIN', 'PAS']);
    await rejectsWith(documents.validTypes('POA', 'fra'), 'KER-MSD-118');
    await rejectsWith(documents.validTypes('POB', 'eng'), 'KER-MSD-118');
  });

  it('maps a type to a category that both exist, or re-activates the mapping; an active one is KER-MSD-360', async () => {
    const { documents, validDocuments } = world();
    await rejectsWith(documents.map('NONE', 'PAS', 'admin', NOW), 'KER-MSD-014', 'Document Category not found: NONE');
    await rejectsWith(documents.map('POB', 'NONE', 'admin', NOW), 'KER-MSD-118', 'Document Type not found: NONE');
    await expect(documents.map('POB', 'PAS', 'admin', NOW)).resolves.toEqual({
      docCategoryCode: 'POB',
      docTypeCode: 'PAS',
      isActive: true,
      status: 'mapped',
      message: 'Document Category POB - Document Type Mapping PAS is added successfully',
    });
    await rejectsWith(documents.map('POB', 'PAS', 'admin', NOW), 'KER-MSD-360');
    validDocuments.rows.find((row) => row.docCategoryCode === 'POA')!.isDeleted = true;
    await expect(documents.map('POA', 'RNC', 'editor', LATER)).resolves.toMatchObject({ status: 'mapped' });
    expect(validDocuments.rows.find((row) => row.docCategoryCode === 'POA')).toMatchObject({ isActive: true, isDeleted: false, updatedBy: 'editor' });
  });

  it('unmaps an active mapping, keeping the row (KER-MSD-361 when there is none, KER-MSD-363 when already unmapped)', async () => {
    const { documents, validDocuments } = world();
    await expect(documents.unmap('POI', 'PAS', 'admin', NOW)).resolves.toMatchObject({ isActive: false, status: 'un-mapped' });
    expect(validDocuments.rows[0]).toMatchObject({ isActive: false, isDeleted: false, updatedBy: 'admin' });
    await rejectsWith(documents.unmap('POI', 'PAS', 'admin', NOW), 'KER-MSD-363');
    await rejectsWith(documents.unmap('POB', 'PAS', 'admin', NOW), 'KER-MSD-361', 'Document Category Code POB - Document Type PAS Mapping does not exist');
    expect(await documents.isValid('POI', 'PAS')).toBe(false);
  });
});

describe('applicant type rules and the documents of an applicant type', () => {
  it('gives the applicant type of an active rule; none is KER-MSD-150', async () => {
    const { applicants } = world();
    await expect(applicants.applicantType(ADULT_MALE)).resolves.toBe('001');
    await rejectsWith(
      applicants.applicantType({ ...ADULT_MALE, genderTypeCode: 'FLE' }),
      'KER-MSD-150',
      'Document Category- Document Type mapping not found: no applicant type for FR/ADL/FLE',
    );
  });

  it('answers each category (per language) with its types in that language, active ones only', async () => {
    const { applicants } = world();
    const all = await applicants.documentsOf(ADULT_MALE);
    expect(all.applicantTypeCode).toBe('001');
    expect(all.documentCategories.map((entry) => [`${entry.category.code}/${entry.category.langCode}`, entry.documentTypes.map((type) => type.code)])).toEqual([
      ['POA/eng', ['RNC']],
      ['POI/eng', ['CIN', 'PAS']],
      ['POI/fra', ['CIN', 'PAS']],
    ]);
    const french = await applicants.documentsOf(ADULT_MALE, ['fra']);
    expect(french.documentCategories.map((entry) => entry.category.code)).toEqual(['POI']);
    await rejectsWith(applicants.documentsOf(ADULT_MALE, ['deu']), 'KER-MSD-999');
  });

  it('refuses an applicant type without documents in the languages asked (KER-MSD-150)', async () => {
    const { applicants, applicantTables } = world();
    applicantTables.ruleTable.push(rule({ ...ADULT_MALE, ageGroupTypeCode: 'CHL' }, '009'));
    await rejectsWith(
      applicants.documentsOf({ ...ADULT_MALE, ageGroupTypeCode: 'CHL' }),
      'KER-MSD-150',
      'Document Category- Document Type mapping not found: no documents for applicant type 009',
    );
  });

  it('checks one document of an applicant type', async () => {
    const { applicants } = world();
    await expect(applicants.check({ applicantTypeCode: '001', docCategoryCode: 'POI', docTypeCode: 'PAS' })).resolves.toBe('Valid document for applicant type');
    await rejectsWith(applicants.check({ applicantTypeCode: '001', docCategoryCode: 'POA', docTypeCode: 'PAS' }), 'KER-MSD-150');
  });

  it('saves a rule, new or over the old one (live and active again), and deletes it once', async () => {
    const { applicants, applicantTables } = world();
    const key = { ...ADULT_MALE, genderTypeCode: 'FLE' };
    const saved = await applicants.saveRule({ ...key, applicantTypeCode: '003', isActive: true }, 'editor', LATER);
    expect(saved).toMatchObject({ applicantTypeCode: '003', isActive: true, isDeleted: false, updatedBy: 'editor', createdBy: 'seed' });
    await expect(applicants.applicantType(key)).resolves.toBe('003');
    const fresh = await applicants.saveRule({ ...ADULT_MALE, ageGroupTypeCode: 'SNR', applicantTypeCode: '004', isActive: false }, 'editor', LATER);
    expect(fresh).toMatchObject({ applicantTypeCode: '004', isActive: false, createdBy: 'editor', createdAt: LATER, updatedBy: null });
    await expect(applicants.deleteRule(key, 'admin', LATER)).resolves.toMatchObject({ isDeleted: true, deletedAt: LATER });
    await rejectsWith(applicants.deleteRule(key, 'admin', LATER), 'KER-MSD-150', 'Document Category- Document Type mapping not found: no rule for FR/ADL/FLE');
    expect(applicantTables.ruleTable).toHaveLength(3);
  });

  it('maps a document to an applicant type only when its type proves its category (KER-MSD-361); unmaps once', async () => {
    const { applicants, applicantTables } = world();
    await rejectsWith(applicants.mapDocument({ applicantTypeCode: '002', docCategoryCode: 'POA', docTypeCode: 'PAS' }, 'admin', NOW), 'KER-MSD-361');
    await rejectsWith(applicants.mapDocument({ applicantTypeCode: '002', docCategoryCode: 'POX', docTypeCode: 'PAS' }, 'admin', NOW), 'KER-MSD-014');
    const mapped = await applicants.mapDocument({ applicantTypeCode: '002', docCategoryCode: 'POI', docTypeCode: 'PAS' }, 'admin', NOW);
    expect(mapped).toMatchObject({ applicantTypeCode: '002', isActive: true, createdBy: 'admin' });
    const key = { applicantTypeCode: '001', docCategoryCode: 'POI', docTypeCode: 'CIN' };
    await expect(applicants.unmapDocument(key, 'admin', NOW)).resolves.toMatchObject({ isDeleted: true, isActive: false });
    await rejectsWith(applicants.unmapDocument(key, 'admin', NOW), 'KER-MSD-150', 'Document Category- Document Type mapping not found: 001/POI/CIN');
    // Mapped again: the deleted row comes back, live and active.
    await expect(applicants.mapDocument(key, 'editor', LATER)).resolves.toMatchObject({ isDeleted: false, isActive: true, updatedBy: 'editor' });
    expect(applicantTables.documentsTable).toHaveLength(4);
  });
});
