import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import { LOCATION_DEPTH, LocationService } from '../../subgraphs/masterdata/holidays/locations-service.js';
import { dayOf, holidayDates, type HolidayRow, type LocationRow } from '../../subgraphs/masterdata/holidays/rows.js';
import { HolidayService } from '../../subgraphs/masterdata/holidays/service.js';
import type { HolidayStore, LocationStore } from '../../subgraphs/masterdata/holidays/storage.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';

/*
 * The holiday and location rules of holidays/service.ts and
 * locations-service.ts over in-memory tables: no database. The fakes keep the
 * storage's contract (holidays/storage.ts): (location, date, name, language)
 * and (id, language) are unique over every row, deleted ones included, as the
 * database's keys are.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const day = (text: string) => new Date(`${text}T00:00:00.000Z`);
const rejectsWith = (promise: Promise<unknown>, code: string, message?: string) =>
  expect(promise).rejects.toMatchObject({ code, ...(message ? { message } : {}) });
const notFaked = (name: string) => () => Promise.reject(new Error(`not faked: ${name}`));

const stamped = { createdBy: 'seed', createdAt: NOW, updatedBy: null, updatedAt: null, isDeleted: false, deletedAt: null, changedAt: NOW };

const holidayRow = (row: Partial<HolidayRow> & Pick<HolidayRow, 'id' | 'langCode' | 'holidayName'>): HolidayRow => ({
  locationCode: 'KTA',
  holidayDate: day('2026-01-01'),
  holidayDesc: 'a holiday',
  isActive: true,
  ...stamped,
  ...row,
});

const locationRow = (row: Partial<LocationRow> & Pick<LocationRow, 'code' | 'hierarchyLevel'>): LocationRow => ({
  langCode: 'eng',
  name: row.code,
  hierarchyName: `level ${row.hierarchyLevel}`,
  parentCode: null,
  isActive: true,
  ...stamped,
  ...row,
});

const sameKey = (a: HolidayRow, b: Pick<HolidayRow, 'locationCode' | 'holidayDate' | 'holidayName' | 'langCode'>) =>
  a.locationCode === b.locationCode && a.holidayDate.getTime() === b.holidayDate.getTime() && a.holidayName === b.holidayName && a.langCode === b.langCode;

/** The holidays' table in memory. */
class MemoryHolidays implements HolidayStore {
  private nextId: number;
  constructor(readonly rows: HolidayRow[] = []) {
    this.nextId = Math.max(0, ...rows.map((row) => row.id)) + 1;
  }

