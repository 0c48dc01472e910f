import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMasterdata, SAMPLE_COUNTRY_DIR, type ImportReport } from '../../subgraphs/masterdata/import/loader.js';
import type { ImportStore, UpsertStore } from '../../subgraphs/masterdata/import/storage.js';
import { sameRow } from '../../subgraphs/masterdata/import/upsert.js';

/*
 * The import's rules (import/loader.ts, import/upsert.ts, import/tables.ts)
 * over in-memory stores: each row checked by its table's rules, a refused row
 * reported by file and line, the others loaded; on a store of batches, a row
 * already there updated when it differs and left alone when it does not.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');

/** The tables in memory: rows by model; a key refused a second time, as the database's keys refuse it. */
class MemoryImport implements ImportStore {
  readonly rows: [string, Record<string, unknown>][] = [];
  readonly calls: string[] = [];
  constructor(private readonly keyOf: (model: string, data: Record<string, unknown>) => string = (model, data) => `${model}:${JSON.stringify(data)}`) {}
  insert(model: Parameters<ImportStore['insert']>[0], data: Record<string, unknown>) {
    const key = this.keyOf(model, data);
    if (this.rows.some(([other, row]) => this.keyOf(other, row) === key)) return Promise.resolve('a row with this key already exists');
    this.rows.push([model, data]);
    return Promise.resolve(null);
  }
  continueHolidayIds() {
    this.calls.push('continueHolidayIds');
    return Promise.resolve();
  }
  analyze() {
    this.calls.push('analyze');
    return Promise.resolve();
  }
  of(model: string) {
    return this.rows.filter(([other]) => other === model).map(([, row]) => row);
  }
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
/** A language's key: its code. */
const byCode = (model: string, data: Record<string, unknown>) => `${model}:${text(data.code)}`;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'md-import-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('loading a country from files', () => {
  it('loads table by table in load order (not the files’ order), with who and when on every row, and reports progress', async () => {
    const dir = folder({
      'locations.csv': 'code,langCode,name,hierarchyLevel,hierarchyName,parentCode,isActive\nMOR,eng,Morocco,0,Country,,true\n',
      '9-languages.json': JSON.stringify([{ code: 'eng', name: 'English' }]),
    });
    const store = new MemoryImport();
    const messages: string[] = [];
    const report = await loadMasterdata(store, dir, 'operator', NOW, (message) => messages.push(message));
    expect(report).toMatchObject({ loaded: { languages: 1, locations: 1 }, rejected: [], dryRun: false });
    expect(report.files.map(({ file, inserted, rows }) => [file, inserted, rows])).toEqual([
      ['9-languages.json', 1, 1],
      ['locations.csv', 1, 1],
    ]);
    expect(store.rows.map(([model]) => model)).toEqual(['language', 'location']);
    expect(store.of('language')[0]).toMatchObject({ code: 'eng', isActive: true, family: null, createdBy: 'operator', createdAt: NOW, isDeleted: false });
    expect(store.of('location')[0]).toMatchObject({ hierarchyLevel: 0, parentCode: null, isActive: true });
    expect(messages).toEqual(['9-languages.json: 1 of 1 rows loaded', 'locations.csv: 1 of 1 rows loaded']);
    expect(store.calls).toEqual(['continueHolidayIds', 'analyze']);
  });

