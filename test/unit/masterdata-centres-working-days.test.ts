import { describe, expect, it } from 'vitest';
import { workingDayWrites, workingDaysOf, WEEK_DAYS } from '../../subgraphs/masterdata/centres/working-days.js';
import { checkHoursAndPlace, type CentreInput } from '../../subgraphs/masterdata/centres/write-centre.js';
import { centreRow, country, machineRow, type CentreTables } from './masterdata-centres-fakes.js';
import { NOW, seeded } from './masterdata-devices-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * A registration centre's week (centres/working-days.ts) and the centre
 * writes that keep it (write-centre.ts), over the tables in memory: every
 * language of a centre works the same days; Monday to Friday unless told.
 */

const input = (row: Partial<CentreInput> = {}): CentreInput => ({
  langCode: 'eng',
  name: 'Kenitra Centre',
  centerTypeCode: 'REG',
  locationCode: 'KTA',
  holidayLocationCode: 'KTA',
  zoneCode: 'KTA',
  ...row,
});

/** A centre's week in a language as stored, Monday first: the days it works. */
const week = (tables: CentreTables, id: string, langCode: string) =>
  WEEK_DAYS.filter((day) =>
    tables.workingDays.some((row) => row.regCenterId === id && row.langCode === langCode && row.dayCode === day && row.isWorking && !row.isDeleted),
  );

const dayRow = (langCode: string, dayCode: string, isWorking: boolean, isDeleted = false) => ({ langCode, dayCode, isWorking, isDeleted });

describe('a centre’s week', () => {
  it('is every day Monday first, named and numbered, a day without a row not worked', () => {
    const days = workingDaysOf([
      { dayCode: 'SAT', isWorking: true },
      { dayCode: 'MON', isWorking: true },
      { dayCode: 'TUE', isWorking: false },
    ]);
    expect(days.map((day) => day.dayCode)).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    expect(days[0]).toEqual({ dayCode: 'MON', name: 'Monday', order: 1, isWorking: true });
    expect(days.filter((day) => day.isWorking).map((day) => day.dayCode)).toEqual(['MON', 'SAT']);
  });

  it('is Monday to Friday for a new centre, the given days over them', () => {
    const writes = workingDayWrites(
      ['eng'],
      [],
      [
        { dayCode: 'SAT', isWorking: true },
        { dayCode: 'FRI', isWorking: false },
      ],
    );
    expect(writes.every((write) => write.write === 'create')).toBe(true);
    expect(writes.filter((write) => write.isWorking).map((write) => write.dayCode)).toEqual(['MON', 'TUE', 'WED', 'THU', 'SAT']);
  });

  it('keeps the stored days (of any language) and writes only what changes, bringing a deleted day back', () => {
    const stored = [dayRow('eng', 'MON', true), dayRow('eng', 'SAT', true), dayRow('eng', 'SUN', false, true), dayRow('ara', 'MON', false)];
    const writes = workingDayWrites(['eng', 'ara'], stored, [{ dayCode: 'MON', isWorking: false }]);
    // eng: MON changes, SUN comes back, the days without a row are created; ara takes the same week
    expect(writes.filter((write) => write.langCode === 'eng')).toEqual([
      { langCode: 'eng', dayCode: 'MON', isWorking: false, write: 'update' },
      { langCode: 'eng', dayCode: 'TUE', isWorking: true, write: 'create' },
      { langCode: 'eng', dayCode: 'WED', isWorking: true, write: 'create' },
      { langCode: 'eng', dayCode: 'THU', isWorking: true, write: 'create' },
      { langCode: 'eng', dayCode: 'FRI', isWorking: true, write: 'create' },
      { langCode: 'eng', dayCode: 'SUN', isWorking: false, write: 'revive' },
    ]);
    expect(writes.filter((write) => write.langCode === 'ara').map((write) => `${write.dayCode}:${write.isWorking}`)).toEqual([
      'TUE:true',
      'WED:true',
      'THU:true',
      'FRI:true',
      'SAT:true',
      'SUN:false',
    ]);
  });
});

