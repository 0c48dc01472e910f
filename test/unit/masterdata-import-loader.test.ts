import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMasterdata, SAMPLE_COUNTRY_DIR } from '../../subgraphs/masterdata/import/loader.js';
import type { ImportStore } from '../../subgraphs/masterdata/import/storage.js';

/*
 * The import's per-row rules (import/loader.ts, import/tables.ts) over an
 * in-memory store: each row checked by its table's rules and written on its
 * own, a refused row reported by file and line, the others loaded.
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
    expect(report).toEqual({ loaded: { languages: 1, locations: 1 }, rejected: [] });
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

  it('reports what the tables refuse (a key taken) with the storage’s reason, and the rows after it still load', async () => {
    const dir = folder({ 'languages.csv': 'code,name\neng,English\neng,English again\nfra,French\n' });
    const store = new MemoryImport(byCode);
    const report = await loadMasterdata(store, dir, 'operator', NOW);
    expect(report).toEqual({ loaded: { languages: 2 }, rejected: [{ file: 'languages.csv', line: 3, reason: 'a row with this key already exists' }] });
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
