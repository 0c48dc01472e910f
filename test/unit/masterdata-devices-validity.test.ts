import { describe, expect, it } from 'vitest';
import { deviceValidity } from '../../subgraphs/masterdata/devices/service.js';
import { DeviceService } from '../../subgraphs/masterdata/devices/service.js';
import type { DeviceInput } from '../../subgraphs/masterdata/devices/write-device.js';
import { catalogueOf, clock, deviceRow, languages, NOW, ZoneTables, zoneRow, zoneUserRow } from './masterdata-devices-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * The device rules (devices/write-device.ts, service.ts) over the tables in
 * memory: a device is valid from an ISO 8601 instant, lies in one of the
 * caller's zones (its languages in the same one), is of a known
 * specification, and is not retired while placed at a centre.
 */

/** Zones MOR > RSK > KTA and NTH; `zonal` administers RSK; devices D1 (KTA, two languages) and D2 (NTH, placed at centre 10002). */
function world() {
  const tables = new ZoneTables();
  tables.zones = [zoneRow('MOR'), zoneRow('MOR/RSK'), zoneRow('MOR/RSK/KTA'), zoneRow('MOR/NTH')];
  tables.zoneUsers = [zoneUserRow('zonal', 'RSK'), zoneUserRow('global', 'MOR')];
  tables.devices = [deviceRow('D1', 'KTA'), deviceRow('D1', 'KTA', { langCode: 'ara', name: 'جهاز' }), deviceRow('D2', 'NTH', { regCenterId: '10002' })];
  const zones = tables.zoneService();
  const devices = new DeviceService(tables.deviceStore(), languages, clock(), zones, catalogueOf(['SPEC1', 'SPEC2']), () => Promise.resolve());
  return { tables, devices };
}

const input = (row: Partial<DeviceInput> = {}): DeviceInput => ({
  id: 'D9',
  name: 'Fingerprint scanner',
  serialNum: 'SN-9',
  deviceSpecId: 'SPEC1',
  macAddress: 'A1:B2:C3:D4:E5:F6',
  langCode: 'eng',
  isActive: true,
  validityDateTime: '2027-01-01T00:00:00.000Z',
  zoneCode: 'KTA',
  ...row,
});

describe('a device’s validity', () => {
  it('is an ISO 8601 instant, UTC when it names no zone', () => {
    expect(deviceValidity('2027-01-01T00:00:00.000Z')).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect(deviceValidity('2027-01-01T05:30:00+05:30')).toEqual(new Date('2027-01-01T00:00:00.000Z'));
    expect(deviceValidity('2027-01-01T00:00:00')).toEqual(new Date('2027-01-01T00:00:00.000Z'));
  });

  it('refuses anything else with KER-MSD-069, before anything is written', async () => {
    for (const text of ['2027-13-01T00:00:00Z', 'tomorrow', '01/01/2027', ''])
      expect(() => deviceValidity(text), text).toThrow(expect.objectContaining({ code: 'KER-MSD-069' }));
    const { tables, devices } = world();
    await rejectsWith(devices.create('zonal', input({ validityDateTime: 'tomorrow' })), 'KER-MSD-069');
    expect(tables.devices).toHaveLength(3);
  });

  it('is written as the instant, in every language of the device', async () => {
    const { tables, devices } = world();
    const created = await devices.create('zonal', input({ validityDateTime: '2027-06-30T12:00:00+02:00' }));
    expect(created).toMatchObject({ id: 'D9', validityDateTime: new Date('2027-06-30T10:00:00.000Z'), createdBy: 'zonal', createdAt: NOW });
    await devices.update('zonal', input({ id: 'D1', validityDateTime: '2028-01-01T00:00:00Z' }));
    expect(tables.devices.filter((row) => row.id === 'D1').map((row) => row.validityDateTime)).toEqual([
      new Date('2028-01-01T00:00:00.000Z'),
      new Date('2028-01-01T00:00:00.000Z'),
    ]);
  });
});

