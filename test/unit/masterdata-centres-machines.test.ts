import { describe, expect, it } from 'vitest';
import { machineValidity, type MachineInput } from '../../subgraphs/masterdata/centres/machines.js';
import { country, machineRow } from './masterdata-centres-fakes.js';
import { NOW } from './masterdata-devices-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * Machines (centres/machines.ts) over the tables in memory: where one may
 * send from (its placement), where an admin may put one (its zone and its
 * centre's zone both the admin's), its validity, its unique name. The
 * country is masterdata-centres-fakes.ts's: 20001 at 10001 (KTA), 20002 in
 * RSK at no centre, 20003 in KTA at 10002 (NTH), 20004 at 10003 (MORX).
 */

const input = (row: Partial<MachineInput> = {}): MachineInput => ({ langCode: 'eng', name: 'new-machine', zoneCode: 'KTA', ...row });

describe('where a registration client may send from', () => {
  it('a known, active centre and a known, active machine placed at it', async () => {
    const tables = country();
    const { machines } = tables.services();
    expect(await machines.placement('10001', '20001')).toBe('ACTIVE');
    expect(await machines.placement('19999', '20001')).toBe('UNKNOWN_CENTRE');
    expect(await machines.placement('10001', '29999')).toBe('UNKNOWN_MACHINE');
    expect(await machines.placement('10001', '20002')).toBe('ELSEWHERE');
    expect(await machines.placement('10001', '20003')).toBe('ELSEWHERE');
    tables.machines[0]!.isActive = false;
    expect(await machines.placement('10001', '20001')).toBe('INACTIVE_MACHINE');
    for (const row of tables.centres.filter((centre) => centre.id === '10001')) row.isActive = false;
    expect(await machines.placement('10001', '20001')).toBe('INACTIVE_CENTRE');
  });

  it('counts a centre or machine active in any of its languages', async () => {
    const tables = country();
    tables.centres[0]!.isActive = false; // 10001 in English; still active in Arabic
    tables.machines.push(machineRow('20001', 'KTA', { langCode: 'ara', regCenterId: '10001', isActive: false }));
    expect(await tables.services().machines.placement('10001', '20001')).toBe('ACTIVE');
    tables.centres[1]!.isDeleted = true;
    expect(await tables.services().machines.placement('10001', '20001')).toBe('INACTIVE_CENTRE');
  });
});

describe('where an admin may put a machine', () => {
  it('in its zones, at a centre of its zones: placing one at another zone’s centre, or taking one from it, is KER-MSD-439', async () => {
    const tables = country();
    const { machines } = tables.services();
    await rejectsWith(machines.create('zonal', input({ regCenterId: '10002' })), 'KER-MSD-439');
    await rejectsWith(machines.create('zonal', input({ zoneCode: 'NTH' })), 'KER-MSD-439');
    // 20003 lies in KTA (zonal's) but at 10002 (NTH): neither zonal nor north may rewrite it alone
    await rejectsWith(machines.update('zonal', { ...input({ name: 'machine-20003' }), id: '20003' }), 'KER-MSD-439');
    await rejectsWith(machines.update('north', { ...input({ name: 'machine-20003', zoneCode: 'NTH', regCenterId: '10002' }), id: '20003' }), 'KER-MSD-439');
    await rejectsWith(machines.delete('zonal', '20003'), 'KER-MSD-439');
    await expect(machines.update('global', { ...input({ name: 'machine-20003', regCenterId: '10001' }), id: '20003' })).resolves.toMatchObject({
      regCenterId: '10001',
      updatedBy: 'global',
    });
    await expect(machines.create('zonal', input({ regCenterId: '10001' }))).resolves.toMatchObject({ id: '20005', regCenterId: '10001', createdAt: NOW });
  });

  it('refuses an unknown zone (KER-MSD-343) or centre (KER-MSD-215), a name another machine has (KER-MSD-413), a live id (KER-MSD-996)', async () => {
    const tables = country();
    const { machines } = tables.services();
    await rejectsWith(machines.create('zonal', input({ zoneCode: 'NOPE' })), 'KER-MSD-343');
    await rejectsWith(machines.create('zonal', input({ regCenterId: '19999' })), 'KER-MSD-215');
    await rejectsWith(machines.create('zonal', input({ name: 'machine-20002' })), 'KER-MSD-413');
    await rejectsWith(machines.create('zonal', input({ id: '20001', name: 'machine-20001' })), 'KER-MSD-996');
    await rejectsWith(machines.update('zonal', { ...input(), id: '29999' }), 'KER-MSD-030');
    expect(tables.machines).toHaveLength(4);
  });

  it('shares its fields between its languages, and a deletion takes them all', async () => {
    const tables = country();
    const { machines } = tables.services();
    await machines.create('zonal', input({ id: '20002', langCode: 'ara', name: 'machine-20002', serialNum: 'SN-2' }));
    expect(tables.machines.filter((row) => row.id === '20002').map((row) => `${row.langCode}:${row.serialNum}`)).toEqual(['eng:SN-2', 'ara:SN-2']);
    await expect(machines.delete('zonal', '20002')).resolves.toBe('20002');
    expect(tables.machines.filter((row) => row.id === '20002').every((row) => row.isDeleted)).toBe(true);
    await rejectsWith(machines.delete('zonal', '20002'), 'KER-MSD-030');
    await expect(machines.create('zonal', input({ id: '20002', name: 'machine-20002' }))).resolves.toMatchObject({ isDeleted: false });
  });
});

describe('a machine’s validity', () => {
  it('is an ISO 8601 instant, written as such; anything else is KER-MSD-043', async () => {
    expect(machineValidity('2027-01-01T01:00:00+01:00')).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect(() => machineValidity('2027-02-30')).toThrow(expect.objectContaining({ code: 'KER-MSD-043' }));
    const tables = country();
    const { machines } = tables.services();
    await rejectsWith(machines.create('zonal', input({ validityDateTime: 'next year' })), 'KER-MSD-043');
    const row = await machines.create('zonal', input({ validityDateTime: '2027-01-01T00:00:00Z' }));
    expect(row.validityDateTime).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect((await machines.create('zonal', input({ name: 'other' }))).validityDateTime).toBeNull();
  });
});
