import { describe, expect, it } from 'vitest';
import { ZoneScope } from '../../subgraphs/masterdata/devices/zones.js';
import { country, GLOBAL_ADMIN, NORTH_ADMIN, ZONAL_ADMIN } from './masterdata-centres-fakes.js';
import { NOW, zoneRow } from './masterdata-devices-fakes.js';
import { rejectsWith } from './partner-fakes.js';

/*
 * The zone rules of devices/zones.ts over the tables in memory
 * (masterdata-centres-fakes.ts: MOR > RSK > KTA, MOR > NTH, and MORX beside
 * MOR): which zones an admin reaches, what it may write in, and where a new
 * zone goes.
 */

const sorted = (codes: readonly string[]) => [...codes].sort();

describe('zone reach: the zones an admin is mapped to and every zone below them', () => {
  it('gives the admin of the root every zone below it, not a zone whose code merely starts as the root’s', async () => {
    const zones = country().zoneService();
    const scope = await zones.scopeOf(GLOBAL_ADMIN.subject);
    expect(scope.paths).toEqual(['MOR']);
    expect(sorted(await zones.coveredCodes(scope))).toEqual(['KTA', 'MOR', 'NTH', 'RSK']);
    expect(scope.covers('MOR/RSK/KTA')).toBe(true);
    expect(scope.covers('MORX')).toBe(false);
  });

  it('gives a zonal admin its zone and those below it, not its parent or a sibling', async () => {
    const zones = country().zoneService();
    const scope = await zones.scopeOf(ZONAL_ADMIN.subject);
    expect(sorted(await zones.coveredCodes(scope))).toEqual(['KTA', 'RSK']);
    expect(await zones.coverage(scope, 'KTA')).toBe('covered');
    expect(await zones.coverage(scope, 'NTH')).toBe('outside');
    expect(await zones.coverage(scope, 'MOR')).toBe('outside');
    expect(await zones.coverage(scope, 'NOWHERE')).toBe('unknown');
  });

  it('gives nothing to a user without a mapping, or whose mapping is deleted or inactive', async () => {
    const zones = country().zoneService();
    for (const userId of ['nobody', 'gone', 'paused']) {
      const scope = await zones.scopeOf(userId);
      expect(scope.paths, userId).toEqual([]);
      expect(await zones.coveredCodes(scope), userId).toEqual([]);
    }
  });

  it('leaves out a zone since deleted, and what lies below only it', async () => {
    const tables = country();
    tables.zones.find((zone) => zone.code === 'KTA')!.isDeleted = true;
    const zones = tables.zoneService();
    expect(sorted(await zones.coveredCodes(await zones.scopeOf(ZONAL_ADMIN.subject)))).toEqual(['RSK']);
    expect(await zones.exists('KTA')).toBe(false);
  });

  it('guards a write: KER-MSD-439 for any zone outside the caller’s, a zone that does not exist among them', async () => {
    const zones = country().zoneService();
    const guard = await zones.guardOf(ZONAL_ADMIN.subject);
    expect(() => guard.require('device', 'RSK', 'KTA', null, undefined)).not.toThrow();
    expect(() => guard.require('device', 'KTA', 'NTH')).toThrow(expect.objectContaining({ code: 'KER-MSD-439' }));
    expect(() => guard.require('registration centre', 'NOWHERE')).toThrow(/registration centre for this zone/);
    expect(new ZoneScope('nobody', []).covers('MOR')).toBe(false);
  });

  it('answers the caller’s hierarchy from the top and its leaves; KER-MSD-339 without zones', async () => {
    const zones = country().zoneService();
    expect((await zones.hierarchy(GLOBAL_ADMIN.subject, 'eng')).map((zone) => zone.code)).toEqual(['MOR', 'NTH', 'RSK', 'KTA']);
    expect((await zones.leafs(GLOBAL_ADMIN.subject, 'eng')).map((zone) => zone.code)).toEqual(['NTH', 'KTA']);
    expect((await zones.hierarchy(ZONAL_ADMIN.subject, 'ara')).map((zone) => zone.code)).toEqual(['RSK']);
    await rejectsWith(zones.hierarchy('nobody', 'eng'), 'KER-MSD-339');
  });

  it('shows each user’s zones only where the caller reaches', async () => {
    const zones = country().zoneService();
    const seen = await zones.zonesOfUsers(['global', 'zonal', 'north'], await zones.scopeOf(ZONAL_ADMIN.subject));
    expect(seen.get('global')).toEqual([]);
    expect(seen.get('zonal')!.map((zone) => `${zone.code}/${zone.langCode}`)).toEqual(['RSK/ara', 'RSK/eng']);
    expect(seen.get('north')).toEqual([]);
  });
});

