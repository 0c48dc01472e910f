import type { ApplicantTypeRule, ApplicantValidDocument, PrismaClient } from '../../../generated/prisma/client.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, created, deleted, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import type { CodedRow } from './coded.js';
import { keysetConnection } from './keyset.js';
import { LIST_LIMIT, wholeList } from '../paged.js';
import { within } from '../../../lib/graph/capped.js';
import type { DocumentsService } from './service.js';

export interface RuleKey {
  individualTypeCode: string;
  ageGroupTypeCode: string;
  genderTypeCode: string;
}

export interface ApplicantDocumentKey {
  applicantTypeCode: string;
  docCategoryCode: string;
  docTypeCode: string;
}

/** The categories (one row per language) an applicant type may present, each with its types in that language. */
export interface ApplicantDocuments {
  applicantTypeCode: string;
  documentCategories: { category: CodedRow; documentTypes: CodedRow[] }[];
}

export const VALID_FOR_APPLICANT = 'Valid document for applicant type';

/** A revival of a soft-deleted or inactive row: live and active again. */
const revive = (by: string, now: Date) => ({ isActive: true, isDeleted: false, deletedAt: null, ...updated(by, now) });

/** Retries an upsert once when a racing one inserted the row first: the second attempt updates it. */
async function upsertRacing<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return upsert();
  }
}

/**
 * Which documents an applicant may present: the applicant type of an
 * (individual type, age group, gender) by the applicant type rules, and the
 * categories and types valid for that applicant type.
 */
