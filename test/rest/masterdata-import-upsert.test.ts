import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import type { ImportReport } from '../../subgraphs/masterdata/import/loader.js';
import type { AdminContext, CommandIo } from '../../tools/admin/command.js';
import { masterdataImport } from '../../tools/admin/masterdata.js';
import { freshDatabase, type TestDatabase } from '../support/platform.js';

/*
 * `platform masterdata import <folder> [--dry-run]` run in process on a
 * PostgreSQL database: a country of 100,000 holidays with one malformed row
 * loads with progress, a second import of the same folder changes nothing,
 * a changed row is updated, and a dry run writes nothing.
 */

const HOLIDAYS = 100_000;
/** the file line of the malformed row (line 1 is the header) */
const BAD_LINE = 50_002;

let db: TestDatabase;
let dir: string;
const clock = new ManualClock(new Date('2026-06-01T08:00:00.000Z'));

/** Holiday i: ids shared by its two languages, as the sample country's translations share them; a name unique per place and day. */
function holidayLine(i: number, name = `Holiday ${i}`): string {
  const id = Math.floor(i / 2) + 1;
  const lang = i % 2 ? 'fra' : 'eng';
  const day = new Date(Date.UTC(2026, 0, 1) + (id % 3650) * 86_400_000).toISOString().slice(0, 10);
  return `${id},${lang},LOC${id % 500},${day},${name},Day ${i}`;
}

function writeCountry(change: (i: number) => string = (i) => holidayLine(i), extra: string[] = []): void {
  writeFileSync(path.join(dir, '01-languages.csv'), 'code,name\neng,English\nfra,French\n');
  const lines = ['id,langCode,locationCode,holidayDate,holidayName,holidayDesc'];
  for (let i = 0; i < HOLIDAYS; i++) lines.push(lines.length + 1 === BAD_LINE ? `${Math.floor(i / 2) + 1},eng,LOC1,31/12/2026,Broken,` : change(i));
  writeFileSync(path.join(dir, '11-holidays.csv'), [...lines, ...extra].join('\n') + '\n');
}

/** A command line that keeps what it is told: its lines, and each bar with its ticks. */
function recordingIo() {
  const lines: string[] = [];
  const bars: { label: string; total: number; ticks: number; done: boolean }[] = [];
  const io: CommandIo = {
    json: false,
    out: (line) => lines.push(line),
    progress: (label, total) => {
      const bar = { label, total, ticks: 0, done: false };
      bars.push(bar);
      return { tick: (count = 1) => void (bar.ticks += count), done: () => void (bar.done = true) };
    },
  };
  return { io, lines, bars };
}

async function runImport(dryRun = false) {
  const recorded = recordingIo();
  // No platform: the import needs the database, the clock and the account it acts as (an admin holding GLOBAL_ADMIN).
  const admin = { userId: 'admin', roles: ['GLOBAL_ADMIN'], isLocked: false };
  const context = {
    database: db.database,
    clock,
    actor: 'admin',
    deps: { services: { users: { user: () => Promise.resolve(admin) } } },
  } as unknown as AdminContext;
  const report = (await masterdataImport.run({ positionals: [dir], values: { 'dry-run': dryRun } }, recorded.io, () =>
    Promise.resolve(context),
  )) as ImportReport;
  return { report, ...recorded };
}

const holidaysOf = (report: ImportReport) => report.files.find((file) => file.table === 'holidays')!;

/** The table as one digest of every row (audit columns included), and the rows an update touched. */
async function tableState() {
  const [row] = await db.database.prisma.$queryRawUnsafe<{ digest: string; rows: bigint; touched: bigint; changed: Date }[]>(
    `SELECT md5(string_agg(h::text, '|' ORDER BY id, "langCode")) AS digest, count(*) AS rows,
            count("updatedAt") AS touched, max("changedAt") AS changed FROM md_holiday h`,
  );
  return { digest: row!.digest, rows: Number(row!.rows), touched: Number(row!.touched), changed: row!.changed };
}

beforeAll(async () => {
  db = await freshDatabase({ kind: 'postgres' });
  dir = mkdtempSync(path.join(tmpdir(), 'md-upsert-'));
  writeCountry();
});

afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('importing 100,000 holidays again and again', () => {
  it('loads all but the malformed row, reported with its file and line, with a progress bar per file', { timeout: 300_000 }, async () => {
    const { report, lines, bars } = await runImport();
    expect(report.rejected).toEqual([{ file: '11-holidays.csv', line: BAD_LINE, reason: 'holidayDate: must be yyyy-MM-dd' }]);
    expect(holidaysOf(report)).toEqual({
      file: '11-holidays.csv',
      table: 'holidays',
      rows: HOLIDAYS,
      inserted: HOLIDAYS - 1,
      updated: 0,
      unchanged: 0,
      rejected: 1,
    });
    expect(bars).toEqual([
      { label: '01-languages.csv', total: 2, ticks: 2, done: true },
      { label: '11-holidays.csv', total: HOLIDAYS, ticks: HOLIDAYS, done: true },
    ]);
    expect(lines).toContain(`rejected: 11-holidays.csv line ${BAD_LINE}: holidayDate: must be yyyy-MM-dd`);
    expect(lines.at(-1)).toBe(`inserted ${HOLIDAYS + 1}, updated 0, unchanged 0, rejected 1`);
    expect(await tableState()).toMatchObject({ rows: HOLIDAYS - 1, touched: 0 });
    // New holidays after the import take ids after the file's.
    const [sequence] = await db.database.prisma.$queryRawUnsafe<{ next: bigint }[]>(`SELECT nextval(pg_get_serial_sequence('md_holiday', 'id')) AS next`);
    expect(Number(sequence!.next)).toBe(HOLIDAYS / 2 + 1);
  });

  it('changes nothing the second time: every row unchanged, no audit column touched', { timeout: 300_000 }, async () => {
    const before = await tableState();
    clock.advance(60_000);
    const { report, lines } = await runImport();
    expect(holidaysOf(report)).toMatchObject({ inserted: 0, updated: 0, unchanged: HOLIDAYS - 1, rejected: 1 });
    expect(report.files[0]).toMatchObject({ table: 'languages', unchanged: 2, inserted: 0, updated: 0 });
    expect(lines.at(-1)).toBe(`inserted 0, updated 0, unchanged ${HOLIDAYS + 1}, rejected 1`);
    expect(await tableState()).toEqual(before);
  });

  it('updates a changed row, and only it', { timeout: 300_000 }, async () => {
    const before = await tableState();
    writeCountry((i) => holidayLine(i, i === 7 ? 'Renamed day' : `Holiday ${i}`));
    clock.advance(60_000);
    const { report } = await runImport();
    expect(holidaysOf(report)).toMatchObject({ inserted: 0, updated: 1, unchanged: HOLIDAYS - 2, rejected: 1 });
    const after = await tableState();
    expect(after).toMatchObject({ rows: before.rows, touched: 1, changed: clock.now() });
    const changed = await db.database.prisma.holiday.findMany({ where: { updatedAt: { not: null } } });
    expect(changed).toEqual([expect.objectContaining({ id: 4, langCode: 'fra', holidayName: 'Renamed day', updatedBy: 'admin', updatedAt: clock.now() })]);
  });

  it('--dry-run counts what an import would do and writes nothing', { timeout: 300_000 }, async () => {
    const before = await tableState();
    writeCountry((i) => holidayLine(i, i === 9 ? 'Another name' : i === 7 ? 'Renamed day' : `Holiday ${i}`), [`${HOLIDAYS},eng,LOC9,2030-01-01,Brand new,`]);
    clock.advance(60_000);
    const { report, lines } = await runImport(true);
    expect(report.dryRun).toBe(true);
    expect(holidaysOf(report)).toMatchObject({ rows: HOLIDAYS + 1, inserted: 1, updated: 1, unchanged: HOLIDAYS - 2, rejected: 1 });
    expect(lines.at(-1)).toBe(`dry run, nothing written: would have inserted 1, updated 1, unchanged ${HOLIDAYS}, rejected 1`);
    expect(await tableState()).toEqual(before);
  });
});
