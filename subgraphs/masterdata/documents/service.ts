import type { PageArgs } from '../../../lib/graph/connection.js';
import { created, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { checkLanguage } from '../keys.js';
import { wholeList } from '../paged.js';
import type { FilterValuesRequest, SearchRequest } from '../search.js';
import type { LanguageStore } from '../storage.js';
import { CodedRows, type CodedFilter, type CodedOrder, type CodedRow, type DocumentFields } from './coded.js';
import type { ApplicantStore } from './storage/applicants.js';
import type { CodedStore, MappedCode } from './storage/coded.js';
import type { ValidDocumentStore } from './storage/valid-documents.js';

export type DocumentCategoryRow = CodedRow;
export type DocumentTypeRow = CodedRow;
export type { ApplicantTypeRuleRow, ApplicantValidDocumentRow } from './storage/coded.js';

/** The tables the documents' rules read and write, each through its store. */
export interface DocumentStores {
  categories: CodedStore;
  types: CodedStore;
  validDocuments: ValidDocumentStore;
  /** the applicant valid documents, which a category or type must not be deleted under */
  applicants: Pick<ApplicantStore, 'maps'>;
  languages: LanguageStore;
}

export interface ValidDocumentMapping {
  docCategoryCode: string;
  docTypeCode: string;
  isActive: boolean;
  status: 'mapped' | 'un-mapped';
  message: string;
}

/**
 * Document categories and types (one row per language), which types prove
 * which category (valid documents), and the languages they may be written
 * in: a language is a live, active row of the Language table.
 */
export class DocumentsService {
  readonly categories: CodedRows;
  readonly types: CodedRows;

  constructor(private readonly stores: DocumentStores) {
    this.categories = new CodedRows({
      store: stores.categories,
      notFound: masterdataErrors.documentCategoryNotFound,
      duplicate: masterdataErrors.documentCategoryInsert,
      dependency: masterdataErrors.documentCategoryDependency,
      inUse: (code) => this.inUse({ docCategoryCode: code }),
    });
    this.types = new CodedRows({
      store: stores.types,
      notFound: masterdataErrors.documentTypeNotFound,
      duplicate: masterdataErrors.documentTypeInsert,
      dependency: masterdataErrors.documentTypeDependency,
      inUse: (code) => this.inUse({ docTypeCode: code }),
    });
  }

  /** A code mapped by a live valid document or applicant valid document. */
  private async inUse(code: MappedCode): Promise<boolean> {
    const [valid, applicant] = await Promise.all([this.stores.validDocuments.mapsActive(code), this.stores.applicants.maps(code)]);
    return valid || applicant;
  }

  /** Refuses a language that is not a live, active row of the Language table. */
  checkLanguage(langCode: string): Promise<void> {
    return checkLanguage(this.stores.languages, langCode);
  }

  async create(rows: CodedRows, fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    await this.checkLanguage(fields.langCode);
    return rows.create(fields, by, now);
  }

  async update(rows: CodedRows, fields: DocumentFields, by: string, now: Date): Promise<CodedRow> {
    await this.checkLanguage(fields.langCode);
    return rows.update(fields, by, now);
  }

  async categoryList(langCode?: string | null): Promise<CodedRow[]> {
    if (langCode) await this.checkLanguage(langCode);
    return wholeList('document categories', 'documentCategories', (take) => this.categories.all({ langCode }, take));
  }

  async category(code: string, langCode: string): Promise<CodedRow> {
    await this.checkLanguage(langCode);
    return this.categories.one(code, langCode);
  }

  /** The codes of the types mapped (and active) to a category, all of them (at most LIST_LIMIT: refused beyond). */
  private validTypeCodes(categoryCode: string): Promise<string[]> {
    return wholeList('document types mapped to a category', 'documentTypes', (take) => this.stores.validDocuments.typeCodesOf(categoryCode, take));
  }

  /** The types valid for a category in a language, whole (at most LIST_LIMIT: refused beyond; MOSIP answers KER-MSD-118 when there are none). */
  async validTypes(categoryCode: string, langCode: string): Promise<CodedRow[]> {
    await this.checkLanguage(langCode);
    const codes = await this.validTypeCodes(categoryCode);
    return wholeList('document types', 'documentTypes', (take) => this.types.all({ langCode, codes }, take));
  }

  /** Every document type, whole (at most LIST_LIMIT: refused beyond). */
  typeList(): Promise<CodedRow[]> {
    return wholeList('document types', 'documentTypes', (take) => this.types.all({}, take));
  }

  async listTypes(page: PageArgs, filter: (CodedFilter & { categoryCode?: string | null }) | null | undefined, order?: CodedOrder | null) {
    const { categoryCode, ...rest } = filter ?? {};
    return this.types.list(page, { ...rest, ...(categoryCode ? { codes: await this.validTypeCodes(categoryCode) } : {}) }, order);
  }

  async search(rows: CodedRows, request: SearchRequest) {
    if (request.languageCode) await this.checkLanguage(request.languageCode);
    return rows.search(request);
  }

  async filterValues(rows: CodedRows, request: FilterValuesRequest) {
    if (request.languageCode) await this.checkLanguage(request.languageCode);
    return rows.filterValues(request);
  }

  /** Whether a category and a type exist (in some language). */
  async assertCategoryAndType(docCategoryCode: string, docTypeCode: string): Promise<void> {
    const [category, type] = await Promise.all([this.stores.categories.exists(docCategoryCode), this.stores.types.exists(docTypeCode)]);
    if (!category) throw masterdataErrors.documentCategoryNotFound(docCategoryCode);
    if (!type) throw masterdataErrors.documentTypeNotFound(docTypeCode);
  }

  /** Whether a type is mapped (and active) to a category. */
  isValid(docCategoryCode: string, docTypeCode: string): Promise<boolean> {
    return this.stores.validDocuments.isMapped({ docCategoryCode, docTypeCode });
  }

  /** Maps a type to a category, or re-activates the mapping; racing maps: one wins, the other is KER-MSD-360. */
  async map(docCategoryCode: string, docTypeCode: string, by: string, now: Date): Promise<ValidDocumentMapping> {
    await this.assertCategoryAndType(docCategoryCode, docTypeCode);
    const key = { docCategoryCode, docTypeCode };
    const revived = await this.stores.validDocuments.reactivate(key, updated(by, now));
    if (revived === 0 && !(await this.stores.validDocuments.insert({ ...key, ...created(by, now) }))) throw masterdataErrors.validDocumentAlreadyMapped();
    return {
      ...key,
      isActive: true,
      status: 'mapped',
      message: `Document Category ${docCategoryCode} - Document Type Mapping ${docTypeCode} is added successfully`,
    };
  }

  /** Unmaps (de-activates) a mapping, as MOSIP does: the row stays for sync. */
  async unmap(docCategoryCode: string, docTypeCode: string, by: string, now: Date): Promise<ValidDocumentMapping> {
    const key = { docCategoryCode, docTypeCode };
    const row = await this.stores.validDocuments.liveRow(key);
    if (!row) throw masterdataErrors.validDocumentNotMapped(docCategoryCode, docTypeCode);
    const changed = await this.stores.validDocuments.deactivate(key, updated(by, now));
    if (changed === 0) throw masterdataErrors.validDocumentAlreadyUnmapped();
    return {
      ...key,
      isActive: false,
      status: 'un-mapped',
      message: `Document Category ${docCategoryCode} - Document Type Mapping ${docTypeCode} is un-mapped successfully`,
    };
  }
}