  it('refuses a row its table’s rules refuse, by file and line, naming the column; the rest still load', async () => {
    const dir = folder({
      '01-languages.csv': 'code,name,isActive\neng,English,true\nfr,French,true\n"ara","Arabic\nالعربية",TRUE\n',
      '11-holidays.csv':
        'id,langCode,locationCode,holidayDate,holidayName,holidayDesc,isActive\n' +
        '1,eng,KTA,2026-01-01,New Year,,true\n' +
        ',eng,KTA,01/05/2026,Labour Day,,true\n' +
        'x,eng,KTA,2026-05-01,Labour Day,,true\n' +
        ',eng,KTA,2026-05-01,Labour Day,,false\n',
      '19-id-schemas.json': JSON.stringify([
        {
          title: 'T',
          description: 'D',
          schemaVersion: 1,
          status: 'PUBLISHED',
          idVersion: 1,
          effectiveFrom: '2026-01-01T00:00:00.000Z',
          schema: [{ id: '1x', type: 'string' }],
        },
      ]),
    });
    const store = new MemoryImport();
    const report = await loadMasterdata(store, dir, 'operator', NOW);
    expect(report.loaded).toEqual({ languages: 2, holidays: 2, 'id-schemas': 0 });
    expect(report.rejected.map(({ file, line }) => [file, line])).toEqual([
      ['01-languages.csv', 3],
      ['11-holidays.csv', 3],
      ['11-holidays.csv', 4],
      ['19-id-schemas.json', 1],
    ]);
    expect(report.rejected[0]!.reason).toMatch(/^code: /);
    expect(report.rejected[1]!.reason).toBe('holidayDate: must be yyyy-MM-dd');
    expect(report.rejected[2]!.reason).toBe('id: must be a whole number');
    expect(report.rejected[3]!.reason).toBe('schema.0.id: a field id is a letter then letters, digits or _');
    // A quoted cell may hold a line break; a holiday without an id leaves it to the database's sequence.
    expect(store.of('language').map((row) => row.name)).toEqual(['English', 'Arabic\nالعربية']);
    expect(store.of('holiday').map((row) => [row.id, row.isActive])).toEqual([
      [1, true],
      [undefined, false],
    ]);
    expect('id' in store.of('holiday')[1]!).toBe(false);
  });

  it('refuses a key the file gives twice, and reports what the tables refuse with the storage’s reason; the rows after still load', async () => {
    const dir = folder({ 'languages.csv': 'code,name\neng,English\neng,English again\nfra,French\n' });
    const store = new MemoryImport(byCode);
    const report = await loadMasterdata(store, dir, 'operator', NOW);
    expect(report.loaded).toEqual({ languages: 2 });
    expect(report.rejected).toEqual([{ file: 'languages.csv', line: 3, reason: 'the same key as line 2' }]);
    // What the file does not repeat, the store refuses (a key there before this import, on a store that writes row by row).
    const again = await loadMasterdata(store, folder({ 'languages.csv': 'code,name\neng,English\n' }), 'operator', NOW);
    expect(again.rejected).toEqual([{ file: 'languages.csv', line: 2, reason: 'a row with this key already exists' }]);
  });

  it('refuses a JSON file that is not a list of rows, and a folder that is not there', async () => {
    const store = new MemoryImport();
    await expect(loadMasterdata(store, folder({ 'languages.json': '{"code":"eng"}' }), 'operator', NOW)).rejects.toThrow(
      'languages.json: a JSON file holds an array of rows',
    );
    await expect(loadMasterdata(store, path.join(tmpdir(), 'no-such-folder-md'), 'operator', NOW)).rejects.toThrow('no such folder');
  });

  it('skips the statistics when nothing loaded, but always continues the holiday ids', async () => {
    const store = new MemoryImport();
    const report = await loadMasterdata(store, folder({ 'languages.csv': 'code,name\nxx,Nothing\n', 'notes.txt': 'not a table' }), 'operator', NOW);
    expect(report.loaded).toEqual({ languages: 0 });
    expect(store.calls).toEqual(['continueHolidayIds']);
  });

  it('loads the whole sample country with no row refused', async () => {
    const store = new MemoryImport();
    const report = await loadMasterdata(store, SAMPLE_COUNTRY_DIR, 'sample-data', NOW);
    expect(report.rejected).toEqual([]);
    expect(report.loaded).toMatchObject({ languages: 3, 'id-schemas': 1 });
    expect(Object.keys(report.loaded)).toHaveLength(19);
  });
});

type Row = Record<string, unknown>;
const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);

/** The tables in memory as batches reach them: every statement recorded; a row with code BAD refused (as a missing parent would be). */
class MemoryUpsert implements UpsertStore {
  tables = new Map<string, Row[]>();
  readonly statements: string[] = [];
  readonly calls: string[] = [];

