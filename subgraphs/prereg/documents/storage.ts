import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { Locked, StoredDocument } from './types.js';

/** A document row as the service writes it; storage stamps its times. */
export type DocumentWrite = Omit<StoredDocument, 'createdAt' | 'updatedAt'>;

/** How a save came out: written (with the key of the version it replaced), another writer's row in the category, or no room for one more. */
export type SaveOutcome = { replacedKey: string | null } | 'raced' | 'full';

/** The store the documents' rules read and write (DocumentStorage; an in-memory one in unit tests). */
export interface DocumentStore {
  byId(id: string): Promise<StoredDocument | null>;
  ofCategory(preRegId: string, docCatCode: string): Promise<StoredDocument | null>;
  /** an application's documents by category, at most `take` */
  ofApplication(preRegId: string, take: number): Promise<StoredDocument[]>;
  /** the documents of several applications (reached by the caller already) */
  ofApplications(preRegIds: readonly string[]): Promise<StoredDocument[]>;
  save(row: DocumentWrite, at: Date, locked: readonly string[], max: number): Promise<Locked<SaveOutcome>>;
  /** removes the documents named (all of the application's when `ids` is null): their object keys */
  remove(preRegId: string, ids: readonly string[] | null, locked: readonly string[]): Promise<Locked<string[]>>;
  setRefNumber(preRegId: string, id: string, refNumber: string, at: Date, locked: readonly string[]): Promise<Locked<StoredDocument | null>>;
}

/**
 * Documents (prereg_document). Every write runs with its application's row
 * locked and its status read under that lock: a booking, which moves the
 * status by an update of that row, either waits for the write or is seen by
 * it, so no document changes once its application is booked.
 */
export class DocumentStorage implements DocumentStore {
  constructor(private readonly prisma: PrismaClient) {}

  byId(id: string): Promise<StoredDocument | null> {
    return this.prisma.preRegDocument.findUnique({ where: { id } });
  }

  ofCategory(preRegId: string, docCatCode: string): Promise<StoredDocument | null> {
    return this.prisma.preRegDocument.findUnique({ where: { preRegId_docCatCode: { preRegId, docCatCode } } });
  }

  ofApplication(preRegId: string, take: number): Promise<StoredDocument[]> {
    return this.prisma.preRegDocument.findMany({ where: { preRegId }, orderBy: { docCatCode: 'asc' }, take });
  }

  ofApplications(preRegIds: readonly string[]): Promise<StoredDocument[]> {
    return this.prisma.preRegDocument.findMany({ where: { preRegId: { in: [...preRegIds] } }, orderBy: [{ preRegId: 'asc' }, { docCatCode: 'asc' }] });
  }

  /** Creates the row, or replaces the version of its category when that row has the same id. */
  save(row: DocumentWrite, at: Date, locked: readonly string[], max: number): Promise<Locked<SaveOutcome>> {
    return this.whileUnlocked(row.preRegId, locked, async (tx): Promise<SaveOutcome> => {
      const current = await tx.preRegDocument.findUnique({ where: { preRegId_docCatCode: { preRegId: row.preRegId, docCatCode: row.docCatCode } } });
      if (current && current.id !== row.id) return 'raced';
      if (!current) {
        if ((await tx.preRegDocument.count({ where: { preRegId: row.preRegId } })) >= max) return 'full';
        await tx.preRegDocument.create({ data: { ...row, createdAt: at } });
        return { replacedKey: null };
      }
      const { id, preRegId: _preRegId, createdBy: _createdBy, ...version } = row;
      await tx.preRegDocument.update({ where: { id }, data: { ...version, updatedAt: at } });
      return { replacedKey: current.objectKey };
    });
  }

  remove(preRegId: string, ids: readonly string[] | null, locked: readonly string[]): Promise<Locked<string[]>> {
    return this.whileUnlocked(preRegId, locked, async (tx) => {
      const where = { preRegId, ...(ids ? { id: { in: [...ids] } } : {}) };
      const rows = await tx.preRegDocument.findMany({ where, select: { objectKey: true } });
      await tx.preRegDocument.deleteMany({ where });
      return rows.map((row) => row.objectKey);
    });
  }

  setRefNumber(preRegId: string, id: string, refNumber: string, at: Date, locked: readonly string[]): Promise<Locked<StoredDocument | null>> {
    return this.whileUnlocked(preRegId, locked, async (tx) => {
      const { count } = await tx.preRegDocument.updateMany({ where: { id, preRegId }, data: { refNumber, updatedAt: at } });
      return count ? tx.preRegDocument.findUnique({ where: { id } }) : null;
    });
  }

  /** Runs `work` with the application's row locked, unless the application is gone or its status is one of `locked`. */
  private whileUnlocked<T>(preRegId: string, locked: readonly string[], work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<Locked<T>> {
    return this.prisma.$transaction(async (tx): Promise<Locked<T>> => {
      const [application] = await tx.$queryRaw<{ statusCode: string }[]>`SELECT "statusCode" FROM prereg_application WHERE id = ${preRegId} FOR UPDATE`;
      if (!application) return { done: false, statusCode: null };
      if (locked.includes(application.statusCode)) return { done: false, statusCode: application.statusCode };
      return { done: true, value: await work(tx) };
    });
  }
}
