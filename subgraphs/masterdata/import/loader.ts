import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv } from './csv.js';
import { ImportStorage, type ImportDatabase, type ImportStore, type UpsertStore } from './storage.js';
import { IMPORT_TABLES, keyColumns, type ImportTable } from './tables.js';
import { batchesOf, keyText, writeBatch, type Candidate } from './upsert.js';

/** The sample country shipped with the platform (README lists its codes). */
export const SAMPLE_COUNTRY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'sample-country');

export interface RejectedRow {
  file: string;
  /** the line of the file (CSV), or the element's position from 1 (JSON) */
  line: number;
  reason: string;
}

/** What became of one file's rows. */
export interface FileReport {
  file: string;
  /** the table's file name (IMPORT_TABLES' `file`) */
  table: string;
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

export interface ImportReport {
  /** per table: the rows now stored as their files say (inserted, updated or already so) */
  loaded: Record<string, number>;
  /** per file, in load order */
  files: FileReport[];
  rejected: RejectedRow[];
  /** true when nothing was written (the counts say what an import would do) */
  dryRun: boolean;
}

/** A file's progress as the command line draws it (its CommandIo.progress). */
export interface ImportProgress {
  tick(count?: number): void;
  done(): void;
}

export interface ImportOptions {
  /** validate and count everything in a transaction that is rolled back: nothing is written */
  dryRun?: boolean;
  /** a line per file when it is done ("<file>: <n> of <m> rows loaded") */
  log?: (message: string) => void;
  /** a file's rows as they are written: a bar per file */
  progress?: (label: string, total: number) => ImportProgress;
  /** rows read and written together (default 1,000) */
  batchSize?: number;
}

type Log = (message: string) => void;

const BATCH_SIZE = 1000;

/** The files of a folder that fill a table: `<nn->name.csv|json`. */
function filesFor(dir: string, table: ImportTable): string[] {
  return readdirSync(dir)
    .filter((file) => file.replace(/^\d+-/, '').replace(/\.(csv|json)$/, '') === table.file && /\.(csv|json)$/.test(file))
    .sort();
}

function rowsOf(file: string): { line: number; row: Record<string, unknown> }[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.csv')) return parseCsv(text);
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${path.basename(file)}: a JSON file holds an array of rows`);
  return parsed.map((row, index) => ({ line: index + 1, row: row as Record<string, unknown> }));
}

/** loadMasterdata into a database (a script's, a test's: the Prisma client it holds). */
export function importMasterdata(database: ImportDatabase, dir: string, by: string, now: Date, options: Log | ImportOptions = {}): Promise<ImportReport> {
  return loadMasterdata(new ImportStorage(database), dir, by, now, options);
}

/**
 * Loads a country's master data from a folder of CSV or JSON files, table by
 * table in IMPORT_TABLES order, in batches (upsert.ts): a row whose key is
 * there already is updated when it differs and left alone when it does not,
 * so importing a folder twice changes nothing the second time. A row its
 * table's rules or the database refuse is reported by file and line, and the
 * rest still load. With `dryRun` everything runs in a transaction that is
 * rolled back.
 */
export async function loadMasterdata(store: ImportStore, dir: string, by: string, now: Date, options: Log | ImportOptions = {}): Promise<ImportReport> {
  if (!existsSync(dir)) throw new Error(`${dir}: no such folder`);
  const settings: ImportOptions = typeof options === 'function' ? { log: options } : options;
  const batches = batchesOf(store);
  if (!settings.dryRun) return loadAll(batches, dir, by, now, settings);
  return batches.rehearse((inside) => loadAll(inside, dir, by, now, settings));
}

async function loadAll(store: UpsertStore, dir: string, by: string, now: Date, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { loaded: {}, files: [], rejected: [], dryRun: options.dryRun === true };
  for (const table of IMPORT_TABLES) {
    for (const file of filesFor(dir, table)) {
      const counts = await loadFile(store, table, path.join(dir, file), by, now, options, report.rejected);
      report.files.push(counts);
      const loaded = counts.inserted + counts.updated + counts.unchanged;
      report.loaded[table.file] = (report.loaded[table.file] ?? 0) + loaded;
      options.log?.(`${counts.file}: ${loaded} of ${counts.rows} rows loaded`);
    }
  }
  // Holidays loaded with explicit ids: the id sequence continues after them.
  await store.continueHolidayIds();
  // Fresh statistics for the planner, and the trigram index's pending entries merged, as autovacuum would later.
  if (report.files.some((file) => file.inserted + file.updated > 0)) await store.analyze();
  return report;
}

async function loadFile(
  store: UpsertStore,
  table: ImportTable,
  file: string,
  by: string,
  now: Date,
  options: ImportOptions,
  rejected: RejectedRow[],
): Promise<FileReport> {
  const name = path.basename(file);
  const rows = rowsOf(file);
  const counts: FileReport = { file: name, table: table.file, rows: rows.length, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
  const refused: RejectedRow[] = [];
  const reject = (line: number, reason: string) => {
    refused.push({ file: name, line, reason });
    counts.rejected++;
  };
  const progress = options.progress?.(name, rows.length);
  // A key a file gives twice: the second row is refused (which of the two the file means is not the import's guess).
  const seen = new Map<string, number>();
  const size = options.batchSize ?? BATCH_SIZE;
  for (let start = 0; start < rows.length; start += size) {
    const slice = rows.slice(start, start + size);
    const batch: Candidate[] = [];
    for (const { line, row } of slice) {
      const parsed = table.row.safeParse(row);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        reject(line, `${issue.path.join('.') || 'row'}: ${issue.message}`);
        continue;
      }
      const data: Record<string, unknown> = { ...parsed.data };
      // A holiday without an id takes the next one from the database.
      if (data.id === null) delete data.id;
      const key = keyText(keyColumns(table, data), data);
      const first = seen.get(key);
      if (first !== undefined) {
        reject(line, `the same key as line ${first}`);
        continue;
      }
      seen.set(key, line);
      batch.push({ line, data });
    }
    const outcome = batch.length ? await writeBatch(store, table, batch, by, now) : { inserted: 0, updated: 0, unchanged: 0, refused: [] };
    counts.inserted += outcome.inserted;
    counts.updated += outcome.updated;
    counts.unchanged += outcome.unchanged;
    for (const { line, reason } of outcome.refused) reject(line, reason);
    progress?.tick(slice.length);
  }
  progress?.done();
  // Reported in the file's order, whether the rules or the database refused a row.
  rejected.push(...refused.sort((a, b) => a.line - b.line));
  return counts;
}