export class ApplicantDocumentsService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly documents: DocumentsService,
  ) {}

  async applicantType(key: RuleKey): Promise<string> {
    const rule = await this.prisma.applicantTypeRule.findFirst({ where: { ...key, isActive: true, ...LIVE } });
    if (!rule)
      throw masterdataErrors.applicantDocumentsNotFound(`no applicant type for ${key.individualTypeCode}/${key.ageGroupTypeCode}/${key.genderTypeCode}`);
    return rule.applicantTypeCode;
  }

  /** MOSIP's /doccattypes: categories in the given languages (all when none), each with its types; KER-MSD-150 when there are none. */
  async documentsOf(key: RuleKey, languages?: readonly string[] | null): Promise<ApplicantDocuments> {
    for (const language of languages ?? []) await this.documents.checkLanguage(language);
    const applicantTypeCode = await this.applicantType(key);
    const valid = await wholeList('documents of an applicant type', 'applicantValidDocuments', (take) =>
      this.prisma.applicantValidDocument.findMany({ where: { applicantTypeCode, isActive: true, ...LIVE }, take }),
    );
    const inLanguages = languages?.length ? { langCode: { in: [...languages] } } : {};
    const [categories, types] = await Promise.all([
      this.prisma.documentCategory.findMany({
        where: { code: { in: valid.map((row) => row.docCategoryCode) }, isActive: true, ...LIVE, ...inLanguages },
        orderBy: [{ code: 'asc' }, { langCode: 'asc' }],
      }),
      this.prisma.documentType.findMany({
        where: { code: { in: valid.map((row) => row.docTypeCode) }, isActive: true, ...LIVE, ...inLanguages },
        orderBy: [{ code: 'asc' }, { langCode: 'asc' }],
      }),
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
    const row = await this.prisma.applicantValidDocument.findFirst({ where: { ...key, isActive: true, ...LIVE }, select: { applicantTypeCode: true } });
    if (!row) throw masterdataErrors.applicantDocumentsNotFound(`${key.applicantTypeCode}/${key.docCategoryCode}/${key.docTypeCode}`);
    return VALID_FOR_APPLICANT;
  }

  saveRule(input: RuleKey & { applicantTypeCode: string; isActive: boolean }, by: string, now: Date): Promise<ApplicantTypeRule> {
    const { applicantTypeCode, isActive, ...key } = input;
    return upsertRacing(() =>
      this.prisma.applicantTypeRule.upsert({
        where: { individualTypeCode_ageGroupTypeCode_genderTypeCode: key },
        create: { ...key, applicantTypeCode, isActive, ...created(by, now) },
        update: { ...revive(by, now), applicantTypeCode, isActive },
      }),
    );
  }

  async deleteRule(key: RuleKey, by: string, now: Date): Promise<ApplicantTypeRule> {
    const removed = await this.prisma.applicantTypeRule.updateMany({ where: { ...key, ...LIVE }, data: deleted(by, now) });
    if (removed.count === 0)
      throw masterdataErrors.applicantDocumentsNotFound(`no rule for ${key.individualTypeCode}/${key.ageGroupTypeCode}/${key.genderTypeCode}`);
    return (await this.prisma.applicantTypeRule.findUnique({ where: { individualTypeCode_ageGroupTypeCode_genderTypeCode: key } }))!;
  }

  /** Lets an applicant type present a category and type that exist and are mapped to each other; idempotent. */
  async mapDocument(key: ApplicantDocumentKey, by: string, now: Date): Promise<ApplicantValidDocument> {
    await this.documents.assertCategoryAndType(key.docCategoryCode, key.docTypeCode);
    if (!(await this.documents.isValid(key.docCategoryCode, key.docTypeCode)))
      throw masterdataErrors.validDocumentNotMapped(key.docCategoryCode, key.docTypeCode);
    return upsertRacing(() =>
      this.prisma.applicantValidDocument.upsert({
        where: { applicantTypeCode_docCategoryCode_docTypeCode: key },
        create: { ...key, isActive: true, ...created(by, now) },
        update: revive(by, now),
      }),
    );
  }

  async unmapDocument(key: ApplicantDocumentKey, by: string, now: Date): Promise<ApplicantValidDocument> {
    const removed = await this.prisma.applicantValidDocument.updateMany({ where: { ...key, ...LIVE }, data: deleted(by, now) });
    if (removed.count === 0) throw masterdataErrors.applicantDocumentsNotFound(`${key.applicantTypeCode}/${key.docCategoryCode}/${key.docTypeCode}`);
    return (await this.prisma.applicantValidDocument.findUnique({ where: { applicantTypeCode_docCategoryCode_docTypeCode: key } }))!;
  }

  rules(page: PageArgs, filter?: { applicantTypeCode?: string | null } | null): Promise<Connection<ApplicantTypeRule>> {
    const where = { ...LIVE, ...(filter?.applicantTypeCode ? { applicantTypeCode: filter.applicantTypeCode } : {}) };
    return keysetConnection<ApplicantTypeRule>(
      page,
      ['individualTypeCode', 'ageGroupTypeCode', 'genderTypeCode'],
      ({ take, skip, after }) =>
        this.prisma.applicantTypeRule.findMany({
          where,
          orderBy: [{ individualTypeCode: 'asc' }, { ageGroupTypeCode: 'asc' }, { genderTypeCode: 'asc' }],
          take,
          ...(skip !== undefined ? { skip } : {}),
          ...(after
            ? {
                cursor: {
                  individualTypeCode_ageGroupTypeCode_genderTypeCode: { individualTypeCode: after[0]!, ageGroupTypeCode: after[1]!, genderTypeCode: after[2]! },
                },
              }
            : {}),
        }),
      () => this.prisma.applicantTypeRule.count({ where }),
    );
  }

  validDocuments(
    page: PageArgs,
    filter?: { applicantTypeCode?: string | null; docCategoryCode?: string | null } | null,
  ): Promise<Connection<ApplicantValidDocument>> {
    const where = {
      ...LIVE,
      ...(filter?.applicantTypeCode ? { applicantTypeCode: filter.applicantTypeCode } : {}),
      ...(filter?.docCategoryCode ? { docCategoryCode: filter.docCategoryCode } : {}),
    };
    return keysetConnection<ApplicantValidDocument>(
      page,
      ['applicantTypeCode', 'docCategoryCode', 'docTypeCode'],
      ({ take, skip, after }) =>
        this.prisma.applicantValidDocument.findMany({
          where,
          orderBy: [{ applicantTypeCode: 'asc' }, { docCategoryCode: 'asc' }, { docTypeCode: 'asc' }],
          take,
          ...(skip !== undefined ? { skip } : {}),
          ...(after
            ? {
                cursor: { applicantTypeCode_docCategoryCode_docTypeCode: { applicantTypeCode: after[0]!, docCategoryCode: after[1]!, docTypeCode: after[2]! } },
              }
            : {}),
        }),
      () => this.prisma.applicantValidDocument.count({ where }),
    );
  }
}
