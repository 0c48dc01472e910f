import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { created } from '../audit.js';
import { parseCsv } from './csv.js';
import { ImportStorage, type ImportDatabase, type ImportStore } from './storage.js';
import { IMPORT_TABLES, type ImportTable } from './tables.js';

/** The sample country shipped with the platform (README lists its codes). */
export const SAMPLE_COUNTRY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'sample-country');

export interface RejectedRow {
  file: string;
  /** the line of the file (CSV), or the element's position from 1 (JSON) */
  line: number;
  reason: string;
}

export interface ImportReport {
  loaded: Record<string, number>;
  rejected: RejectedRow[];
}

type Progress = (message: string) => void;

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
export function importMasterdata(database: ImportDatabase, dir: string, by: string, now: Date, progress: Progress = () => undefined): Promise<ImportReport> {
  return loadMasterdata(new ImportStorage(database), dir, by, now, progress);
}

/**
 * Loads a country's master data from a folder of CSV or JSON files, table by
 * table in IMPORT_TABLES order. Each row is checked by its table's rules and
 * inserted on its own: a bad row is reported by file and line, and the rest
 * still load. Progress goes to `progress`.
 */
export async function loadMasterdata(store: ImportStore, dir: string, by: string, now: Date, progress: Progress = () => undefined): Promise<ImportReport> {
  if (!existsSync(dir)) throw new Error(`${dir}: no such folder`);
  const report: ImportReport = { loaded: {}, rejected: [] };
  for (const table of IMPORT_TABLES) {
    for (const file of filesFor(dir, table)) {
      const name = path.basename(file);
      const rows = rowsOf(path.join(dir, file));
      let loaded = 0;
      for (const { line, row } of rows) {
        const parsed = table.row.safeParse(row);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          report.rejected.push({ file: name, line, reason: `${issue.path.join('.') || 'row'}: ${issue.message}` });
          continue;
        }
        const data: Record<string, unknown> = { ...parsed.data, ...created(by, now) };
        // A holiday without an id takes the next one from the database.
        if (data.id === null) delete data.id;
        const refused = await store.insert(table.model, data);
        if (refused === null) loaded++;
        else report.rejected.push({ file: name, line, reason: refused });
      }
      report.loaded[table.file] = (report.loaded[table.file] ?? 0) + loaded;
      progress(`${name}: ${loaded} of ${rows.length} rows loaded`);
    }
  }
  // Holidays loaded with explicit ids: the id sequence continues after them.
  await store.continueHolidayIds();
  // Fresh statistics for the planner, and the trigram index's pending entries merged, as autovacuum would later.
  if (Object.values(report.loaded).some(Boolean)) await store.analyze();
  return report;
}
