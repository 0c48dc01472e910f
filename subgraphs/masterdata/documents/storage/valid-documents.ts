import type { PrismaClient, ValidDocument } from '../../../../generated/prisma/client.js';
import { LIVE, type Created, type Updated } from '../../audit.js';
import { unlessTaken } from '../../../../lib/db/unique.js';
import type { MappedCode } from './coded.js';

export interface ValidDocumentKey {
  docCategoryCode: string;
  docTypeCode: string;
}

/** Which types prove which category (md_valid_document), as the rules see it. */
export interface ValidDocumentStore {
  /** whether a live, active mapping uses the code */
  mapsActive(code: MappedCode): Promise<boolean>;
  /** whether the type is mapped (live and active) to the category */
  isMapped(key: ValidDocumentKey): Promise<boolean>;
  /** the first `take` types mapped (live and active) to a category */
  typeCodesOf(docCategoryCode: string, take: number): Promise<string[]>;
  /** makes an inactive or deleted mapping live and active again: how many (0 or 1) */
  reactivate(key: ValidDocumentKey, stamp: Updated): Promise<number>;
  /** a new mapping, live and active: false when the key is taken */
  insert(row: ValidDocumentKey & Created): Promise<boolean>;
  liveRow(key: ValidDocumentKey): Promise<ValidDocument | null>;
  /** de-activates the live, active mapping: how many (0 or 1) */
  deactivate(key: ValidDocumentKey, stamp: Updated): Promise<number>;
}

/** The valid documents' table (md_valid_document): the only code that touches it. */
export class ValidDocumentStorage implements ValidDocumentStore {
  constructor(private readonly prisma: PrismaClient) {}

  async mapsActive(code: MappedCode): Promise<boolean> {
    return (await this.prisma.validDocument.findFirst({ where: { ...code, isActive: true, ...LIVE }, select: { docTypeCode: true } })) !== null;
  }

  async isMapped(key: ValidDocumentKey): Promise<boolean> {
    return (await this.prisma.validDocument.findFirst({ where: { ...key, isActive: true, ...LIVE }, select: { docTypeCode: true } })) !== null;
  }

  async typeCodesOf(docCategoryCode: string, take: number): Promise<string[]> {
    const rows = await this.prisma.validDocument.findMany({ where: { docCategoryCode, isActive: true, ...LIVE }, select: { docTypeCode: true }, take });
    return rows.map((row) => row.docTypeCode);
  }

  async reactivate(key: ValidDocumentKey, stamp: Updated): Promise<number> {
    const revived = await this.prisma.validDocument.updateMany({
      where: { ...key, OR: [{ isActive: false }, { isDeleted: true }] },
      data: { isActive: true, isDeleted: false, deletedAt: null, ...stamp },
    });
    return revived.count;
  }

  async insert(row: ValidDocumentKey & Created): Promise<boolean> {
    return (await unlessTaken(this.prisma.validDocument.create({ data: { ...row, isActive: true } }))) !== null;
  }

  liveRow(key: ValidDocumentKey): Promise<ValidDocument | null> {
    return this.prisma.validDocument.findFirst({ where: { ...key, ...LIVE } });
  }

  async deactivate(key: ValidDocumentKey, stamp: Updated): Promise<number> {
    return (await this.prisma.validDocument.updateMany({ where: { ...key, isActive: true, ...LIVE }, data: { isActive: false, ...stamp } })).count;
  }
}
