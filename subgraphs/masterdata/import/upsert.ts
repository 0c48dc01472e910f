import { created, updated } from '../audit.js';
import type { ImportStore, UpsertStore } from './storage.js';
import { keyColumns, type ImportTable } from './tables.js';

type Row = Record<string, unknown>;

/** A row of a file its table's rules accepted, where it came from. */
export interface Candidate {
  line: number;
  data: Row;
}

/** What happened to the rows of one batch. */
export interface BatchOutcome {
  inserted: number;
  updated: number;
  unchanged: number;
  /** the rows the database refused, with why */
  refused: { line: number; reason: string }[];
}

/** A value as a key or a comparison sees it: dates by their instant, JSON with its keys in order (jsonb reorders them). */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Row)[key])]),
    );
  return value;
}

/** The text a row's key is known by in a batch: its key columns' values. */
export function keyText(columns: readonly string[], row: Row): string {
  return JSON.stringify([columns, ...columns.map((column) => canonical(row[column]))]);
}

/** The key of a row as a query finds it: column → value. */
export function keyOf(columns: readonly string[], row: Row): Row {
  return Object.fromEntries(columns.map((column) => [column, row[column]]));
}

/**
 * Whether the stored row already says what the file says: every column the
 * file gives, equal, and the row live. A row deleted since is brought back by
 * the import (the file is what the country's tables hold).
 */
export function sameRow(stored: Row, wanted: Row): boolean {
  if (stored.isDeleted === true) return false;
  return Object.keys(wanted).every((column) => JSON.stringify(canonical(stored[column])) === JSON.stringify(canonical(wanted[column])));
}

/** A store that writes one row at a time and finds nothing: a start's load over a plain ImportStore (nothing there yet). */
function rowByRow(store: ImportStore): UpsertStore {
  return {
    insert: (model, data) => store.insert(model, data),
    continueHolidayIds: () => store.continueHolidayIds(),
    analyze: () => store.analyze(),
    findByKeys: () => Promise.resolve([]),
    // Refused as a batch: each row then goes in on its own, and a refusal names its line.
    insertMany: () => Promise.resolve('one row at a time'),
    update: () => Promise.resolve('this store cannot update'),
    updateAll: () => Promise.resolve('this store cannot update'),
    rehearse: () => Promise.reject(new Error('a dry run needs the database')),
  };
}

/** The store in batches: a database's, or a plain one row by row. */
export function batchesOf(store: ImportStore): UpsertStore {
  return 'findByKeys' in store ? (store as UpsertStore) : rowByRow(store);
}

/**
 * One batch of a file's accepted rows, written in a few statements: the rows
 * already there found in one query (per kind of key), new rows inserted in
 * one statement, changed rows updated together, equal ones left untouched
 * (their updatedAt, updatedBy and changedAt stay: sync data sees no change).
 * A statement the database refuses is tried again row by row, so that only
 * the rows at fault are reported, by line.
 */
export async function writeBatch(store: UpsertStore, table: ImportTable, batch: Candidate[], by: string, now: Date): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { inserted: 0, updated: 0, unchanged: 0, refused: [] };
  const byColumns = new Map<string, { columns: readonly string[]; rows: Candidate[] }>();
  for (const candidate of batch) {
    const columns = keyColumns(table, candidate.data);
    const group = byColumns.get(columns.join()) ?? { columns, rows: [] };
    group.rows.push(candidate);
    byColumns.set(columns.join(), group);
  }
  const inserts: Candidate[] = [];
  const updates: (Candidate & { key: Row })[] = [];
  for (const { columns, rows } of byColumns.values()) {
    const stored = await store.findByKeys(
      table.model,
      rows.map((row) => keyOf(columns, row.data)),
    );
    const found = new Map(stored.map((row) => [keyText(columns, row), row]));
    for (const candidate of rows) {
      const twin = found.get(keyText(columns, candidate.data));
      if (!twin) inserts.push(candidate);
      else if (sameRow(twin, candidate.data)) outcome.unchanged++;
      else updates.push({ ...candidate, key: keyOf(columns, candidate.data) });
    }
  }
  if (inserts.length) {
    const rows = inserts.map(({ data }) => ({ ...data, ...created(by, now) }));
    if ((await store.insertMany(table.model, rows)) === null) outcome.inserted += inserts.length;
    else
      for (const [index, { line }] of inserts.entries()) {
        const refused = await store.insert(table.model, rows[index]!);
        if (refused === null) outcome.inserted++;
        else outcome.refused.push({ line, reason: refused });
      }
  }
  if (updates.length) {
    const changes = updates.map(({ key, data }) => ({ key, data: { ...data, ...updated(by, now), isDeleted: false, deletedAt: null } }));
    if ((await store.updateAll(table.model, changes)) === null) outcome.updated += updates.length;
    else
      for (const [index, { line }] of updates.entries()) {
        const refused = await store.update(table.model, changes[index]!.key, changes[index]!.data);
        if (refused === null) outcome.updated++;
        else outcome.refused.push({ line, reason: refused });
      }
  }
  outcome.refused.sort((a, b) => a.line - b.line);
  return outcome;
}
