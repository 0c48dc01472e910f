import { describe, expect, it } from 'vitest';
import { CentreReach } from '../../subgraphs/masterdata/centres/reach.js';
import { country, GLOBAL_ADMIN, NORTH_ADMIN, OFFICER, RESIDENT, ZONAL_ADMIN } from './masterdata-centres-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * Which centres, machines and centre staff a caller reaches (centres/reach.ts,
 * machines.ts, user-places.ts) over the tables in memory: an admin the
 * centres and machines of its zones and those below them, a centre's staff
 * their own centre, a resident nothing. The country is
 * masterdata-centres-fakes.ts's.
 */

const sorted = (values: Iterable<string>) => [...values].sort();

describe('centre reach', () => {
  it('gives a GLOBAL_ADMIN the centres of every zone below its root, not those beside it', async () => {
    const reach = await country().services().reach.of(GLOBAL_ADMIN);
    expect(reach.admin).toBe(true);
    expect(sorted(reach.zoneCodes)).toEqual(['KTA', 'MOR', 'NTH', 'RSK']);
    expect(sorted(reach.centreIds)).toEqual(['10001', '10002']);
  });

  it('gives a ZONAL_ADMIN the centres of its zone and below, not its neighbour’s', async () => {
    const reach = await country().services().reach.of(ZONAL_ADMIN);
    expect(sorted(reach.zoneCodes)).toEqual(['KTA', 'RSK']);
    expect(sorted(reach.centreIds)).toEqual(['10001']);
    expect(CentreReach.reachesCentre(reach, '10001')).toBe(true);
    expect(CentreReach.reachesCentre(reach, '10002')).toBe(false);
  });

  it('gives a centre’s staff their own centre only, whatever zone mapping they hold', async () => {
    const tables = country();
    tables.zoneUsers.push({ ...tables.zoneUsers[0]!, userId: 'officer' });
    const reach = await tables.services().reach.of(OFFICER);
    expect(reach).toEqual({ admin: false, zoneCodes: new Set(), centreIds: new Set(['10001']) });
  });

  it('gives nothing to a resident, nor to staff whose mapping is removed or inactive', async () => {
    const tables = country();
    expect(await tables.services().reach.of(RESIDENT)).toEqual({ admin: false, zoneCodes: new Set(), centreIds: new Set() });
    tables.centreUsers[0]!.isActive = false;
    expect((await tables.services().reach.of(OFFICER)).centreIds).toEqual(new Set());
  });

  it('refuses a listed centre outside the reach: KER-MSD-439 to an admin, KER-ATH-403 to staff; one that does not exist is no one’s', async () => {
    const { reach } = country().services();
    await rejectsWith(reach.requireListed(await reach.of(ZONAL_ADMIN), '10002'), 'KER-MSD-439');
    await rejectsWith(reach.requireListed(await reach.of(OFFICER), '10002'), 'KER-ATH-403');
    await expect(reach.requireListed(await reach.of(OFFICER), '10001')).resolves.toBeUndefined();
    await expect(reach.requireListed(await reach.of(OFFICER), '99999')).resolves.toBeUndefined();
  });
});

describe('machine reach', () => {
  it('gives an admin the machines of its zones and of its zones’ centres; staff the machines of their centre', async () => {
    const { reach, machines } = country().services();
    const zonal = await reach.of(ZONAL_ADMIN);
    expect(sorted((await machines.ofLanguage(zonal, 'eng')).map((row) => row.id))).toEqual(['20001', '20002', '20003']);
    const north = await reach.of(NORTH_ADMIN);
    // 20003 lies in KTA, but is placed at 10002, a centre of NTH
    expect(sorted((await machines.ofLanguage(north, 'eng')).map((row) => row.id))).toEqual(['20003']);
    const officer = await reach.of(OFFICER);
    expect(sorted((await machines.ofLanguage(officer, 'eng')).map((row) => row.id))).toEqual(['20001']);
  });

  it('refuses a machine outside the reach: KER-MSD-439 to an admin, KER-ATH-403 to staff; absent among references', async () => {
    const { reach, machines } = country().services();
    await rejectsWith(machines.get(await reach.of(NORTH_ADMIN), '20001', 'eng'), 'KER-MSD-439');
    await rejectsWith(machines.get(await reach.of(OFFICER), '20002', 'eng'), 'KER-ATH-403');
    await rejectsWith(machines.get(await reach.of(GLOBAL_ADMIN), '29999', 'eng'), 'KER-MSD-030');
    const found = await machines.byKeys(await reach.of(OFFICER), ['["20001","eng"]', '["20002","eng"]']);
    expect([...found.keys()]).toEqual(['["20001","eng"]']);
  });

  it('lets a caller map a TPM key only to a machine it reaches; a name no machine has only a GLOBAL_ADMIN', async () => {
    const { machines } = country().services();
    await expect(machines.requireMappable(OFFICER, 'machine-20001')).resolves.toBeUndefined();
    await rejectsWith(machines.requireMappable(OFFICER, 'machine-20002'), 'KER-ATH-403');
    await rejectsWith(machines.requireMappable(ZONAL_ADMIN, 'machine-20004'), 'KER-ATH-403');
    await rejectsWith(machines.requireMappable(ZONAL_ADMIN, 'machine-new'), 'KER-ATH-403');
    await expect(machines.requireMappable(GLOBAL_ADMIN, 'machine-new')).resolves.toBeUndefined();
    expect(await machines.namesInReach(GLOBAL_ADMIN)).toBeNull();
    expect(sorted((await machines.namesInReach(ZONAL_ADMIN))!)).toEqual(['machine-20001', 'machine-20002', 'machine-20003']);
  });
});

describe('users placed in zones and centres', () => {
  it('gives an admin the users of its zones and of its centres; staff none', async () => {
    const { places } = country().services();
    expect(sorted(await places.usersAdministeredBy(ZONAL_ADMIN))).toEqual(['officer', 'zonal']);
    expect(sorted(await places.usersAdministeredBy(GLOBAL_ADMIN))).toEqual(['global', 'north', 'officer', 'officer2', 'zonal']);
    expect(await places.usersAdministeredBy(OFFICER)).toEqual(new Set());
  });

  it('filters by a zone and below, or a centre, only where the caller sees', async () => {
    const { places } = country().services();
    expect(sorted(await places.placedUsers({ zoneCode: 'RSK' }))).toEqual(['officer', 'zonal']);
    expect(sorted(await places.placedUsers({ zoneCode: 'MOR' }, NORTH_ADMIN))).toEqual(['north', 'officer2']);
    expect(await places.placedUsers({ regCenterId: '10001' }, NORTH_ADMIN)).toEqual(new Set());
    expect(await places.placedUsers({ regCenterId: '10001' }, OFFICER)).toEqual(new Set(['officer']));
    expect(await places.placedUsers({ zoneCode: 'NOPE' })).toEqual(new Set());
  });
});
