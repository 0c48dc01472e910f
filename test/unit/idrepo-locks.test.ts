import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import type { IdentityRow } from '../../subgraphs/idrepo/identities/service.js';
import { AuthTypeLockService, lockKey, lockSettings, type LockRequest, type LockSettings } from '../../subgraphs/idrepo/locks/service.js';
import type { LockRow, LockStore } from '../../subgraphs/idrepo/locks/storage.js';
import { generateNumber } from '../../lib/numbers.js';
import { GLOBAL_KEYS, readConfigFile } from '../../lib/global-configuration.js';

/*
 * The lock rules of locks/service.ts over an in-memory store, with the
 * identities and VIDs they resolve numbers through: no database, no HTTP.
 */

const GLOBAL_FILE = fileURLToPath(new URL('../../config/syncdata/global.properties', import.meta.url));
const config = readConfigFile('PLATFORM_SYNC_GLOBAL_CONFIG', GLOBAL_FILE, GLOBAL_KEYS);
const SETTINGS = lockSettings(config);
const NOW = new Date('2024-05-01T10:00:00.000Z');

/** The locks' table in memory. */
class MemoryLocks implements LockStore {
  rows: LockRow[] = [];

  save(identityId: string, changes: ReadonlyMap<string, boolean>, _updatedBy: string, now: Date): Promise<void> {
    for (const [authType, locked] of changes) {
      const row = this.rows.find((stored) => stored.identityId === identityId && stored.authType === authType);
      if (row) Object.assign(row, { locked, updatedAt: now });
      else this.rows.push({ identityId, authType, locked, updatedAt: now });
    }
    return Promise.resolve();
  }

  ofIdentities(identityIds: readonly string[]): Promise<LockRow[]> {
    const order = (row: LockRow) => `${row.identityId}\0${row.authType}`;
    return Promise.resolve(this.rows.filter((row) => identityIds.includes(row.identityId)).sort((a, b) => order(a).localeCompare(order(b))));
  }
}

/** Who owns which number: identities by UIN, and usable VIDs. */
const byUin = new Map<string, IdentityRow>();
const byVid = new Map<string, IdentityRow>();
const identities = { byUin: (uin: string) => Promise.resolve(byUin.get(uin) ?? null) };
const vids = { identityOfVid: (vid: string) => Promise.resolve(byVid.get(vid) ?? null) };

function person(status = 'ACTIVATED') {
  const row = { id: `identity-${byUin.size + 1}`, status } as IdentityRow;
  const uin = generateNumber(SETTINGS.uinRules);
  const vid = generateNumber(SETTINGS.vidRules);
  byUin.set(uin, row);
  byVid.set(vid, row);
  return { id: row.id, uin, vid, caller: { subject: row.id, subjectType: 'resident' as const, roles: ['RESIDENT'] } };
}

let clock: ManualClock;
let store: MemoryLocks;
const serviceWith = (settings: LockSettings = SETTINGS) => new AuthTypeLockService(store, clock, identities, vids, settings);

const request = (individualId: string, over: Partial<LockRequest> = {}): LockRequest => ({
  requestTime: NOW.toISOString(),
  consentObtained: true,
  individualId,
  authTypes: [{ authType: 'otp', isLocked: true }],
  ...over,
});

beforeEach(() => {
  clock = new ManualClock(NOW);
  store = new MemoryLocks();
  byUin.clear();
  byVid.clear();
});

describe('authentication-type lock keys', () => {
  it('names otp, demo and bio, bio by modality, ignoring case and spaces, and nothing else', () => {
    expect(lockKey('OTP')).toBe('otp');
    expect(lockKey(' demo ', '')).toBe('demo');
    expect(lockKey('bio', 'finger')).toBe('bio-Finger');
    expect(lockKey('Bio', 'IRIS')).toBe('bio-Iris');
    expect(lockKey('bio', 'Palm')).toBeUndefined();
    expect(lockKey('otp', 'Face')).toBeUndefined();
    expect(lockKey('kyc')).toBeUndefined();
  });

  it('reads the request window and id types from the global configuration', () => {
    expect(SETTINGS).toMatchObject({ allowedAgeSeconds: 86_400, allowedAheadSeconds: 120, idTypes: ['UIN', 'VID'] });
    const custom = lockSettings({ ...config, 'authrequest.received-time-allowed.seconds': '600', 'request.idtypes.allowed': ' vid ,PASSPORT' });
    expect(custom).toMatchObject({ allowedAgeSeconds: 600, idTypes: ['VID'] });
    expect(() => lockSettings({ ...config, 'authrequest.received-time-adjustment.seconds': '2m' })).toThrow(/whole number of seconds/);
  });
});

