// Sync data's client settings over in-memory ports: the delta window, lastUpdated, what a machine of a centre receives, and the
// order of the refusals. No database: master data, the key manager and the caller's reach are syncdata-fakes.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { SYNC_ENTITIES } from '../../subgraphs/syncdata/client-settings.js';
import { CHANGE_ENTITIES } from '../../subgraphs/masterdata/changes/service.js';
import { decryptForMachine, machineKeys } from '../support/machine.js';
import { centreRow, machineRow, NOW, SyncWorld, type SyncRow } from './syncdata-fakes.js';

const KEY = 'a'.repeat(64);
const officer = { subject: 'officer', roles: ['REGISTRATION_OFFICER'] };
const keys = machineKeys();
const at = (ms: number) => new Date(NOW.getTime() + ms);
const row = (id: string, changedAt = NOW, isDeleted = false): SyncRow => ({ id, changedAt, isDeleted });

let world: SyncWorld;
beforeEach(() => {
  world = new SyncWorld();
  world.centres = [centreRow('10001', 'NTH', { langCode: 'fra', name: 'centre fr' }), centreRow('10001', 'NTH', { holidayLocationCode: 'RSK' })];
  world.machines = [machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001' })];
  world.mapKey(KEY, 'machine-1', keys.publicKey);
  world.reaching('officer', { centreIds: new Set(['10001']) });
});

const settings = (lastUpdated?: string | null, regCenterId?: string | null, caller = officer, keyIndex = KEY) =>
  world.service().clientSettings(caller, keyIndex, lastUpdated, regCenterId);
const opened = (data: string) => decryptForMachine(keys.privateKey, data) as { id: string }[];

describe('what a machine of a centre receives', () => {
  it('every entity with rows, in the clients’ order, each readable with the machine’s key alone; the empty ones left out', async () => {
    world.rows = { IdSchema: [row('schema-1')], Language: [row('eng'), row('fra')], Machine: [row('M1')], Holiday: [] };
    const answer = await settings();
    expect(answer.lastSyncTime).toEqual(NOW);
    expect(answer.dataToSync.map((entity) => [entity.entityName, entity.entityType])).toEqual([
      ['Language', 'structured'],
      ['Machine', 'structured'],
      ['IdSchema', 'structured'],
    ]);
    expect(opened(answer.dataToSync[0]!.data).map((r) => r.id)).toEqual(['eng', 'fra']);
    expect(() => decryptForMachine(machineKeys().privateKey, answer.dataToSync[0]!.data)).toThrow();
  });

  it('asks master data for every entity, in order, for the machine’s centre (its first language) and the machine itself', async () => {
    await settings();
    expect(world.asked.map((ask) => ask.entity)).toEqual([...SYNC_ENTITIES]);
    expect(SYNC_ENTITIES.every((entity) => CHANGE_ENTITIES.includes(entity))).toBe(true);
    for (const { place } of world.asked) {
      expect(place.centre).toMatchObject({ id: '10001', langCode: 'eng', holidayLocationCode: 'RSK' });
      expect(place.machine).toMatchObject({ id: 'M1', name: 'machine-1' });
    }
  });

  it('takes the machine’s first active row when another language of it is inactive', async () => {
    world.machines = [
      machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001', langCode: 'ara', isActive: false }),
      machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001', langCode: 'eng' }),
    ];
    await settings();
    expect(world.asked[0]!.place.machine).toMatchObject({ langCode: 'eng', isActive: true });
  });
});

describe('the delta window and lastUpdated', () => {
  beforeEach(() => {
    world.clock.set(at(60_000));
    world.rows = {
      Language: [row('before', at(-1)), row('at-last-sync', NOW), row('changed', at(1)), row('deleted', at(30_000), true), row('now', at(60_000))],
    };
  });

  it('without lastUpdated (absent, null or empty): every live row, deleted ones left out', async () => {
    for (const lastUpdated of [undefined, null, '']) {
      world.asked.length = 0;
      const answer = await settings(lastUpdated);
      expect(world.asked[0]!.window).toBeNull();
      expect(opened(answer.dataToSync[0]!.data).map((r) => r.id)).toEqual(['before', 'at-last-sync', 'changed', 'now']);
    }
  });

  it('with lastUpdated: every row changed after it up to now, deletions included; now is the next lastUpdated', async () => {
    const answer = await settings(NOW.toISOString());
    expect(world.asked.every((ask) => ask.window?.since.getTime() === NOW.getTime() && ask.window.until.getTime() === at(60_000).getTime())).toBe(true);
    expect(opened(answer.dataToSync[0]!.data).map((r) => r.id)).toEqual(['changed', 'deleted', 'now']);
    expect(answer.lastSyncTime).toEqual(at(60_000));

    // the next sync from there: nothing changed since
    const next = await settings(answer.lastSyncTime.toISOString());
    expect(next.dataToSync).toEqual([]);
  });

  it('takes lastUpdated equal to now; refuses one in the future (KER-SNC-135) and one that is no instant (KER-SNC-100), before any machine look-up', async () => {
    await expect(settings(at(60_000).toISOString())).resolves.toMatchObject({ lastSyncTime: at(60_000) });
    world.calls.length = 0;
    await expect(settings(at(60_001).toISOString(), null, officer, 'no-such-key')).rejects.toMatchObject({ code: 'KER-SNC-135' });
    await expect(settings('yesterday', null, officer, 'no-such-key')).rejects.toMatchObject({ code: 'KER-SNC-100' });
    await expect(settings('2026-02-30T00:00:00.000Z', null, officer, 'no-such-key')).rejects.toMatchObject({ code: 'KER-SNC-100' });
    expect(world.calls).toEqual([]);
  });
});

describe('refusals, in their order', () => {
  it('a key index mapped to nothing, or to a name no live machine has: KER-SNC-155 "Machine not found"', async () => {
    await expect(settings(null, null, officer, 'b'.repeat(64))).rejects.toMatchObject({ code: 'KER-SNC-155', message: 'Machine not found' });
    world.machines = [machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001', isDeleted: true })];
    await expect(settings()).rejects.toMatchObject({ code: 'KER-SNC-155', message: 'Machine not found' });
  });

  it('a machine whose every row is inactive: KER-SNC-155 with the reason, its centre not even read', async () => {
    world.machines = [machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001', isActive: false })];
    await expect(settings()).rejects.toMatchObject({ code: 'KER-SNC-155', message: expect.stringMatching(/inactive/) });
    expect(world.calls).not.toContain('centre');
  });

  it('a machine at no centre, or at a deleted one: KER-SNC-141', async () => {
    world.machines = [machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: null })];
    await expect(settings()).rejects.toMatchObject({ code: 'KER-SNC-141', message: 'Registration center not found' });
    world.machines = [machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001' })];
    world.centres = world.centres.map((centre) => ({ ...centre, isDeleted: true }));
    await expect(settings()).rejects.toMatchObject({ code: 'KER-SNC-141', message: 'Registration center not found: 10001' });
  });

  it('a caller that does not reach the machine: KER-ATH-403, before the moved-centre signal; whoever mapped the key', async () => {
    world.reaching('elsewhere', { centreIds: new Set(['10002']) });
    const other = { subject: 'elsewhere', roles: ['REGISTRATION_OFFICER'] };
    await expect(settings(null, null, other)).rejects.toMatchObject({ code: 'KER-ATH-403' });
    await expect(settings(null, '10002', other)).rejects.toMatchObject({ code: 'KER-ATH-403' });
    await expect(settings(null, null, { subject: 'nobody', roles: ['GLOBAL_ADMIN'] })).rejects.toMatchObject({ code: 'KER-ATH-403' });
    expect(world.asked).toEqual([]);
  });

  it('an admin of the machine’s zone reaches it though the centre is not listed as its own', async () => {
    world.reaching('zonal', { admin: true, zoneCodes: new Set(['NTH']) });
    await expect(settings(null, null, { subject: 'zonal', roles: ['ZONAL_ADMIN'] })).resolves.toMatchObject({ lastSyncTime: NOW });
  });

  it('a client naming a centre its machine has left: KER-SNC-149; naming its own centre is fine', async () => {
    await expect(settings(null, '10002')).rejects.toMatchObject({ code: 'KER-SNC-149' });
    await expect(settings(null, '10001')).resolves.toMatchObject({ lastSyncTime: NOW });
  });
});