describe('where a device lies', () => {
  it('in one of the caller’s zones (KER-MSD-439), of a known specification (KER-MSD-069 new, KER-MSD-083 updated), in a supported language', async () => {
    const { devices } = world();
    await rejectsWith(devices.create('zonal', input({ zoneCode: 'NTH' })), 'KER-MSD-439');
    await rejectsWith(devices.create('zonal', input({ zoneCode: 'NOWHERE' })), 'KER-MSD-439');
    await rejectsWith(devices.create('zonal', input({ deviceSpecId: 'SPEC9' })), 'KER-MSD-069');
    await rejectsWith(devices.create('zonal', input({ langCode: 'fra' })), 'KER-MSD-999');
    await rejectsWith(devices.update('zonal', input({ id: 'D1', deviceSpecId: 'SPEC9' })), 'KER-MSD-083');
    await rejectsWith(devices.update('zonal', input({ id: 'D9' })), 'KER-MSD-010');
  });

  it('in the zone its other languages lie in; a duplicate is refused and a deleted row comes back', async () => {
    const { tables, devices } = world();
    await rejectsWith(devices.create('zonal', input({ id: 'D1', langCode: 'fra' })), 'KER-MSD-999');
    tables.devices[1]!.isDeleted = true;
    await rejectsWith(devices.create('zonal', input({ id: 'D1', langCode: 'ara', zoneCode: 'RSK' })), 'KER-MSD-069');
    await expect(devices.create('zonal', input({ id: 'D1', langCode: 'ara', zoneCode: 'KTA' }))).resolves.toMatchObject({
      isDeleted: false,
      name: 'Fingerprint scanner',
    });
    await rejectsWith(devices.create('zonal', input({ id: 'D1', langCode: 'ara' })), 'KER-MSD-069');
  });

  it('moves only between the caller’s zones, every language with it', async () => {
    const { tables, devices } = world();
    await rejectsWith(devices.update('zonal', input({ id: 'D1', zoneCode: 'NTH' })), 'KER-MSD-439');
    await rejectsWith(devices.update('zonal', input({ id: 'D2', zoneCode: 'KTA' })), 'KER-MSD-439');
    const moved = await devices.update('global', input({ id: 'D1', zoneCode: 'NTH', name: 'moved' }));
    expect(moved).toMatchObject({ zoneCode: 'NTH', name: 'moved', updatedBy: 'global' });
    expect(tables.devices.filter((row) => row.id === 'D1').map((row) => `${row.langCode}:${row.zoneCode}:${row.name}`)).toEqual([
      'eng:NTH:moved',
      'ara:NTH:جهاز',
    ]);
  });

  it('is not retired while placed at a centre: KER-MSD-440 to decommission, KER-MSD-147 to delete', async () => {
    const { tables, devices } = world();
    await rejectsWith(devices.decommission('global', 'D2'), 'KER-MSD-440');
    await rejectsWith(devices.delete('global', 'D2'), 'KER-MSD-147');
    await rejectsWith(devices.delete('zonal', 'D2'), 'KER-MSD-439');
    await rejectsWith(devices.delete('zonal', 'D7'), 'KER-MSD-010');
    expect(tables.devices.every((row) => !row.isDeleted)).toBe(true);
    await expect(devices.decommission('zonal', 'D1')).resolves.toBe('D1');
    expect(tables.devices.filter((row) => row.id === 'D1').every((row) => row.isDeleted && !row.isActive && row.updatedBy === 'zonal')).toBe(true);
    await rejectsWith(devices.get('zonal', 'D1', 'eng'), 'KER-MSD-010');
  });

  it('is read only in the caller’s zones: KER-MSD-439 for another’s, absent among references, KER-MSD-010 for none of a language', async () => {
    const { devices } = world();
    await expect(devices.get('zonal', 'D1', 'ara')).resolves.toMatchObject({ zoneCode: 'KTA' });
    await rejectsWith(devices.get('zonal', 'D2', 'eng'), 'KER-MSD-439');
    expect([...(await devices.byKeys('zonal', ['["D1","eng"]', '["D2","eng"]'])).keys()]).toEqual(['["D1","eng"]']);
    expect((await devices.byLanguage('zonal', 'eng', 'SCANNER')).map((row) => row.id)).toEqual(['D1']);
    await rejectsWith(devices.byLanguage('zonal', 'eng', 'CAMERA'), 'KER-MSD-010');
    await rejectsWith(devices.byLanguage('nobody', 'eng'), 'KER-MSD-010');
  });

  it('lists by a zone and those below it; a zone outside the caller’s is KER-MSD-439, an unknown one holds nothing', async () => {
    const { devices } = world();
    expect((await devices.conditions('zonal', { zoneCode: 'KTA', langCode: 'eng' })).zoneCodes).toEqual(['KTA']);
    expect([...(await devices.conditions('global', { zoneCode: 'RSK' })).zoneCodes].sort()).toEqual(['KTA', 'RSK']);
    expect(await devices.conditions('zonal', { zoneCode: 'NOPE', deviceType: 'SCANNER' })).toEqual({ zoneCodes: [], specIds: ['SPEC1', 'SPEC2'] });
    await rejectsWith(devices.conditions('zonal', { zoneCode: 'NTH' }), 'KER-MSD-439');
  });
});