describe('centre writes keep one week in every language', () => {
  it('opens a new centre Monday to Friday, or on the days given, with a generated id', async () => {
    const tables = country();
    const { centres } = tables.services();
    const plain = await centres.create('zonal', input());
    expect(plain).toMatchObject({ id: '10004', langCode: 'eng', zoneCode: 'KTA', createdBy: 'zonal', createdAt: NOW });
    expect(week(tables, '10004', 'eng')).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI']);
    const weekend = await centres.create(
      'zonal',
      input({
        workingDays: [
          { dayCode: 'SAT', isWorking: true },
          { dayCode: 'MON', isWorking: false },
        ],
      }),
    );
    expect(week(tables, weekend.id, 'eng')).toEqual(['TUE', 'WED', 'THU', 'FRI', 'SAT']);
    expect((await centres.workingDays(weekend.id, 'eng')).filter((day) => day.isWorking).map((day) => day.order)).toEqual([2, 3, 4, 5, 6]);
  });

  it('gives a centre’s new language the centre’s week, and a change of days every language', async () => {
    const tables = country();
    const { centres } = tables.services();
    const { id } = await centres.create('zonal', input({ workingDays: [{ dayCode: 'SUN', isWorking: true }] }));
    await centres.create('zonal', input({ id, langCode: 'ara', name: 'مركز القنيطرة' }));
    expect(week(tables, id, 'ara')).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SUN']);
    await centres.update('zonal', { ...input({ workingDays: [{ dayCode: 'WED', isWorking: false }] }), id });
    expect(week(tables, id, 'eng')).toEqual(['MON', 'TUE', 'THU', 'FRI', 'SUN']);
    expect(week(tables, id, 'ara')).toEqual(['MON', 'TUE', 'THU', 'FRI', 'SUN']);
    const before = tables.workingDays.map((row) => ({ ...row }));
    await centres.update('zonal', { ...input({ name: 'renamed' }), id });
    expect(tables.workingDays).toEqual(before);
  });

  it('refuses bad hours and coordinates with MOSIP’s codes before anything is written', async () => {
    const bad: [Partial<CentreInput>, string][] = [
      [{ centerStartTime: '17:00', centerEndTime: '09:00' }, 'KER-MSD-309'],
      [{ lunchStartTime: '14:00', lunchEndTime: '13:00' }, 'KER-MSD-308'],
      [{ centerStartTime: '09:00', lunchStartTime: '08:30', lunchEndTime: '09:30' }, 'KER-MSD-259'],
      [{ centerEndTime: '17:00', lunchStartTime: '16:30', lunchEndTime: '17:30' }, 'KER-MSD-260'],
      [{ latitude: '91.5' }, 'KER-MSD-307'],
      [{ longitude: 'east' }, 'KER-MSD-307'],
    ];
    for (const [row, code] of bad) expect(() => checkHoursAndPlace(input(row)), code).toThrow(expect.objectContaining({ code }));
    expect(() => checkHoursAndPlace(input({ centerStartTime: '09:00', centerEndTime: '17:00', latitude: '-34.2', longitude: '179.9' }))).not.toThrow();
    const tables = country();
    const { centres } = tables.services();
    await rejectsWith(centres.create('zonal', input({ centerStartTime: '17:00', centerEndTime: '09:00' })), 'KER-MSD-309');
    await rejectsWith(centres.create('zonal', input({ locationCode: 'NOPE' })), 'KER-MSD-026');
    await rejectsWith(centres.create('zonal', input({ zoneCode: 'NOPE' })), 'KER-MSD-340');
    await rejectsWith(centres.create('zonal', input({ zoneCode: 'NTH' })), 'KER-MSD-439');
    await rejectsWith(centres.create('zonal', input({ id: '10001' })), 'KER-MSD-996');
    expect(tables.centres).toHaveLength(4);
    expect(tables.workingDays).toEqual([]);
  });

  it('deletes a centre with its week once nothing is placed at it (KER-MSD-192), in the caller’s zones only', async () => {
    const tables = country();
    const { centres } = tables.services();
    const { id } = await centres.create('zonal', input());
    tables.machines.push(machineRow('20009', 'KTA', { regCenterId: id }));
    await rejectsWith(centres.delete('zonal', id), 'KER-MSD-192');
    await rejectsWith(centres.delete('north', id), 'KER-MSD-439');
    tables.machines.pop();
    await expect(centres.delete('zonal', id)).resolves.toBe(id);
    expect(tables.centres.filter((row) => row.id === id).every((row) => row.isDeleted && !row.isActive)).toBe(true);
    expect(tables.workingDays.filter((row) => row.regCenterId === id).every((row) => row.isDeleted)).toBe(true);
    await rejectsWith(centres.delete('zonal', id), 'KER-MSD-215');
  });

  it('brings a deleted centre’s row back, and refuses a live one', async () => {
    const tables = country();
    tables.centres.push(centreRow('10009', 'KTA', { ...seeded, isDeleted: true, deletedAt: NOW }));
    const { centres } = tables.services();
    await expect(centres.create('zonal', input({ id: '10009' }))).resolves.toMatchObject({ id: '10009', isDeleted: false, deletedAt: null });
    await rejectsWith(centres.create('zonal', input({ id: '10009' })), 'KER-MSD-996');
  });
});