  anyOfId(id: number) {
    return Promise.resolve(this.rows.find((row) => row.id === id) ?? null);
  }
  translationOf(locationCode: string, holidayDate: Date, langCode: string) {
    const found = this.rows.find(
      (row) => !row.isDeleted && row.locationCode === locationCode && row.holidayDate.getTime() === holidayDate.getTime() && row.langCode !== langCode,
    );
    return Promise.resolve(found ?? null);
  }
  revive(key: Parameters<HolidayStore['revive']>[0], values: Parameters<HolidayStore['revive']>[1]) {
    const row = this.rows.find((candidate) => candidate.isDeleted && sameKey(candidate, key));
    return Promise.resolve(row ? Object.assign(row, values) : null);
  }
  insert(values: Parameters<HolidayStore['insert']>[0]) {
    const row: HolidayRow = { ...values, id: values.id ?? this.nextId++, updatedBy: null, updatedAt: null };
    if (this.rows.some((other) => sameKey(other, row) || (other.id === row.id && other.langCode === row.langCode))) return Promise.resolve(null);
    this.rows.push(row);
    return Promise.resolve(row);
  }
  change(id: number, match: Parameters<HolidayStore['change']>[1], changes: Parameters<HolidayStore['change']>[2]) {
    const row = this.rows.find((candidate) => !candidate.isDeleted && candidate.id === id && sameKey(candidate, match));
    if (!row) return Promise.resolve(0);
    if (this.rows.some((other) => other !== row && sameKey(other, { ...row, ...changes }))) return Promise.resolve(null);
    Object.assign(row, changes);
    return Promise.resolve(1);
  }
  rowOf(id: number, langCode: string) {
    const row = this.rows.find((candidate) => candidate.id === id && candidate.langCode === langCode);
    return row ? Promise.resolve(row) : Promise.reject(new Error('no such row'));
  }
  remove(key: Parameters<HolidayStore['remove']>[0], stamp: Parameters<HolidayStore['remove']>[1]) {
    const rows = this.rows.filter(
      (row) =>
        !row.isDeleted &&
        row.locationCode === key.locationCode &&
        row.holidayDate.getTime() === key.holidayDate.getTime() &&
        row.holidayName === key.holidayName,
    );
    for (const row of rows) Object.assign(row, stamp);
    return Promise.resolve(rows.length);
  }
  all(take: number) {
    return Promise.resolve(this.live().slice(0, take));
  }
  ofId(id: number, langCode: string | null | undefined, take: number) {
    const rows = this.live().filter((row) => row.id === id && (!langCode || row.langCode === langCode));
    return Promise.resolve(rows.sort((a, b) => a.langCode.localeCompare(b.langCode)).slice(0, take));
  }
  private live() {
    return this.rows.filter((row) => !row.isDeleted);
  }
  page = notFaked('page');
  countLive = notFaked('countLive');
  search = notFaked('search');
  countSearch = notFaked('countSearch');
  columnValues = notFaked('columnValues');
  list = notFaked('list');
  byKeys = notFaked('byKeys');
}

/** The locations' table in memory. */
class MemoryLocations implements LocationStore {
  constructor(readonly rows: LocationRow[] = []) {}

  anyLive(code: string) {
    return Promise.resolve(this.rows.find((row) => !row.isDeleted && row.code === code) ?? null);
  }
  async exists(code: string) {
    return (await this.anyLive(code)) !== null;
  }
  rowOf(code: string, langCode: string) {
    return Promise.resolve(this.rows.find((row) => row.code === code && row.langCode === langCode) ?? null);
  }
  save(code: string, langCode: string, values: Parameters<LocationStore['save']>[2]) {
    const existing = this.rows.find((row) => row.code === code && row.langCode === langCode);
    if (existing) return Promise.resolve(Object.assign(existing, values));
    const row: LocationRow = { code, langCode, ...values, updatedBy: null, updatedAt: null };
    this.rows.push(row);
    return Promise.resolve(row);
  }
  liveRow(code: string, langCode: string) {
    return Promise.resolve(this.rows.find((row) => !row.isDeleted && row.code === code && row.langCode === langCode) ?? null);
  }
  ofLanguage = notFaked('ofLanguage');
  children(code: string, langCode: string, take: number) {
    return Promise.resolve(this.rows.filter((row) => !row.isDeleted && row.parentCode === code && row.langCode === langCode).slice(0, take));
  }
  list = notFaked('list');
  byKeys = notFaked('byKeys');
}

/** A country MOR > region RSK > city KTA, holiday 1 (New Year at KTA) in eng and fra. */
function world(seed: { holidays?: HolidayRow[]; locations?: LocationRow[] } = {}) {
  const locationTable = new MemoryLocations(
    seed.locations ?? [
      locationRow({ code: 'MOR', hierarchyLevel: 0 }),
      locationRow({ code: 'RSK', hierarchyLevel: 1, parentCode: 'MOR' }),
      locationRow({ code: 'KTA', hierarchyLevel: 2, parentCode: 'RSK' }),
    ],
  );
  const holidayTable = new MemoryHolidays(
    seed.holidays ?? [holidayRow({ id: 1, langCode: 'eng', holidayName: 'New Year' }), holidayRow({ id: 1, langCode: 'fra', holidayName: 'Nouvel An' })],
  );
  const clock = new ManualClock(NOW);
  const locations = new LocationService(locationTable, clock);
  return { holidays: new HolidayService(holidayTable, clock, locations), locations, holidayTable, locationTable, clock };
}