  of(model: string): Row[] {
    if (!this.tables.has(model)) this.tables.set(model, []);
    return this.tables.get(model)!;
  }
  private add(model: string, row: Row) {
    const rows = this.of(model);
    rows.push(model === 'holiday' && row.id === undefined ? { ...row, id: rows.reduce((max, other) => Math.max(max, Number(other.id)), 0) + 1 } : { ...row });
  }
  findByKeys(model: Parameters<UpsertStore['findByKeys']>[0], keys: Row[]) {
    this.statements.push(`find ${model} ${keys.length}`);
    return Promise.resolve(this.of(model).filter((row) => keys.some((key) => Object.entries(key).every(([column, value]) => same(row[column], value)))));
  }
  insertMany(model: Parameters<UpsertStore['insertMany']>[0], rows: Row[]) {
    this.statements.push(`insertMany ${model} ${rows.length}`);
    if (rows.some((row) => row.code === 'BAD')) return Promise.resolve('refers to a row that does not exist');
    for (const row of rows) this.add(model, row);
    return Promise.resolve(null);
  }
  insert(model: Parameters<UpsertStore['insert']>[0], row: Row) {
    this.statements.push(`insert ${model}`);
    if (row.code === 'BAD') return Promise.resolve('refers to a row that does not exist');
    this.add(model, row);
    return Promise.resolve(null);
  }
  update(model: Parameters<UpsertStore['update']>[0], key: Row, data: Row) {
    this.statements.push(`update ${model}`);
    for (const row of this.of(model)) if (Object.entries(key).every(([column, value]) => same(row[column], value))) Object.assign(row, data);
    return Promise.resolve(null);
  }
  async updateAll(model: Parameters<UpsertStore['updateAll']>[0], changes: { key: Row; data: Row }[]) {
    for (const { key, data } of changes) await this.update(model, key, data);
    return null;
  }
  async rehearse<T>(work: (store: UpsertStore) => Promise<T>): Promise<T> {
    const kept = new Map([...this.tables].map(([model, rows]) => [model, rows.map((row) => ({ ...row }))]));
    this.calls.push('rehearse');
    try {
      return await work(this);
    } finally {
      this.tables = kept;
    }
  }
  continueHolidayIds() {
    this.calls.push('continueHolidayIds');
    return Promise.resolve();
  }
  analyze() {
    this.calls.push('analyze');
    return Promise.resolve();
  }
}

const counts = (report: ImportReport) =>
  report.files.map(({ file, inserted, updated, unchanged, rejected }) => ({ file, inserted, updated, unchanged, rejected }));
const LANGUAGES = 'code,name\neng,English\nfra,French\nara,Arabic\n';
const HOLIDAYS = 'id,langCode,locationCode,holidayDate,holidayName,holidayDesc\n1,eng,KTA,2026-01-01,New Year,\n,eng,KTA,2026-05-01,Labour Day,Workers\n';

