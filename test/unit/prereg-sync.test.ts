// Pre-registration's sync rules over in-memory stand-ins: the ZIP and its sealing for a machine, which
// centre takes an application in, the sync's checks, consumption (idempotent, unknown ids skipped,
// a centre's reach), the move (files before rows, consumed ids only) and the machine fetch's order.
import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../lib/errors.js';
import type { JobTx } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { readZip } from '../../lib/packet/zip.js';
import { ManualClock } from '../../lib/time.js';
import type { ApplicationStatus } from '../../subgraphs/prereg/statuses.js';
import { archiveZip, entryOf, sealForMachine } from '../../subgraphs/prereg/sync/archive.js';
import { ArchiveFetch, type ArchiveParts, type MachinePlace } from '../../subgraphs/prereg/sync/fetch-archive.js';
import type { Reach } from '../../subgraphs/prereg/sync/reach.js';
import { takesIn } from '../../subgraphs/prereg/sync/reach.js';
import { MAX_SYNCED_IDS, SyncService } from '../../subgraphs/prereg/sync/service.js';
import type { ApplicationPlace, SyncedBooking } from '../../subgraphs/prereg/sync/types.js';

const NOW = new Date('2026-05-01T10:00:00.000Z');
const logger = createLogger('silent');
const reachOf = (centreIds: string[], admin = false): Reach => ({ admin, zoneCodes: new Set(), centreIds: new Set(centreIds) });
const officerOf = (centre: string) => ({ subject: `officer-${centre}`, roles: ['REGISTRATION_OFFICER'] });
const PROCESSOR = { subject: 'regproc', roles: ['REGISTRATION_PROCESSOR'] };
const codeOf = async (work: Promise<unknown>) =>
  (
    (await work.then(
      () => undefined,
      (error: unknown) => error,
    )) as PlatformError | undefined
  )?.code;

/** An application, booked at `centre` when one is given. */
const place = (id: string, statusCode: ApplicationStatus, centre?: string): ApplicationPlace => ({
  application: { id, createdBy: 'amina', langCode: 'eng', statusCode, bookingType: 'NEW_PREREGISTRATION', createdAt: NOW, updatedBy: null, updatedAt: null },
  booking: centre ? { centreId: centre, date: new Date('2026-05-04T00:00:00.000Z'), fromTime: '09:00:00', toTime: '09:15:00' } : null,
});

/** Pre-registration's tables as sync sees them, in memory, with what the service did to them. */
class Tables {
  places = new Map<string, ApplicationPlace>();
  consumed = new Map<string, { by: string; movedAt: Date | null }>();
  bookings: SyncedBooking[] = [];
  files = new Map<string, string[]>();
  journal: string[] = [];
  reach = new Map<string, Reach>();

  add(...places: ApplicationPlace[]) {
    for (const each of places) this.places.set(each.application.id, each);
    return this;
  }

  service(): SyncService {
    return new SyncService({
      store: {
        bookedAt: (centreId, _from, _to, take) => Promise.resolve(this.bookings.filter((row) => row.centreId === centreId).slice(0, take)),
        places: (ids) => Promise.resolve(ids.flatMap((id) => this.places.get(id) ?? [])),
        consumedAmong: (ids) => Promise.resolve(new Set(ids.filter((id) => this.consumed.has(id)))),
        consume: async (ids, by, _at, then) => {
          for (const id of ids) if (!this.consumed.has(id)) this.consumed.set(id, { by, movedAt: null });
          await then({} as JobTx);
        },
        unmoved: (take) =>
          Promise.resolve(
            [...this.consumed]
              .filter(([, row]) => !row.movedAt)
              .map(([id]) => id)
              .slice(0, take),
          ),
        move: (id, at) => {
          this.journal.push(`move ${id}`);
          const row = this.consumed.get(id);
          if (!row || row.movedAt) return Promise.resolve(false);
          row.movedAt = at;
          this.places.delete(id);
          return Promise.resolve(true);
        },
      },
      reach: {
        of: (caller) => Promise.resolve(this.reach.get(caller.subject) ?? reachOf([])),
        centreExists: (id) => Promise.resolve(['10001', '10002'].includes(id)),
      },
      documentKeys: (id) => Promise.resolve(this.places.has(id) ? (this.files.get(id) ?? []) : []),
      objects: { delete: (key) => Promise.resolve(void this.journal.push(`delete ${key}`)) },
      jobs: { enqueue: (kind, payload) => Promise.resolve(void this.journal.push(`enqueue ${kind} ${JSON.stringify(payload)}`)) },
      clock: new ManualClock(NOW),
      logger,
    });
  }
}

