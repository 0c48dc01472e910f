import { describe, expect, it } from 'vitest';
import { country } from './masterdata-centres-fakes.js';
import { NOW } from './masterdata-devices-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * Who works at which centre (centres/map-user.ts, user-places.ts) over the
 * tables in memory: a user works at one centre at a time (KER-MSD-432), a
 * mapping is made once (KER-MSD-426) and removed once (KER-MSD-423), only
 * by an admin of the centre's zone (KER-MSD-439). The country is
 * masterdata-centres-fakes.ts's: `officer` works at 10001 (KTA, zonal's),
 * `officer2` at 10002 (NTH, north's).
 */

const USERS = ['officer', 'officer2', 'newcomer'];

describe('mapping a user to a centre', () => {
  it('maps a known user to a centre of the caller’s zones', async () => {
    const tables = country();
    const { centres, reach } = tables.services(USERS);
    await expect(centres.mapUser('zonal', 'newcomer', '10001')).resolves.toMatchObject({
      regCenterId: '10001',
      userId: 'newcomer',
      isActive: true,
      isDeleted: false,
      createdBy: 'zonal',
      createdAt: NOW,
    });
    expect((await reach.of({ subject: 'newcomer', roles: ['REGISTRATION_OFFICER'] })).centreIds).toEqual(new Set(['10001']));
  });

  it('refuses a user who works at another centre, naming it (KER-MSD-432): one centre at a time', async () => {
    const tables = country();
    const { centres } = tables.services(USERS);
    await rejectsWith(centres.mapUser('global', 'officer', '10002'), 'KER-MSD-432');
    await expect(centres.mapUser('global', 'officer', '10002')).rejects.toThrow(/\(10001\)/);
    expect(tables.centreUsers.filter((row) => row.userId === 'officer')).toHaveLength(1);
  });

  it('refuses a mapping that is there already (KER-MSD-426)', async () => {
    const { centres } = country().services(USERS);
    await rejectsWith(centres.mapUser('zonal', 'officer', '10001'), 'KER-MSD-426');
  });

  it('refuses a centre outside the caller’s zones (KER-MSD-439), one that does not exist (KER-MSD-428), a user auth does not know (KER-USR-007)', async () => {
    const tables = country();
    const { centres } = tables.services(USERS);
    await rejectsWith(centres.mapUser('north', 'newcomer', '10001'), 'KER-MSD-439');
    await rejectsWith(centres.mapUser('zonal', 'newcomer', '19999'), 'KER-MSD-428');
    await rejectsWith(centres.mapUser('zonal', 'stranger', '10001'), 'KER-USR-007');
    expect(tables.centreUsers).toHaveLength(2);
  });
});

describe('unmapping a user from a centre', () => {
  it('removes the mapping, after which the user may work elsewhere; a removed mapping comes back', async () => {
    const tables = country();
    const { centres, places } = tables.services(USERS);
    await expect(centres.unmapUser('zonal', 'officer', '10001')).resolves.toMatchObject({ isDeleted: true, isActive: false, updatedBy: 'zonal' });
    expect(await places.centresOfUsers(['officer'])).toEqual(new Map());
    await expect(centres.mapUser('north', 'officer', '10002')).resolves.toMatchObject({ regCenterId: '10002' });
    await centres.unmapUser('north', 'officer', '10002');
    const back = await centres.mapUser('zonal', 'officer', '10001');
    expect(back).toMatchObject({ isDeleted: false, isActive: true, deletedAt: null, updatedBy: null, createdBy: 'zonal' });
    expect(tables.centreUsers.filter((row) => row.userId === 'officer' && row.regCenterId === '10001')).toHaveLength(1);
    expect(await places.centresOfUsers(['officer', 'officer2', 'newcomer'])).toEqual(
      new Map([
        ['officer', '10001'],
        ['officer2', '10002'],
      ]),
    );
  });

  it('refuses a mapping that does not exist (KER-MSD-423), and a centre outside the caller’s zones (KER-MSD-439)', async () => {
    const tables = country();
    const { centres } = tables.services(USERS);
    await rejectsWith(centres.unmapUser('zonal', 'newcomer', '10001'), 'KER-MSD-423');
    await rejectsWith(centres.unmapUser('north', 'officer', '10001'), 'KER-MSD-439');
    await centres.unmapUser('zonal', 'officer', '10001');
    await rejectsWith(centres.unmapUser('zonal', 'officer', '10001'), 'KER-MSD-423');
  });
});

describe('whether a user worked at a centre at an instant', () => {
  it('holds from the mapping’s creation to its removal', async () => {
    const tables = country();
    const { places } = tables.services(USERS);
    const mapped = tables.centreUsers[0]!;
    mapped.createdAt = new Date('2026-01-01T00:00:00Z');
    expect(await places.workedAt('10001', 'officer', new Date('2025-12-31T00:00:00Z'))).toBe(false);
    expect(await places.workedAt('10001', 'officer', new Date('2026-03-01T00:00:00Z'))).toBe(true);
    Object.assign(mapped, { isDeleted: true, isActive: false, deletedAt: new Date('2026-04-01T00:00:00Z') });
    expect(await places.workedAt('10001', 'officer', new Date('2026-03-01T00:00:00Z'))).toBe(true);
    expect(await places.workedAt('10001', 'officer', new Date('2026-04-02T00:00:00Z'))).toBe(false);
    expect(await places.workedAt('10002', 'officer', new Date('2026-03-01T00:00:00Z'))).toBe(false);
  });
});
