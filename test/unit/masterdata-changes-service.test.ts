// Master data's changes read and client places over in-memory stores: the window a copy asks for, and a machine's place by name.
import { describe, expect, it } from 'vitest';
import { CHANGE_ENTITIES, ClientPlaces, MasterdataChanges, type ChangePlace } from '../../subgraphs/masterdata/changes/service.js';
import type { ChangesStore, ChangeWindow, ClientPlaceStore } from '../../subgraphs/masterdata/changes/storage.js';
import { centreRow, machineRow } from './masterdata-centres-fakes.js';
import { NOW } from './masterdata-devices-fakes.js';
import { fakeAsync } from './partner-fakes.js';

const place: ChangePlace = { centre: { id: '10001', holidayLocationCode: 'RSK' }, machine: { id: 'M1' } };
const later = new Date(NOW.getTime() + 60_000);

describe('changedSince', () => {
  const recording = () => {
    const asked: [string, ChangeWindow, ChangePlace][] = [];
    const store = fakeAsync<ChangesStore>({
      rows: (entity, window, at) => {
        asked.push([entity, window, at]);
        return [{ entity }];
      },
    });
    return { asked, changes: new MasterdataChanges(store) };
  };

  it('without since: every live row (no window, until not applied)', async () => {
    const { asked, changes } = recording();
    expect(await changes.changedSince('Language', null, later, place)).toEqual([{ entity: 'Language' }]);
    expect(asked).toEqual([['Language', null, place]]);
  });

  it('with since: the rows changed in (since, until], for the place given', async () => {
    const { asked, changes } = recording();
    await changes.changedSince('Holiday', NOW, later, place);
    expect(asked).toEqual([['Holiday', { since: NOW, until: later }, place]]);
  });

  it('answers the sixteen entities of MOSIP’s client settings, each once', () => {
    const { changes } = recording();
    expect(changes.entities).toHaveLength(16);
    expect(new Set(changes.entities).size).toBe(CHANGE_ENTITIES.length);
  });
});

describe('a registration client’s place', () => {
  const places = (machines: ReturnType<typeof machineRow>[], centres: ReturnType<typeof centreRow>[] = [centreRow('10001', 'NTH')]) => {
    const centreReads: string[] = [];
    const store = fakeAsync<ClientPlaceStore>({
      machinesNamed: (name) => machines.filter((row) => row.name === name),
      centre: (id) => {
        centreReads.push(id);
        return centres.find((row) => row.id === id) ?? null;
      },
      activeStaff: (regCenterId, take) => [`${regCenterId}:${take}`],
    });
    const exists = (id: string) => Promise.resolve(centres.some((row) => row.id === id));
    return { centreReads, places: new ClientPlaces(store, { exists }) };
  };

  it('a name no machine has: unknown, no centre read', async () => {
    const { places: p, centreReads } = places([]);
    expect(await p.machineNamed('machine-1')).toEqual({ known: false, machine: null, centre: null });
    expect(centreReads).toEqual([]);
  });

  it('a machine none of whose rows is active: known, no machine, no centre read', async () => {
    const { places: p, centreReads } = places([machineRow('M1', 'NTH', { name: 'machine-1', regCenterId: '10001', isActive: false })]);
    expect(await p.machineNamed('machine-1')).toEqual({ known: true, machine: null, centre: null });
    expect(centreReads).toEqual([]);
  });

  it('the first active row (in the store’s language order) and the centre it is placed at', async () => {
    const rows = [
      machineRow('M1', 'NTH', { name: 'machine-1', langCode: 'ara', regCenterId: '10001', isActive: false }),
      machineRow('M1', 'NTH', { name: 'machine-1', langCode: 'eng', regCenterId: '10001' }),
      machineRow('M1', 'NTH', { name: 'machine-1', langCode: 'fra', regCenterId: '10001' }),
    ];
    const { places: p, centreReads } = places(rows);
    const named = await p.machineNamed('machine-1');
    expect(named.machine).toBe(rows[1]);
    expect(named.centre).toMatchObject({ id: '10001' });
    expect(centreReads).toEqual(['10001']);
  });

  it('a machine at no centre, or at one master data no longer holds: no centre', async () => {
    expect((await places([machineRow('M1', 'NTH', { name: 'm' })]).places.machineNamed('m')).centre).toBeNull();
    expect((await places([machineRow('M1', 'NTH', { name: 'm', regCenterId: '10009' })]).places.machineNamed('m')).centre).toBeNull();
  });

  it('whether a centre exists, and its active staff up to the bound asked', async () => {
    const { places: p } = places([]);
    expect(await p.centreExists('10001')).toBe(true);
    expect(await p.centreExists('10002')).toBe(false);
    expect(await p.activeStaff('10001', 1001)).toEqual(['10001:1001']);
  });
});
