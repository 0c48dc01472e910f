import type { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { Database } from '../../../lib/db/client.js';
import type { Tx } from '../../../lib/db/lock.js';
import { whileLocked } from '../../../lib/db/lock.js';
import type { ImportTable } from './tables.js';

/** The database a load writes into (what a script or test holds: `database.prisma`). */
export type ImportDatabase = PrismaClient;

type Model = ImportTable['model'];
type Row = Record<string, unknown>;

/** Master data's tables as a load fills them, row by row: what a start's load needs at least, and the seam a test fills in memory. */
export interface ImportStore {
  /** inserts one row into a table: null when it went in, else why not, as a reader of the report needs it (the constraint, not the SQL) */
  insert(model: Model, data: Row): Promise<string | null>;
  /** holidays loaded with explicit ids: the id sequence continues after them */
  continueHolidayIds(): Promise<void>;
  /** fresh statistics for the planner, and the trigram index's pending entries merged, as autovacuum would later */
  analyze(): Promise<void>;
}

/** The tables in batches: what an import that updates rows already there (and a large file) needs. */
export interface UpsertStore extends ImportStore {
  /** the stored rows (deleted ones too) whose columns equal one of `keys` (each a column → value map of one table key) */
  findByKeys(model: Model, keys: Row[]): Promise<Row[]>;
  /** inserts every row in one statement: null when they all went in, else why the statement failed (then none did) */
  insertMany(model: Model, rows: Row[]): Promise<string | null>;
  /** sets `data` on the row found by `key`: null when done, else why not */
  update(model: Model, key: Row, data: Row): Promise<string | null>;
  /** sets each change at once (all or none): null when done, else why not */
  updateAll(model: Model, changes: { key: Row; data: Row }[]): Promise<string | null>;
  /** runs `work` on a store inside one transaction that is rolled back at the end: a dry run writes nothing */
  rehearse<T>(work: (store: UpsertStore) => Promise<T>): Promise<T>;
}

/** A database error as a reader of the report needs it: the constraint, not the SQL. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'P2002') return 'a row with this key already exists';
  if (code === 'P2003') return 'refers to a row that does not exist';
  return error instanceof Error ? error.message.split('\n').at(-1)!.slice(0, 200) : String(error);
}

/** The delegate of a table, as a load calls it (each model's own types are the same calls over other columns). */
interface Table {
  create(args: { data: object }): Promise<unknown>;
  findMany(args: { where: object }): Promise<Row[]>;
  updateMany(args: { where: object; data: object }): Prisma.PrismaPromise<unknown>;
}

/** The tables of IMPORT_TABLES' models (their @@map in prisma/schema/masterdata.prisma). */
const TABLES: Record<Model, string> = {
  language: 'md_language',
  locationHierarchyLevel: 'md_location_hierarchy_level',
  location: 'md_location',
  zone: 'md_zone',
  zoneUser: 'md_zone_user',
  documentCategory: 'md_document_category',
  documentType: 'md_document_type',
  validDocument: 'md_valid_document',
  applicantTypeRule: 'md_applicant_type_rule',
  applicantValidDocument: 'md_applicant_valid_document',
  holiday: 'md_holiday',
  deviceType: 'md_device_type',
  deviceSpecification: 'md_device_spec',
  registrationCenter: 'md_registration_center',
  registrationCenterWorkingDay: 'md_reg_center_working_day',
  machine: 'md_machine',
  registrationCenterUser: 'md_reg_center_user',
  device: 'md_device',
  idSchema: 'md_id_schema',
};

/** A value as its column's SQL literal takes it: a date as its day, a timestamp (UTC, no zone) as its instant, JSON as text. */
function literal(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString().replace('T', ' ').replace('Z', '');
  if (type === 'json' || type === 'jsonb') return JSON.stringify(value);
  return value;
}

/** The end of a dry run's transaction: thrown to roll it back, carrying what the work answered. */
class Rehearsed<T> extends Error {
  constructor(readonly result: T) {
    super('dry run: rolled back');
  }
}

/** How long a dry run's transaction may last: it reads and writes every row of the folder. */
const REHEARSAL_MS = 30 * 60_000;

/** Every table a country's files fill (IMPORT_TABLES): the only code that writes a load's rows. */
export class ImportStorage implements UpsertStore {
  /** the savepoint each statement of a dry run sits in: a refused batch must not abort the transaction */
  private savepoints = 0;
  private readonly types = new Map<Model, Map<string, string>>();

  constructor(
    protected readonly prisma: ImportDatabase,
    /** set inside a dry run's transaction */
    private readonly tx?: Tx,
  ) {}

  private table(model: Model): Table {
    const delegate: unknown = (this.tx ?? this.prisma)[model];
    return delegate as Table;
  }

  /** Runs a write; inside a transaction behind a savepoint, so that its failure leaves the rest of the transaction usable. */
  private async attempt(write: () => Promise<unknown>): Promise<string | null> {
    const savepoint = this.tx ? `import_${++this.savepoints}` : null;
    try {
      if (savepoint) await this.tx!.$executeRawUnsafe(`SAVEPOINT ${savepoint}`);
      await write();
      if (savepoint) await this.tx!.$executeRawUnsafe(`RELEASE SAVEPOINT ${savepoint}`);
      return null;
    } catch (error) {
      if (savepoint) await this.tx!.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      return reasonOf(error);
    }
  }

  insert(model: Model, data: Row): Promise<string | null> {
    return this.attempt(() => this.table(model).create({ data }));
  }

  /** The SQL types of a table's columns, read once: the casts of a batch's parameters. */
  private async columnTypes(model: Model): Promise<Map<string, string>> {
    let types = this.types.get(model);
    if (!types) {
      const rows = await (this.tx ?? this.prisma).$queryRawUnsafe<{ column_name: string; udt_name: string }[]>(
        'SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
        TABLES[model],
      );
      types = new Map(rows.map((row) => [row.column_name, row.udt_name]));
      this.types.set(model, types);
    }
    return types;
  }

  /**
   * One INSERT of many rows, each value cast to its column's type: Prisma's
   * createMany spends about a millisecond of CPU per row building its query,
   * five times the database's own work, and a country's holidays run to
   * hundreds of thousands. A column a row leaves out takes its DEFAULT (a
   * holiday's id from the sequence).
   */
  async insertMany(model: Model, rows: Row[]): Promise<string | null> {
    const types = await this.columnTypes(model);
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    const unknown = columns.find((column) => !types.has(column));
    if (unknown) return `${TABLES[model]} has no column ${unknown}`;
    const values: unknown[] = [];
    const tuples = rows.map(
      (row) =>
        `(${columns
          .map((column) => {
            if (!(column in row)) return 'DEFAULT';
            values.push(literal(row[column], types.get(column)!));
            return `$${values.length}::${types.get(column)!}`;
          })
          .join(', ')})`,
    );
    const sql = `INSERT INTO "${TABLES[model]}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES ${tuples.join(', ')}`;
    return this.attempt(() => (this.tx ?? this.prisma).$executeRawUnsafe(sql, ...values));
  }

  /** Each key column's values in one IN list, which the primary key's index answers; the caller keeps the exact tuples it asked for. */
  findByKeys(model: Model, keys: Row[]): Promise<Row[]> {
    if (!keys.length) return Promise.resolve([]);
    const columns = Object.keys(keys[0]!);
    const where = Object.fromEntries(columns.map((column) => [column, { in: [...new Set(keys.map((key) => key[column]))] }]));
    return this.table(model).findMany({ where });
  }

  update(model: Model, key: Row, data: Row): Promise<string | null> {
    return this.attempt(() => this.table(model).updateMany({ where: key, data }));
  }

  /** In a dry run the changes sit in its transaction already; otherwise they are one transaction of their own (all or none). */
  updateAll(model: Model, changes: { key: Row; data: Row }[]): Promise<string | null> {
    const table = this.table(model);
    if (this.tx)
      return this.attempt(async () => {
        for (const { key, data } of changes) await table.updateMany({ where: key, data });
      });
    return this.attempt(() => this.prisma.$transaction(changes.map(({ key, data }) => table.updateMany({ where: key, data }))));
  }

  async rehearse<T>(work: (store: UpsertStore) => Promise<T>): Promise<T> {
    try {
      await this.prisma.$transaction(
        async (tx) => {
          throw new Rehearsed(await work(new ImportStorage(this.prisma, tx)));
        },
        { timeout: REHEARSAL_MS, maxWait: 60_000 },
      );
    } catch (error) {
      if (error instanceof Rehearsed) return error.result as T;
      throw error;
    }
    throw new Error('a dry run ended without rolling back');
  }

  async continueHolidayIds(): Promise<void> {
    // setval is not transactional: a dry run leaves the sequence alone.
    if (this.tx) return;
    await this.prisma.$executeRawUnsafe(
      `SELECT setval(pg_get_serial_sequence('md_holiday', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM md_holiday), 1))`,
    );
  }

  async analyze(): Promise<void> {
    // VACUUM cannot run in a transaction, and a dry run changed nothing to gather statistics on.
    if (this.tx) return;
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
