import type { PrismaClient } from '../../../../generated/prisma/client.js';
import { isUniqueViolation } from '../../../../lib/db/unique.js';
import type { Connection, PageArgs } from '../../../../lib/graph/connection.js';
import { LIVE, type Created, type Deleted } from '../../audit.js';
import { keysetConnection } from '../keyset.js';
import type { ApplicantTypeRuleRow, ApplicantValidDocumentRow, MappedCode } from './coded.js';

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

/** What a save writes: the new row's columns, or the existing row's changes. */
export interface Upsert<C, U> {
  create: C;
  update: U;
}

/** The revival of a soft-deleted or inactive row: live and active again (audit.ts's updated, and these). */
export interface Revival {
  isActive: boolean;
  isDeleted: false;
  deletedAt: null;
  updatedBy: string;
  updatedAt: Date;
  changedAt: Date;
}

/** The applicant type rules and the documents each applicant type may present, as the rules see them: the seam a test fills in memory. */
export interface ApplicantStore {
  /** the live, active rule of an (individual type, age group, gender) */
  activeRule(key: RuleKey): Promise<ApplicantTypeRuleRow | null>;
  /** the first `take` live, active documents of an applicant type */
  documentsOf(applicantTypeCode: string, take: number): Promise<ApplicantValidDocumentRow[]>;
  /** whether the applicant type may present the category and type (a live, active row) */
  presents(key: ApplicantDocumentKey): Promise<boolean>;
  /** whether a live row (active or not) uses the code */
  maps(code: MappedCode): Promise<boolean>;
  /** writes the rule of the key, new or over the existing row; racing saves: the second updates */
  saveRule(
    key: RuleKey,
    row: Upsert<{ applicantTypeCode: string; isActive: boolean } & Created, Revival & { applicantTypeCode: string }>,
  ): Promise<ApplicantTypeRuleRow>;
  /** soft-deletes the live rule of the key: the row, or null when there was none */
  removeRule(key: RuleKey, stamp: Deleted): Promise<ApplicantTypeRuleRow | null>;
  /** writes the document of the key, new or over the existing row; racing saves: the second updates */
  saveDocument(key: ApplicantDocumentKey, row: Upsert<{ isActive: boolean } & Created, Revival>): Promise<ApplicantValidDocumentRow>;
  /** soft-deletes the live document of the key: the row, or null when there was none */
  removeDocument(key: ApplicantDocumentKey, stamp: Deleted): Promise<ApplicantValidDocumentRow | null>;
  rules(filter: { applicantTypeCode?: string | null }, page: PageArgs): Promise<Connection<ApplicantTypeRuleRow>>;
  documents(filter: { applicantTypeCode?: string | null; docCategoryCode?: string | null }, page: PageArgs): Promise<Connection<ApplicantValidDocumentRow>>;
}

/** Retries an upsert once when a racing one inserted the row first: the second attempt updates it. */
async function upsertRacing<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return upsert();
  }
}

/** The applicant types' tables (md_applicant_type_rule, md_applicant_valid_document): the only code that touches them. */
export class ApplicantStorage implements ApplicantStore {
  constructor(private readonly prisma: PrismaClient) {}

  activeRule(key: RuleKey): Promise<ApplicantTypeRuleRow | null> {
    return this.prisma.applicantTypeRule.findFirst({ where: { ...key, isActive: true, ...LIVE } });
  }

  documentsOf(applicantTypeCode: string, take: number): Promise<ApplicantValidDocumentRow[]> {
    return this.prisma.applicantValidDocument.findMany({ where: { applicantTypeCode, isActive: true, ...LIVE }, take });
  }

  async presents(key: ApplicantDocumentKey): Promise<boolean> {
    const row = await this.prisma.applicantValidDocument.findFirst({ where: { ...key, isActive: true, ...LIVE }, select: { applicantTypeCode: true } });
    return row !== null;
  }

  async maps(code: MappedCode): Promise<boolean> {
    return (await this.prisma.applicantValidDocument.findFirst({ where: { ...code, ...LIVE }, select: { docTypeCode: true } })) !== null;
  }

  saveRule(key: RuleKey, row: Upsert<{ applicantTypeCode: string; isActive: boolean } & Created, Revival & { applicantTypeCode: string }>) {
    return upsertRacing(() =>
      this.prisma.applicantTypeRule.upsert({
        where: { individualTypeCode_ageGroupTypeCode_genderTypeCode: key },
        create: { ...key, ...row.create },
        update: row.update,
      }),
    );
  }

  async removeRule(key: RuleKey, stamp: Deleted): Promise<ApplicantTypeRuleRow | null> {
    const removed = await this.prisma.applicantTypeRule.updateMany({ where: { ...key, ...LIVE }, data: stamp });
    if (removed.count === 0) return null;
    return (await this.prisma.applicantTypeRule.findUnique({ where: { individualTypeCode_ageGroupTypeCode_genderTypeCode: key } }))!;
  }

  saveDocument(key: ApplicantDocumentKey, row: Upsert<{ isActive: boolean } & Created, Revival>) {
    return upsertRacing(() =>
      this.prisma.applicantValidDocument.upsert({
        where: { applicantTypeCode_docCategoryCode_docTypeCode: key },
        create: { ...key, ...row.create },
        update: row.update,
      }),
    );
  }

  async removeDocument(key: ApplicantDocumentKey, stamp: Deleted): Promise<ApplicantValidDocumentRow | null> {
    const removed = await this.prisma.applicantValidDocument.updateMany({ where: { ...key, ...LIVE }, data: stamp });
    if (removed.count === 0) return null;
    return (await this.prisma.applicantValidDocument.findUnique({ where: { applicantTypeCode_docCategoryCode_docTypeCode: key } }))!;
  }

  rules(filter: { applicantTypeCode?: string | null }, page: PageArgs): Promise<Connection<ApplicantTypeRuleRow>> {
    const where = { ...LIVE, ...(filter.applicantTypeCode ? { applicantTypeCode: filter.applicantTypeCode } : {}) };
    return keysetConnection<ApplicantTypeRuleRow>(
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

  documents(filter: { applicantTypeCode?: string | null; docCategoryCode?: string | null }, page: PageArgs): Promise<Connection<ApplicantValidDocumentRow>> {
    const where = {
      ...LIVE,
      ...(filter.applicantTypeCode ? { applicantTypeCode: filter.applicantTypeCode } : {}),
      ...(filter.docCategoryCode ? { docCategoryCode: filter.docCategoryCode } : {}),
    };
    return keysetConnection<ApplicantValidDocumentRow>(
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