const newHoliday = { locationCode: 'KTA', holidayDate: '2026-05-01', holidayName: 'Labour Day', holidayDesc: 'workers', langCode: 'eng', isActive: true };

describe('holidays: dates', () => {
  it('are yyyy-MM-dd and real days; each operation refuses others with its own code', async () => {
    const { holidays, holidayTable } = world();
    const before = structuredClone(holidayTable.rows);
    await rejectsWith(
      holidays.create('admin', { ...newHoliday, holidayDate: '2026-02-30' }),
      'KER-MSD-065',
      'Error while inserting holiday: 2026-02-30 is not a date (yyyy-MM-dd)',
    );
    await rejectsWith(holidays.create('admin', { ...newHoliday, holidayDate: '1/5/2026' }), 'KER-MSD-065');
    const update = { id: 1, ...newHoliday, holidayDate: '2026-01-01', holidayName: 'New Year', newHolidayName: 'New Year', newHolidayDesc: 'x' };
    await rejectsWith(holidays.update('admin', { ...update, newHolidayDate: '2026-13-01' }), 'KER-MSD-099');
    await rejectsWith(holidays.delete('admin', { locationCode: 'KTA', holidayName: 'New Year', holidayDate: '2026-1-1' }), 'KER-MSD-100');
    expect(holidayTable.rows).toEqual(before);
  });

  it('of a list filter are read before any row (KER-MSD-019), from and to included', () => {
    expect(holidayDates({ from: '2026-01-01', to: '2026-12-31' })).toEqual({ from: day('2026-01-01'), to: day('2026-12-31') });
    expect(holidayDates({})).toEqual({});
    expect(() => holidayDates({ to: '2026-02-29' })).toThrow(expect.objectContaining({ code: 'KER-MSD-019' }));
    expect(dayOf('2028-02-29', masterdataErrors.holidayFetch)).toBe('2028-02-29');
  });

  it('refuses a list whose filter has a wrong date before reading (the store is never asked)', () => {
    const { holidays } = world();
    expect(() => holidays.list({ first: 10 }, { from: 'yesterday' })).toThrow(expect.objectContaining({ code: 'KER-MSD-019' }));
  });
});

describe('holidays: added by location, date, name and language', () => {
  it('needs a live location (KER-MSD-026)', async () => {
    const { holidays, holidayTable } = world();
    await rejectsWith(holidays.create('admin', { ...newHoliday, locationCode: 'NOWHERE' }), 'KER-MSD-026', 'Location not found: NOWHERE');
    expect(holidayTable.rows).toHaveLength(2);
  });

  it('gives a new holiday the next id, and a translation the id of the holiday at that place and date', async () => {
    const { holidays } = world();
    const labour = await holidays.create('admin', newHoliday);
    expect(labour).toMatchObject({ id: 2, holidayDate: day('2026-05-01'), createdBy: 'admin', createdAt: NOW, isDeleted: false, updatedBy: null });
    const fra = await holidays.create('admin', { ...newHoliday, holidayName: 'Fête du Travail', langCode: 'fra' });
    expect(fra.id).toBe(2);
    const ara = await holidays.create('admin', { ...newHoliday, id: 1, holidayDate: '2026-01-01', holidayName: 'رأس السنة', langCode: 'ara' });
    expect(ara.id).toBe(1);
  });

  it('refuses a translation of an unknown id (KER-MSD-020) and a live namesake (KER-MSD-065)', async () => {
    const { holidays, holidayTable } = world();
    await rejectsWith(holidays.create('admin', { ...newHoliday, id: 99 }), 'KER-MSD-020', 'Holiday not found');
    await rejectsWith(
      holidays.create('admin', { ...newHoliday, holidayDate: '2026-01-01', holidayName: 'New Year' }),
      'KER-MSD-065',
      'Error while inserting holiday: New Year on 2026-01-01 at KTA (eng) already exists',
    );
    // A second row of id 1 in English, under another name: the (id, language) key refuses it too.
    await rejectsWith(holidays.create('admin', { ...newHoliday, id: 1, holidayName: 'Another' }), 'KER-MSD-065');
    expect(holidayTable.rows).toHaveLength(2);
  });

  it('brings back a deleted namesake, as new (its creator and time, no update)', async () => {
    const { holidays, holidayTable, clock } = world({
      holidays: [
        holidayRow({
          id: 7,
          langCode: 'eng',
          holidayName: 'Labour Day',
          holidayDate: day('2026-05-01'),
          isDeleted: true,
          deletedAt: NOW,
          updatedBy: 'x',
          updatedAt: NOW,
        }),
      ],
    });
    clock.advance(60_000);
    const revived = await holidays.create('officer', { ...newHoliday, holidayDesc: 'again' });
    expect(revived).toMatchObject({ id: 7, isDeleted: false, deletedAt: null, createdBy: 'officer', updatedBy: null, updatedAt: null, holidayDesc: 'again' });
    expect(revived.createdAt).toEqual(clock.now());
    expect(holidayTable.rows).toHaveLength(1);
  });
});

