import { within } from '../../../lib/graph/capped.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { created, deleted, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { LIST_LIMIT, wholeList } from '../paged.js';
import type { CodedRow } from './coded.js';
import type { DocumentsService } from './service.js';
import type { ApplicantDocumentKey, ApplicantStore, RuleKey } from './storage/applicants.js';
import type { ApplicantTypeRuleRow, ApplicantValidDocumentRow, CodedStore } from './storage/coded.js';

export type { ApplicantDocumentKey, RuleKey } from './storage/applicants.js';

/** The categories (one row per language) an applicant type may present, each with its types in that language. */
export interface ApplicantDocuments {
  applicantTypeCode: string;
  documentCategories: { category: CodedRow; documentTypes: CodedRow[] }[];
}

export const VALID_FOR_APPLICANT = 'Valid document for applicant type';

/** A revival of a soft-deleted or inactive row: live and active again. */
const revive = (by: string, now: Date) => ({ isActive: true, isDeleted: false as const, deletedAt: null, ...updated(by, now) });

/** What the applicant rules read: their own tables, the categories' and types' rows, and the documents' rules. */
export interface ApplicantDocumentsDeps {
  store: ApplicantStore;
  categories: Pick<CodedStore, 'activeOf'>;
  types: Pick<CodedStore, 'activeOf'>;
  documents: Pick<DocumentsService, 'checkLanguage' | 'assertCategoryAndType' | 'isValid'>;
}

/**
 * Which documents an applicant may present: the applicant type of an
 * (individual type, age group, gender) by the applicant type rules, and the
 * categories and types valid for that applicant type.
 */
export class ApplicantDocumentsService {
  private readonly store: ApplicantStore;

  constructor(private readonly deps: ApplicantDocumentsDeps) {
    this.store = deps.store;
  }

  async applicantType(key: RuleKey): Promise<string> {
    const rule = await this.store.activeRule(key);
    if (!rule)
      throw masterdataErrors.applicantDocumentsNotFound(`no applicant type for ${key.individualTypeCode}/${key.ageGroupTypeCode}/${key.genderTypeCode}`);
    return rule.applicantTypeCode;
  }

  /** MOSIP's /doccattypes: categories in the given languages (all when none), each with its types; KER-MSD-150 when there are none. */
  async documentsOf(key: RuleKey, languages?: readonly string[] | null): Promise<ApplicantDocuments> {
    for (const language of languages ?? []) await this.deps.documents.checkLanguage(language);
    const applicantTypeCode = await this.applicantType(key);
    const valid = await wholeList('documents of an applicant type', 'applicantValidDocuments', (take) => this.store.documentsOf(applicantTypeCode, take));
    const [categories, types] = await Promise.all([
      this.deps.categories.activeOf(
        valid.map((row) => row.docCategoryCode),
        languages,
      ),
      this.deps.types.activeOf(
        valid.map((row) => row.docTypeCode),
        languages,
      ),
    ]);
    const documentCategories = categories
      .map((category) => {
        const codes = new Set(valid.filter((row) => row.docCategoryCode === category.code).map((row) => row.docTypeCode));
        return { category, documentTypes: types.filter((type) => type.langCode === category.langCode && codes.has(type.code)) };
      })
      .filter((entry) => entry.documentTypes.length > 0);
    if (!documentCategories.length) throw masterdataErrors.applicantDocumentsNotFound(`no documents for applicant type ${applicantTypeCode}`);
    // One entry per category and language: LIST_LIMIT at most, as each entry's types (a part of `valid`).
    return {
      applicantTypeCode,
      documentCategories: within(LIST_LIMIT, documentCategories, () =>
        masterdataErrors.listTooLong('document categories', LIST_LIMIT, 'applicantValidDocuments'),
      ),
    };
  }

  async check(key: ApplicantDocumentKey): Promise<string> {
    if (!(await this.store.presents(key)))
      throw masterdataErrors.applicantDocumentsNotFound(`${key.applicantTypeCode}/${key.docCategoryCode}/${key.docTypeCode}`);
    return VALID_FOR_APPLICANT;
  }

  saveRule(input: RuleKey & { applicantTypeCode: string; isActive: boolean }, by: string, now: Date): Promise<ApplicantTypeRuleRow> {
    const { applicantTypeCode, isActive, ...key } = input;
    return this.store.saveRule(key, {
      create: { applicantTypeCode, isActive, ...created(by, now) },
      update: { ...revive(by, now), applicantTypeCode, isActive },
    });
  }

  async deleteRule(key: RuleKey, by: string, now: Date): Promise<ApplicantTypeRuleRow> {
    const removed = await this.store.removeRule(key, deleted(by, now));
    if (!removed) throw masterdataErrors.applicantDocumentsNotFound(`no rule for ${key.individualTypeCode}/${key.ageGroupTypeCode}/${key.genderTypeCode}`);
    return removed;
  }

  /** Lets an applicant type present a category and type that exist and are mapped to each other; idempotent. */
  async mapDocument(key: ApplicantDocumentKey, by: string, now: Date): Promise<ApplicantValidDocumentRow> {
    await this.deps.documents.assertCategoryAndType(key.docCategoryCode, key.docTypeCode);
    if (!(await this.deps.documents.isValid(key.docCategoryCode, key.docTypeCode)))
      throw masterdataErrors.validDocumentNotMapped(key.docCategoryCode, key.docTypeCode);
    return this.store.saveDocument(key, { create: { isActive: true, ...created(by, now) }, update: revive(by, now) });
  }

  async unmapDocument(key: ApplicantDocumentKey, by: string, now: Date): Promise<ApplicantValidDocumentRow> {
    const removed = await this.store.removeDocument(key, deleted(by, now));
    if (!removed) throw masterdataErrors.applicantDocumentsNotFound(`${key.applicantTypeCode}/${key.docCategoryCode}/${key.docTypeCode}`);
    return removed;
  }

  rules(page: PageArgs, filter?: { applicantTypeCode?: string | null } | null): Promise<Connection<ApplicantTypeRuleRow>> {
    return this.store.rules(filter ?? {}, page);
  }

  validDocuments(
    page: PageArgs,
    filter?: { applicantTypeCode?: string | null; docCategoryCode?: string | null } | null,
  ): Promise<Connection<ApplicantValidDocumentRow>> {
    return this.store.documents(filter ?? {}, page);
  }
}
