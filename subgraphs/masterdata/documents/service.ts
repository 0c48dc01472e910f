import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, created, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { wholeList } from '../paged.js';
import { requireLanguage } from '../keys.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import type { FilterValuesRequest, SearchRequest } from '../search.js';
import { CodedRows, type CodedFilter, type CodedOrder, type CodedRow, type CodedTable, type DocumentFields } from './coded.js';

export type DocumentCategoryRow = CodedRow;
export type DocumentTypeRow = CodedRow;
export type { ApplicantTypeRule as ApplicantTypeRuleRow, ApplicantValidDocument as ApplicantValidDocumentRow } from '../../../generated/prisma/client.js';

/** MOSIP's list calls answer every row; a country has tens of document codes, so this bound is never reached in practice. */

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

  constructor(private readonly prisma: PrismaClient) {
    // The two delegates have the same columns; see CodedTable.
    this.categories = new CodedRows({
      table: prisma.documentCategory as unknown as CodedTable,
      notFound: masterdataErrors.documentCategoryNotFound,
      duplicate: masterdataErrors.documentCategoryInsert,
      dependency: masterdataErrors.documentCategoryDependency,
      inUse: (code) => this.inUse({ docCategoryCode: code }),
    });
    this.types = new CodedRows({
      table: prisma.documentType as unknown as CodedTable,
      notFound: masterdataErrors.documentTypeNotFound,
      duplicate: masterdataErrors.documentTypeInsert,
      dependency: masterdataErrors.documentTypeDependency,
      inUse: (code) => this.inUse({ docTypeCode: code }),
    });
  }

  /** A code mapped by a live valid document or applicant valid document. */
  private async inUse(where: { docCategoryCode: string } | { docTypeCode: string }): Promise<boolean> {
    const [valid, applicant] = await Promise.all([
      this.prisma.validDocument.findFirst({ where: { ...where, isActive: true, ...LIVE }, select: { docTypeCode: true } }),
      this.prisma.applicantValidDocument.findFirst({ where: { ...where, ...LIVE }, select: { docTypeCode: true } }),
    ]);
    return Boolean(valid ?? applicant);
  }

  /** Refuses a language that is not a live, active row of the Language table. */
  checkLanguage(langCode: string): Promise<void> {
    return requireLanguage(this.prisma, langCode);
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
  private async validTypeCodes(categoryCode: string): Promise<string[]> {
    const mapped = await wholeList('document types mapped to a category', 'documentTypes', (take) =>
      this.prisma.validDocument.findMany({ where: { docCategoryCode: categoryCode, isActive: true, ...LIVE }, select: { docTypeCode: true }, take }),
    );
    return mapped.map((row) => row.docTypeCode);
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
    const [category, type] = await Promise.all([
      this.prisma.documentCategory.findFirst({ where: { code: docCategoryCode, ...LIVE }, select: { code: true } }),
      this.prisma.documentType.findFirst({ where: { code: docTypeCode, ...LIVE }, select: { code: true } }),
    ]);
    if (!category) throw masterdataErrors.documentCategoryNotFound(docCategoryCode);
    if (!type) throw masterdataErrors.documentTypeNotFound(docTypeCode);
  }

  /** Whether a type is mapped (and active) to a category. */
  async isValid(docCategoryCode: string, docTypeCode: string): Promise<boolean> {
    const row = await this.prisma.validDocument.findFirst({ where: { docCategoryCode, docTypeCode, isActive: true, ...LIVE }, select: { docTypeCode: true } });
    return Boolean(row);
  }

  /** Maps a type to a category, or re-activates the mapping; racing maps: one wins, the other is KER-MSD-360. */
  async map(docCategoryCode: string, docTypeCode: string, by: string, now: Date): Promise<ValidDocumentMapping> {
    await this.assertCategoryAndType(docCategoryCode, docTypeCode);
    const key = { docCategoryCode, docTypeCode };
    const revived = await this.prisma.validDocument.updateMany({
      where: { ...key, OR: [{ isActive: false }, { isDeleted: true }] },
      data: { isActive: true, isDeleted: false, deletedAt: null, ...updated(by, now) },
    });
    if (revived.count === 0) {
      try {
        await this.prisma.validDocument.create({ data: { ...key, isActive: true, ...created(by, now) } });
      } catch (error) {
        if (isUniqueViolation(error)) throw masterdataErrors.validDocumentAlreadyMapped();
        throw error;
      }
    }
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
    const row = await this.prisma.validDocument.findFirst({ where: { ...key, ...LIVE } });
    if (!row) throw masterdataErrors.validDocumentNotMapped(docCategoryCode, docTypeCode);
    const changed = await this.prisma.validDocument.updateMany({ where: { ...key, isActive: true, ...LIVE }, data: { isActive: false, ...updated(by, now) } });
    if (changed.count === 0) throw masterdataErrors.validDocumentAlreadyUnmapped();
    return {
      ...key,
      isActive: false,
      status: 'un-mapped',
      message: `Document Category ${docCategoryCode} - Document Type Mapping ${docTypeCode} is un-mapped successfully`,
    };
  }
}