describe('holidays: changed by id and language, deleted in every language', () => {
  const change = {
    id: 1,
    ...newHoliday,
    holidayDate: '2026-01-01',
    holidayName: 'New Year',
    newHolidayName: 'New Year Day',
    newHolidayDate: '2026-01-02',
    newHolidayDesc: 'moved',
  };

  it('changes the one language asked; its translations keep theirs', async () => {
    const { holidays, holidayTable } = world();
    const row = await holidays.update('editor', change);
    expect(row).toMatchObject({
      id: 1,
      langCode: 'eng',
      holidayName: 'New Year Day',
      holidayDate: day('2026-01-02'),
      holidayDesc: 'moved',
      updatedBy: 'editor',
    });
    expect(holidayTable.rows.find((r) => r.langCode === 'fra')).toMatchObject({ holidayName: 'Nouvel An', holidayDate: day('2026-01-01'), updatedBy: null });
  });

  it('needs the live row of that id, language, place, date and name (KER-MSD-020), and a known location (KER-MSD-026)', async () => {
    const { holidays } = world();
    await rejectsWith(holidays.update('editor', { ...change, id: 2 }), 'KER-MSD-020');
    await rejectsWith(holidays.update('editor', { ...change, langCode: 'ara' }), 'KER-MSD-020');
    await rejectsWith(holidays.update('editor', { ...change, holidayName: 'Old Year' }), 'KER-MSD-020');
    await rejectsWith(holidays.update('editor', { ...change, locationCode: 'NOWHERE' }), 'KER-MSD-026');
  });

  it('refuses a new name and date another holiday has there (KER-MSD-099)', async () => {
    const { holidays, holidayTable } = world({
      holidays: [
        holidayRow({ id: 1, langCode: 'eng', holidayName: 'New Year' }),
        holidayRow({ id: 2, langCode: 'eng', holidayName: 'New Year Day', holidayDate: day('2026-01-02') }),
      ],
    });
    await rejectsWith(holidays.update('editor', change), 'KER-MSD-099', 'Error while updating holiday: New Year Day on 2026-01-02 already exists there');
    expect(holidayTable.rows[0]).toMatchObject({ holidayName: 'New Year', updatedBy: null });
  });

  it('deletes softly every live row of the place, date and name, once (KER-MSD-020 after)', async () => {
    const { holidays, holidayTable } = world({
      holidays: [
        holidayRow({ id: 1, langCode: 'eng', holidayName: 'Eid' }),
        holidayRow({ id: 1, langCode: 'fra', holidayName: 'Eid' }),
        holidayRow({ id: 1, langCode: 'ara', holidayName: 'عيد' }),
      ],
    });
    const key = { locationCode: 'KTA', holidayDate: '2026-01-01', holidayName: 'Eid' };
    await expect(holidays.delete('admin', key)).resolves.toEqual(key);
    expect(holidayTable.rows.map((row) => [row.langCode, row.isDeleted, row.isActive])).toEqual([
      ['eng', true, false],
      ['fra', true, false],
      ['ara', false, true],
    ]);
    expect(holidayTable.rows[0]).toMatchObject({ deletedAt: NOW, updatedBy: 'admin' });
    await rejectsWith(holidays.delete('admin', key), 'KER-MSD-020');
  });

  it('reads a holiday by id in each language, or one; none is KER-MSD-020', async () => {
    const { holidays } = world();
    expect((await holidays.byId(1)).map((row) => row.langCode)).toEqual(['eng', 'fra']);
    expect((await holidays.byId(1, 'fra')).map((row) => row.holidayName)).toEqual(['Nouvel An']);
    await rejectsWith(holidays.byId(1, 'ara'), 'KER-MSD-020');
  });
});