describe('the ZIP for a registration client', () => {
  const lease = {
    docCatCode: 'POA',
    docTypeCode: 'RNC',
    langCode: 'eng',
    docName: 'my/lease.PDF',
    docFileFormat: 'pdf',
    refNumber: 'RC-1',
    bytes: Buffer.from('%PDF'),
  };

  it('names each document <category>_<file name>, as ID.json names it (value.format), path separators replaced', () => {
    expect(entryOf(lease)).toEqual({ value: 'POA_my_lease', format: 'PDF', name: 'POA_my_lease.PDF' });
    expect(entryOf({ ...lease, docName: 'scan' })).toEqual({ value: 'POA_scan', format: 'pdf', name: 'POA_scan.pdf' });
  });

  it('holds ID.json (the identity, each known category’s field set) and every document; sealed, only the machine’s private key opens it', async () => {
    const birth = { ...lease, docCatCode: 'POB', docTypeCode: 'BRC', docName: 'birth.png', refNumber: null, bytes: Buffer.from('png') };
    const other = { ...lease, docCatCode: 'OTH', docName: 'misc.pdf', refNumber: null };
    const zip = archiveZip(
      { fullName: 'Salma' },
      [lease, birth, other].map((document) => ({ ...document, typeName: `${document.docTypeCode} name` })),
      NOW,
    );
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const sealed = sealForMachine(publicKey, zip);
    const key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, sealed.subarray(0, 256));
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(256, 268)).setAAD(sealed.subarray(268, 300));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const opened = Buffer.concat([decipher.update(sealed.subarray(300, sealed.length - 16)), decipher.final()]);
    const entries = new Map((await readZip(opened, { maxUncompressedBytes: 1_000_000 })).map((entry) => [entry.name, entry.data.toString('utf8')]));
    expect([...entries.keys()]).toEqual(['ID.json', 'POA_my_lease.PDF', 'POB_birth.png', 'OTH_misc.pdf']);
    expect(JSON.parse(entries.get('ID.json')!)).toEqual({
      identity: {
        fullName: 'Salma',
        proofOfAddress: { value: 'POA_my_lease', type: 'RNC name', format: 'PDF', refNumber: 'RC-1' },
        proofOfDateOfBirth: { value: 'POB_birth', type: 'BRC name', format: 'png', refNumber: null },
      },
    });
  });
});

describe('which centre takes an application in', () => {
  it('a booked one only at its appointment’s centre; any other anywhere', () => {
    const at10001 = (centre: string) => centre === '10001';
    expect(takesIn(place('1', 'Booked', '10001'), at10001)).toBe(true);
    expect(takesIn(place('1', 'Booked', '10002'), at10001)).toBe(false);
    for (const status of ['Pending_Appointment', 'Application_Incomplete', 'Expired', 'Cancelled', 'Prefetched'] as const)
      expect(takesIn(place('1', status, '10002'), at10001)).toBe(true);
  });
});

describe('the sync of a centre', () => {
  const request = { registrationCenterId: '10001', fromDate: '2026-05-02', toDate: '2026-05-05' };

  it('checks the days’ order, the centre, the caller’s reach, and answers none in range with PRG_BOOK_RCI_032', async () => {
    const tables = new Tables();
    tables.reach.set('officer-10001', reachOf(['10001']));
    const sync = tables.service();
    expect(await codeOf(sync.list(officerOf('10001'), { ...request, fromDate: '2026-05-06' }))).toBe('PRG_CORE_REQ_020');
    expect(await codeOf(sync.list(officerOf('10001'), { ...request, registrationCenterId: '99999' }))).toBe('PRG_DATA_SYNC_009');
    expect(await codeOf(sync.list(officerOf('10002'), request))).toBe('KER-ATH-403');
    expect(await codeOf(sync.list(officerOf('10001'), request))).toBe('PRG_BOOK_RCI_032');
    tables.bookings = [{ preRegId: '1', centreId: '10001', date: new Date('2026-05-03T00:00:00.000Z'), fromTime: '09:00:00', toTime: '09:15:00' }];
    expect((await sync.list(officerOf('10001'), { ...request, toDate: null })).preRegistrationIds).toEqual([
      { preRegistrationId: '1', appointmentDate: '2026-05-03', fromTimeSlot: '09:00:00', toTimeSlot: '09:15:00' },
    ]);
    tables.bookings = Array.from({ length: MAX_SYNCED_IDS + 1 }, (_, i) => ({ ...tables.bookings[0]!, preRegId: String(i) }));
    expect(await codeOf(sync.list(officerOf('10001'), request))).toBe('PRG_CORE_REQ_004');
  });
});