describe('importing a folder again (upsert)', () => {
  it('changes nothing the second time: every row unchanged, no write at all', async () => {
    const store = new MemoryUpsert();
    const dir = folder({ '01-languages.csv': LANGUAGES, '11-holidays.csv': HOLIDAYS });
    const first = await loadMasterdata(store, dir, 'operator', NOW);
    expect(counts(first)).toEqual([
      { file: '01-languages.csv', inserted: 3, updated: 0, unchanged: 0, rejected: 0 },
      { file: '11-holidays.csv', inserted: 2, updated: 0, unchanged: 0, rejected: 0 },
    ]);
    const rows = JSON.stringify([...store.tables]);
    store.statements.length = 0;
    const second = await loadMasterdata(store, dir, 'operator', new Date(NOW.getTime() + 60_000));
    expect(counts(second)).toEqual([
      { file: '01-languages.csv', inserted: 0, updated: 0, unchanged: 3, rejected: 0 },
      { file: '11-holidays.csv', inserted: 0, updated: 0, unchanged: 2, rejected: 0 },
    ]);
    expect(second.loaded).toEqual({ languages: 3, holidays: 2 });
    // Only look-ups: the holiday with an id by its id, the one without by its place, day and name.
    expect(store.statements).toEqual(['find language 3', 'find holiday 1', 'find holiday 1']);
    expect(JSON.stringify([...store.tables])).toBe(rows);
    // Nothing written, no statistics to refresh.
    expect(store.calls).toEqual(['continueHolidayIds', 'analyze', 'continueHolidayIds']);
  });

  it('updates a row that differs (who and when), keeps when it was made, and brings a deleted row back', async () => {
    const store = new MemoryUpsert();
    await loadMasterdata(store, folder({ 'languages.csv': LANGUAGES }), 'operator', NOW);
    store.of('language').find((row) => row.code === 'ara')!.isDeleted = true;
    const later = new Date(NOW.getTime() + 3_600_000);
    const report = await loadMasterdata(store, folder({ 'languages.csv': 'code,name\neng,English\nfra,Français\nara,Arabic\n' }), 'admin', later);
    expect(counts(report)).toEqual([{ file: 'languages.csv', inserted: 0, updated: 2, unchanged: 1, rejected: 0 }]);
    const [eng, fra, ara] = store.of('language');
    expect(eng).not.toHaveProperty('updatedBy');
    expect(eng!.changedAt).toEqual(NOW);
    expect(fra).toMatchObject({ name: 'Français', createdBy: 'operator', createdAt: NOW, updatedBy: 'admin', updatedAt: later, changedAt: later });
    expect(ara).toMatchObject({ isDeleted: false, deletedAt: null, updatedAt: later });
  });

  it('writes in batches: one look-up and one insert per batch, progress per batch, a refused batch retried row by row', async () => {
    const store = new MemoryUpsert();
    const dir = folder({
      'locations.csv':
        'code,langCode,name,hierarchyLevel,hierarchyName\nA,eng,A,0,Country\nB,eng,B,1,Region\nBAD,eng,Bad,1,Region\nC,eng,C,1,Region\nD,eng,D,1,Region\n',
    });
    const ticks: number[] = [];
    let done = 0;
    const report = await loadMasterdata(store, dir, 'operator', NOW, {
      batchSize: 2,
      progress: (label, total) => {
        expect([label, total]).toEqual(['locations.csv', 5]);
        return { tick: (count = 1) => void ticks.push(count), done: () => void done++ };
      },
    });
    expect(ticks).toEqual([2, 2, 1]);
    expect(done).toBe(1);
    expect(report.rejected).toEqual([{ file: 'locations.csv', line: 4, reason: 'refers to a row that does not exist' }]);
    expect(counts(report)).toEqual([{ file: 'locations.csv', inserted: 4, updated: 0, unchanged: 0, rejected: 1 }]);
    expect(store.statements).toEqual([
      'find location 2',
      'insertMany location 2',
      'find location 2',
      'insertMany location 2',
      'insert location',
      'insert location',
      'find location 1',
      'insertMany location 1',
    ]);
  });

  it('--dry-run counts what an import would do and leaves the tables as they were', async () => {
    const store = new MemoryUpsert();
    await loadMasterdata(store, folder({ 'languages.csv': 'code,name\neng,English\n' }), 'operator', NOW);
    const before = JSON.stringify([...store.tables]);
    const logged: string[] = [];
    const report = await loadMasterdata(store, folder({ 'languages.csv': 'code,name\neng,Anglais\nfra,French\nx,Bad\n' }), 'operator', NOW, {
      dryRun: true,
      log: (line) => logged.push(line),
    });
    expect(report.dryRun).toBe(true);
    expect(counts(report)).toEqual([{ file: 'languages.csv', inserted: 1, updated: 1, unchanged: 0, rejected: 1 }]);
    expect(logged).toEqual(['languages.csv: 2 of 3 rows loaded']);
    expect(store.calls.filter((call) => call === 'rehearse')).toHaveLength(1);
    expect(JSON.stringify([...store.tables])).toBe(before);
  });

  it('needs a store of batches for a dry run', async () => {
    await expect(loadMasterdata(new MemoryImport(), folder({ 'languages.csv': LANGUAGES }), 'operator', NOW, { dryRun: true })).rejects.toThrow(
      'a dry run needs the database',
    );
  });

  it('compares a stored row by its values: dates by their instant, JSON whatever its keys’ order, a deleted row never equal', () => {
    const stored = { day: new Date('2026-01-01T00:00:00.000Z'), schema: { b: 1, a: [{ y: 2, x: 1 }] }, name: 'x', isDeleted: false, createdAt: NOW };
    expect(sameRow(stored, { day: new Date('2026-01-01T00:00:00.000Z'), schema: { a: [{ x: 1, y: 2 }], b: 1 }, name: 'x' })).toBe(true);
    expect(sameRow(stored, { day: new Date('2026-01-02T00:00:00.000Z') })).toBe(false);
    expect(sameRow(stored, { schema: { a: [{ x: 1, y: 3 }], b: 1 } })).toBe(false);
    expect(sameRow(stored, { name: 'x', description: null })).toBe(true);
    expect(sameRow({ ...stored, isDeleted: true }, { name: 'x' })).toBe(false);
  });
});