describe('locations', () => {
  const city = { code: 'NEW', langCode: 'eng', name: 'New Town', hierarchyLevel: 2, hierarchyName: 'City', parentLocCode: 'RSK', isActive: true };

  it('are placed one level under a live parent; only the country has none (KER-MSD-064, KER-MSD-026)', async () => {
    const { locations, locationTable } = world();
    await expect(locations.create('admin', city)).resolves.toMatchObject({ code: 'NEW', parentCode: 'RSK', createdBy: 'admin' });
    await rejectsWith(locations.create('admin', { ...city, code: 'DEEP', hierarchyLevel: 3 }), 'KER-MSD-064');
    await rejectsWith(locations.create('admin', { ...city, code: 'ORPHAN', parentLocCode: 'NOWHERE' }), 'KER-MSD-026');
    await rejectsWith(
      locations.create('admin', { ...city, code: 'TOP', parentLocCode: null }),
      'KER-MSD-064',
      'Error while inserting location: only the country (level 0) has no parent',
    );
    await rejectsWith(locations.create('admin', city), 'KER-MSD-064', 'Error while inserting location: location NEW (eng) already exists');
    expect(locationTable.rows.map((row) => row.code)).toEqual(['MOR', 'RSK', 'KTA', 'NEW']);
  });

  it('take a deleted row of the same key back', async () => {
    const { locations, locationTable } = world();
    locationTable.rows.push(locationRow({ code: 'NEW', hierarchyLevel: 2, parentCode: 'RSK', isDeleted: true, deletedAt: NOW, name: 'Old Town' }));
    await expect(locations.create('admin', city)).resolves.toMatchObject({ code: 'NEW', name: 'New Town', isDeleted: false, deletedAt: null });
    expect(locationTable.rows).toHaveLength(4);
  });

  it('answer their hierarchy nearest first, and at most LOCATION_DEPTH levels of a cycle', async () => {
    const { locations } = world();
    expect((await locations.hierarchy('KTA', 'eng')).map((row) => row.code)).toEqual(['KTA', 'RSK', 'MOR']);
    await rejectsWith(locations.hierarchy('KTA', 'fra'), 'KER-MSD-026');
    const loop = world({
      locations: [locationRow({ code: 'A', hierarchyLevel: 1, parentCode: 'B' }), locationRow({ code: 'B', hierarchyLevel: 0, parentCode: 'A' })],
    });
    expect(await loop.locations.hierarchy('A', 'eng')).toHaveLength(LOCATION_DEPTH);
  });

  it('answer the children of a live location only', async () => {
    const { locations } = world();
    expect((await locations.children('MOR', 'eng')).map((row) => row.code)).toEqual(['RSK']);
    await rejectsWith(locations.children('NOWHERE', 'eng'), 'KER-MSD-026');
  });
});