describe('consumed pre-registrations', () => {
  it('stores each id once with the move’s job, answers one reported before again, and skips unknown ids', async () => {
    const tables = new Tables().add(place('1', 'Booked', '10001'), place('2', 'Prefetched'));
    const sync = tables.service();
    expect(await sync.report(PROCESSOR, ['1', '1', '9'])).toMatchObject({ countOfPreRegIds: 1, preRegistrationIds: ['1'] });
    expect(await sync.report(PROCESSOR, ['1', '2'])).toMatchObject({ countOfPreRegIds: 2, preRegistrationIds: ['1', '2'] });
    expect(tables.journal).toEqual(['enqueue prereg.consumed.move {"preRegIds":["1"]}', 'enqueue prereg.consumed.move {"preRegIds":["2"]}']);
  });

  it('lets a centre’s staff take in what is booked at their centre, and walk-ins only when they work at a centre', async () => {
    const tables = new Tables().add(place('1', 'Booked', '10001'), place('2', 'Booked', '10002'), place('3', 'Pending_Appointment'));
    tables.reach.set('officer-10001', reachOf(['10001']));
    const sync = tables.service();
    expect((await sync.report({ subject: 'nobody', roles: ['REGISTRATION_OFFICER'] }, ['1', '2', '3'])).preRegistrationIds).toEqual([]);
    expect((await sync.report(officerOf('10001'), ['1', '2', '3'])).preRegistrationIds).toEqual(['1', '3']);
  });

  it('consumes what a processed packet names only at the centre it is booked at', async () => {
    const tables = new Tables().add(place('1', 'Booked', '10001'), place('2', 'Booked', '10002'));
    const sync = tables.service();
    expect(await sync.consumeRegistered({ preRegId: '2', rid: 'r1', centreId: '10001' })).toBe(false);
    expect(await sync.consumeRegistered({ preRegId: '9', rid: 'r1', centreId: '10001' })).toBe(false);
    expect(await sync.consumeRegistered({ preRegId: '1', rid: 'r1', centreId: '10001' })).toBe(true);
    expect(await sync.consumeRegistered({ preRegId: '1', rid: 'r2', centreId: '10001' })).toBe(false);
    expect(tables.consumed.get('1')?.by).toBe('r1');
    expect([...tables.consumed.keys()]).toEqual(['1']);
  });

  it('moves consumed applications only, each one’s files removed before its rows', async () => {
    const tables = new Tables().add(place('1', 'Consumed', '10001'), place('2', 'Booked', '10001'));
    tables.consumed.set('1', { by: 'regproc', movedAt: null });
    tables.files.set('1', ['k1', 'k2']).set('2', ['k3']);
    const sync = tables.service();
    expect(await sync.moveConsumed(['1', '2'])).toBe(1);
    expect(await sync.moveConsumed()).toBe(0);
    expect(tables.journal).toEqual(['delete k1', 'delete k2', 'move 1']);
  });
});

