import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Database } from '../../../lib/db/client.js';
import { whileLocked } from '../../../lib/db/lock.js';
import type { ImportTable } from './tables.js';

/** The database a load writes into (what a script or test holds: `database.prisma`). */
export type ImportDatabase = PrismaClient;

/** Master data's tables as a load fills them, row by row: the seam a test fills in memory. */
export interface ImportStore {
  /** inserts one row into a table: null when it went in, else why not, as a reader of the report needs it (the constraint, not the SQL) */
  insert(model: ImportTable['model'], data: Record<string, unknown>): Promise<string | null>;
  /** holidays loaded with explicit ids: the id sequence continues after them */
  continueHolidayIds(): Promise<void>;
  /** fresh statistics for the planner, and the trigram index's pending entries merged, as autovacuum would later */
  analyze(): Promise<void>;
}

/** A database error as a reader of the report needs it: the constraint, not the SQL. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'P2002') return 'a row with this key already exists';
  if (code === 'P2003') return 'refers to a row that does not exist';
  return error instanceof Error ? error.message.split('\n').at(-1)!.slice(0, 200) : String(error);
}

/** Every table a country's files fill (IMPORT_TABLES): the only code that writes a load's rows. */
export class ImportStorage implements ImportStore {
  constructor(protected readonly prisma: ImportDatabase) {}

  async insert(model: ImportTable['model'], data: Record<string, unknown>): Promise<string | null> {
    try {
      await (this.prisma[model] as unknown as { create(args: { data: object }): Promise<unknown> }).create({ data });
      return null;
    } catch (error) {
      return reasonOf(error);
    }
  }

  async continueHolidayIds(): Promise<void> {
    await this.prisma.$executeRawUnsafe(
      `SELECT setval(pg_get_serial_sequence('md_holiday', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM md_holiday), 1))`,
    );
  }

  async analyze(): Promise<void> {
    await this.prisma.$executeRawUnsafe('VACUUM ANALYZE md_holiday, md_location');
  }
}

/** What loading the sample country at start reads besides the load: the languages there are, and a lock instances share. */
export interface SampleCountryStore extends ImportStore {
  /** how many languages there are, deleted ones too (none: a database that has never had master data) */
  languageCount(): Promise<number>;
  /** how many rows the language has, deleted ones too */
  rowsOfLanguage(code: string): Promise<number>;
  /** runs `work` while an advisory lock on `key` is held, outside the lock's transaction (lib/db/lock.ts's whileLocked) */
  whileLocked<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** The load's tables, the languages' table and the database's advisory locks, at start. */
export class SampleCountryStorage extends ImportStorage implements SampleCountryStore {
  constructor(private readonly database: Pick<Database, 'kind' | 'prisma'>) {
    super(database.prisma);
  }

  languageCount(): Promise<number> {
    return this.prisma.language.count();
  }

  rowsOfLanguage(code: string): Promise<number> {
    return this.prisma.language.count({ where: { code } });
  }

  whileLocked<T>(key: string, work: () => Promise<T>): Promise<T> {
    return whileLocked(this.database, key, work);
  }
}