describe('new zones: below one the caller administers', () => {
  const zone = (code: string, parentZoneCode: string | null, hierarchyLevel: number) => ({
    code,
    langCode: 'eng',
    name: `zone ${code}`,
    hierarchyLevel,
    hierarchyName: 'City',
    parentZoneCode,
  });

  it('places a zone below its parent, its path following the parent’s', async () => {
    const tables = country();
    const created = await tables.zoneService().create(ZONAL_ADMIN, zone('SLA', 'KTA', 3));
    expect(created).toMatchObject({ code: 'SLA', path: 'MOR/RSK/KTA/SLA', createdBy: 'zonal', createdAt: NOW, isDeleted: false });
    expect(await tables.zoneService().coveredCodes(await tables.zoneService().scopeOf('zonal'))).toContain('SLA');
  });

  it('refuses a root zone but to a GLOBAL_ADMIN (KER-ATH-403), a parent outside the caller’s zones (KER-MSD-439), an unknown parent (KER-MSD-392)', async () => {
    const zones = country().zoneService();
    await rejectsWith(zones.create(ZONAL_ADMIN, zone('NEW', null, 0)), 'KER-ATH-403');
    await expect(zones.create(GLOBAL_ADMIN, zone('NEW', null, 0))).resolves.toMatchObject({ path: 'NEW' });
    await rejectsWith(zones.create(NORTH_ADMIN, zone('SLA', 'KTA', 3)), 'KER-MSD-439');
    await rejectsWith(zones.create(ZONAL_ADMIN, zone('SLA', 'NOPE', 3)), 'KER-MSD-392');
  });

  it('refuses a level not below the parent’s, a zone its own parent, a language elsewhere in the tree, and a duplicate (KER-MSD-394)', async () => {
    const tables = country();
    const zones = tables.zoneService();
    await rejectsWith(zones.create(ZONAL_ADMIN, zone('SLA', 'KTA', 2)), 'KER-MSD-394');
    await rejectsWith(zones.create(ZONAL_ADMIN, zone('KTA', 'KTA', 3)), 'KER-MSD-394');
    await rejectsWith(zones.create(GLOBAL_ADMIN, { ...zone('KTA', 'NTH', 2), langCode: 'ara' }), 'KER-MSD-394');
    await rejectsWith(zones.create(ZONAL_ADMIN, zone('KTA', 'RSK', 2)), 'KER-MSD-394');
    await rejectsWith(zones.create(ZONAL_ADMIN, { ...zone('SLA', 'KTA', 3), langCode: 'fra' }), 'KER-MSD-999');
    expect(tables.zones).toHaveLength(6);
  });

  it('brings a deleted zone back', async () => {
    const tables = country();
    tables.zones.push(zoneRow('MOR/RSK/KTA/SLA', { isDeleted: true, deletedAt: NOW }));
    const revived = await tables.zoneService().create(ZONAL_ADMIN, zone('SLA', 'KTA', 3));
    expect(revived).toMatchObject({ code: 'SLA', isDeleted: false, deletedAt: null, createdBy: 'zonal' });
    expect(tables.zones.filter((row) => row.code === 'SLA')).toHaveLength(1);
  });
});

describe('zone admins: mapped by the global admin, unmapped, mapped again', () => {
  it('maps a known user to a known zone once, unmaps it, and brings the mapping back', async () => {
    const tables = country();
    const zones = tables.zoneService(['newcomer']);
    await rejectsWith(zones.mapUser('global', 'stranger', 'KTA'), 'KER-MSD-391');
    await rejectsWith(zones.mapUser('global', 'newcomer', 'NOPE'), 'KER-MSD-392');
    await expect(zones.mapUser('global', 'newcomer', 'KTA')).resolves.toMatchObject({ userId: 'newcomer', zoneCode: 'KTA', isActive: true });
    await rejectsWith(zones.mapUser('global', 'newcomer', 'KTA'), 'KER-MSD-395');
    expect(await zones.coveredCodes(await zones.scopeOf('newcomer'))).toEqual(['KTA']);
    await expect(zones.unmapUser('global', 'newcomer', 'KTA')).resolves.toMatchObject({ isDeleted: true, isActive: false });
    await rejectsWith(zones.unmapUser('global', 'newcomer', 'KTA'), 'KER-MSD-391');
    expect(await zones.coveredCodes(await zones.scopeOf('newcomer'))).toEqual([]);
    await expect(zones.mapUser('global', 'newcomer', 'KTA')).resolves.toMatchObject({ isDeleted: false, isActive: true });
    expect(tables.zoneUsers.filter((row) => row.userId === 'newcomer')).toHaveLength(1);
  });
});