describe('the fetch for a machine', () => {
  const machine = (over: Partial<MachinePlace> = {}): MachinePlace => ({
    known: true,
    machine: { name: 'm1', zoneCode: 'KTA', regCenterId: '10001' },
    centreId: '10001',
    ...over,
  });
  const fetcher = (places: ApplicationPlace[], over: Partial<ArchiveParts> = {}) => {
    const moves: string[] = [];
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const parts: ArchiveParts = {
      store: {
        places: (ids) => Promise.resolve(places.filter((each) => ids.includes(each.application.id))),
        consumedAmong: () => Promise.resolve(new Set()),
      },
      reach: { of: (caller) => Promise.resolve(reachOf(caller.subject === 'officer-10001' ? ['10001'] : ['10002'])) },
      identityOf: () => Promise.resolve({ fullName: 'Salma' }),
      documentsOf: () => Promise.resolve([]),
      typeName: (code) => Promise.resolve(code),
      machineWithId: () => Promise.resolve(machine()),
      machineKey: () => Promise.resolve(publicKey.export({ type: 'spki', format: 'der' }).toString('base64')),
      moveStatus: (id, _from, to) => Promise.resolve(moves.push(`${id} ${to}`) > 0),
      clock: new ManualClock(NOW),
      logger,
      ...over,
    };
    return { fetch: new ArchiveFetch(parts), moves };
  };

  it('checks the machine (known, active, placed, the caller’s, keyed) before the application', async () => {
    const officer = officerOf('10001');
    const cases: [Partial<ArchiveParts>, string][] = [
      [{ machineWithId: () => Promise.resolve(machine({ known: false, machine: null })) }, 'PRG_DATA_SYNC_018'],
      [{ machineWithId: () => Promise.resolve(machine({ machine: null })) }, 'PRG_DATA_SYNC_018'],
      [{ machineWithId: () => Promise.resolve(machine({ centreId: null })) }, 'PRG_DATA_SYNC_009'],
      [{ reach: { of: () => Promise.resolve(reachOf(['10002'])) } }, 'KER-ATH-403'],
      [{ machineKey: () => Promise.resolve(null) }, 'PRG_DATA_SYNC_018'],
    ];
    for (const [over, code] of cases) expect(await codeOf(fetcher([], over).fetch.forMachine(officer, '1', 'm1'))).toBe(code);
    expect(await codeOf(fetcher([]).fetch.forMachine(officer, '1', 'm1'))).toBe('PRG_PAM_APP_005');
    const consumed = { store: { places: () => Promise.resolve([]), consumedAmong: () => Promise.resolve(new Set(['1'])) } };
    expect(await codeOf(fetcher([], consumed).fetch.forMachine(officer, '1', 'm1'))).toBe('PRG_DATA_SYNC_022');
  });

  it('refuses an application booked elsewhere; makes a walk-in’s Prefetched; answers PRG_DATA_SYNC_007 for an identity that does not open', async () => {
    const officer = officerOf('10001');
    const { fetch, moves } = fetcher([place('1', 'Booked', '10002'), place('2', 'Pending_Appointment'), place('3', 'Booked', '10001')]);
    expect(await codeOf(fetch.forMachine(officer, '1', 'm1'))).toBe('PRG_DATA_SYNC_009');
    expect(await fetch.forMachine(officer, '2', 'm1')).toMatchObject({ registrationCenterId: '10001', appointmentDate: null, encrypted: true });
    expect(await fetch.forMachine(officer, '3', 'm1')).toMatchObject({ appointmentDate: '2026-05-04', fromTimeSlot: '09:00:00' });
    expect(moves).toEqual(['2 Prefetched']);
    const broken = fetcher([place('3', 'Booked', '10001')], { identityOf: () => Promise.reject(new PlatformError('PRG_PAM_CORE_012', 'Decryption failed')) });
    expect(await codeOf(broken.fetch.forMachine(officer, '3', 'm1'))).toBe('PRG_DATA_SYNC_007');
  });

  it('gives an admin a booked application of its zone unsealed, PRG_DATA_SYNC_016 without an appointment', async () => {
    const { fetch } = fetcher([place('1', 'Booked', '10001'), place('2', 'Pending_Appointment')]);
    expect(await fetch.forAdmin(officerOf('10001'), '1')).toMatchObject({ encrypted: false, registrationCenterId: '10001' });
    expect(await codeOf(fetch.forAdmin(officerOf('10001'), '2'))).toBe('PRG_DATA_SYNC_016');
    expect(await codeOf(fetch.forAdmin(officerOf('10002'), '1'))).toBe('KER-ATH-403');
  });
});