describe('lock rules over an in-memory store', () => {
  it("locks and unlocks the resident's own identity by UIN or VID, and reads back every type changed so far", async () => {
    const { uin, vid, caller } = person();
    const locks = serviceWith();
    await locks.update(caller, request(uin, { individualIdType: 'UIN', authTypes: [{ authType: 'bio', authSubType: 'Finger', isLocked: true }] }));
    clock.advance(1000);
    const after = await locks.update(caller, request(vid, { requestTime: null, authTypes: [{ authType: 'otp', isLocked: true }] }));
    expect(after).toEqual([
      { authType: 'bio', authSubType: 'Finger', isLocked: true, updatedAt: NOW },
      { authType: 'otp', authSubType: null, isLocked: true, updatedAt: new Date(NOW.getTime() + 1000) },
    ]);
    await locks.update(caller, request(vid, { requestTime: null, authTypes: [{ authType: 'OTP', isLocked: false }] }));
    expect((await locks.status(caller, uin, 'uin')).map((state) => [state.authType, state.isLocked])).toEqual([
      ['bio', true],
      ['otp', false],
    ]);
  });

  it("accepts a request made within a day of the platform's clock and at most two minutes ahead of it", async () => {
    const { vid, caller } = person();
    const locks = serviceWith();
    const at = (offsetMs: number) => request(vid, { requestTime: new Date(NOW.getTime() + offsetMs).toISOString() });
    await expect(locks.update(caller, at(-86_400_000))).resolves.toHaveLength(1);
    await expect(locks.update(caller, at(120_000))).resolves.toHaveLength(1);
    await expect(locks.update(caller, at(-86_400_001))).rejects.toMatchObject({
      code: 'IDA-MLC-001',
      message: 'Request to be received at the platform within 24 hours',
    });
    await expect(locks.update(caller, at(120_001))).rejects.toMatchObject({ code: 'IDA-MLC-001' });
    await expect(locks.update(caller, request(vid, { requestTime: 'yesterday' }))).rejects.toMatchObject({ code: 'IDA-MLC-009' });
  });

  it('refuses before anything is read or written: no consent, an id type the country does not allow, a type named twice or not lockable', async () => {
    const { uin, vid, caller } = person();
    await expect(serviceWith().update(caller, request(vid, { consentObtained: false }))).rejects.toMatchObject({ code: 'IDA-MLC-012' });
    await expect(serviceWith({ ...SETTINGS, idTypes: ['VID'] }).update(caller, request(uin, { individualIdType: 'UIN' }))).rejects.toMatchObject({
      code: 'IDA-MLC-015',
      message: 'Identity Type - UIN not configured for the country',
    });
    const twice = [
      { authType: 'otp', isLocked: true },
      { authType: 'OTP', isLocked: false },
    ];
    await expect(serviceWith().update(caller, request(vid, { authTypes: twice }))).rejects.toMatchObject({
      code: 'IDA-MLC-009',
      message: /otp is listed twice/,
    });
    await expect(serviceWith().update(caller, request(vid, { authTypes: [{ authType: 'bio', authSubType: 'Palm', isLocked: true }] }))).rejects.toMatchObject({
      code: 'IDA-MLC-009',
      message: /bio\/Palm cannot be locked/,
    });
    await expect(serviceWith().update(caller, request(vid, { authTypes: [] }))).rejects.toMatchObject({ code: 'IDA-MLC-006' });
    expect(store.rows).toEqual([]);
  });

  it("checks the number against its rules, then answers an unknown one and another resident's alike", async () => {
    const mine = person();
    const other = person();
    const locks = serviceWith();
    await expect(locks.update(mine.caller, request('123', { individualIdType: 'UIN' }))).rejects.toMatchObject({ code: 'IDA-MLC-002', message: 'Invalid UIN' });
    await expect(locks.update(mine.caller, request('123'))).rejects.toMatchObject({ code: 'IDA-MLC-009' });
    await expect(locks.update(mine.caller, request(generateNumber(SETTINGS.vidRules)))).rejects.toMatchObject({
      code: 'IDA-MLC-018',
      message: 'VID not available in database',
    });
    await expect(locks.update(mine.caller, request(other.vid))).rejects.toMatchObject({ code: 'IDA-MLC-018', message: 'VID not available in database' });
    await expect(locks.status(mine.caller, other.uin, 'UIN')).rejects.toMatchObject({ code: 'IDA-MLC-018', message: 'UIN not available in database' });
    expect(store.rows).toEqual([]);
  });

  it("lets ID authentication and the repository's operators read any identity's locks, never change them", async () => {
    const { id, uin, caller } = person();
    const locks = serviceWith();
    await locks.update(caller, request(uin, { individualIdType: 'UIN' }));
    for (const role of ['ID_AUTHENTICATION', 'ID_REPOSITORY']) {
      const reader = { subject: 'reader', subjectType: 'client' as const, roles: [role] };
      expect(await locks.status(reader, uin, 'UIN')).toEqual([{ authType: 'otp', authSubType: null, isLocked: true, updatedAt: NOW }]);
      await expect(locks.update(reader, request(uin, { individualIdType: 'UIN' }))).rejects.toMatchObject({ code: 'IDA-MLC-018' });
    }
    expect((await locks.byIdentities([id, 'identity-unknown'])).get(id)).toHaveLength(1);
  });

  it("refuses to change a BLOCKED or DEACTIVATED identity's locks", async () => {
    const blocked = person('BLOCKED');
    const deactivated = person('DEACTIVATED');
    const locks = serviceWith();
    await expect(locks.update(blocked.caller, request(blocked.vid))).rejects.toMatchObject({ code: 'IDA-MLC-003', message: 'UIN has been blocked' });
    await expect(locks.update(deactivated.caller, request(deactivated.vid))).rejects.toMatchObject({
      code: 'IDA-MLC-003',
      message: 'UIN has been deactivated',
    });
    expect(store.rows).toEqual([]);
  });
});
