import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NestedList } from '../../lib/graph/nested.js';
import { ManualClock } from '../../lib/time.js';
import { idrepoErrors } from '../../subgraphs/idrepo/errors.js';
import type { IdentityRow } from '../../subgraphs/idrepo/identities/service.js';
import { generateNumber, uinRules, vidRules, type NumberRules } from '../../lib/numbers.js';
import { GLOBAL_KEYS, readConfigFile } from '../../lib/global-configuration.js';
import { VidPolicies, type VidPolicyFile } from '../../subgraphs/idrepo/vids/policy.js';
import { VidService, type VidIdentities } from '../../subgraphs/idrepo/vids/service.js';
import type { LockedVids, NewVid, VidRow, VidStore } from '../../subgraphs/idrepo/vids/storage.js';

/*
 * The VID rules of vids/service.ts over an in-memory store: no database, no
 * HTTP. The fake keeps the storage's contract (vids/storage.ts): `locked`
 * runs one identity's work at a time and rolls it all back on a failure.
 */

const GLOBAL_FILE = fileURLToPath(new URL('../../config/syncdata/global.properties', import.meta.url));
const config = readConfigFile('PLATFORM_SYNC_GLOBAL_CONFIG', GLOBAL_FILE, GLOBAL_KEYS);
const RULES = { uin: uinRules(config), vid: vidRules(config) };
const MINUTE = 60_000;

const usable = (row: VidRow, now: Date) => row.status === 'ACTIVE' && (row.expiresAt === null || row.expiresAt > now);
const oldestFirst = (a: VidRow, b: VidRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

/** The VIDs' table in memory, and the identities' statuses the issuing reads under the lock. */
class MemoryVids implements VidStore {
  rows: VidRow[] = [];
  readonly identityStatuses = new Map<string, string>();
  /** Numbers a concurrent writer holds: taken for every draw. */
  takenEverywhere = false;
  private queue: Promise<unknown> = Promise.resolve();

  locked<T>(_identityId: string, work: (vids: LockedVids) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const before = this.rows.map((row) => ({ ...row }));
      try {
        return await work(this.lockedVids());
      } catch (error) {
        this.rows = before;
        throw error;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private lockedVids(): LockedVids {
    return {
      identityStatus: (identityId) => Promise.resolve(this.identityStatuses.get(identityId) ?? null),
      byId: (id) => Promise.resolve(this.rows.find((row) => row.id === id) ?? null),
      usableOfType: (identityId, vidType, now) =>
        Promise.resolve(
          this.rows
            .filter((row) => row.identityId === identityId && row.vidType === vidType && usable(row, now))
            .sort(oldestFirst)
            .map((row) => row.id),
        ),
      setStatus: (id, status, actor, now) => {
        Object.assign(
          this.rows.find((row) => row.id === id)!,
          { status, updatedBy: actor, updatedAt: now },
        );
        return Promise.resolve();
      },
      numberTaken: (vidHash) => Promise.resolve(this.takenEverywhere || this.rows.some((row) => row.vidHash === vidHash)),
      insert: (row: NewVid) => {
        this.rows.push({ ...row, updatedBy: null, updatedAt: null });
        return Promise.resolve();
      },
      moveAll: (identityId, from, to, actor, now) => {
        const moved = this.rows.filter((row) => row.identityId === identityId && row.status === from && (row.expiresAt === null || row.expiresAt > now));
        for (const row of moved) Object.assign(row, { status: to, updatedBy: actor, updatedAt: now });
        return Promise.resolve(moved.length);
      },
    };
  }

  byHash = (vidHash: string) => Promise.resolve(this.rows.find((row) => row.vidHash === vidHash) ?? null);
  byIds = (ids: readonly string[]) => Promise.resolve(this.rows.filter((row) => ids.includes(row.id)));
  usable = (identityId: string, now: Date) => Promise.resolve(this.rows.filter((row) => row.identityId === identityId && usable(row, now)).sort(oldestFirst));
  ofIdentities = (): NestedList<VidRow> => {
    throw new Error('the portal list is a query of the storage, not a rule');
  };
}

/** Look-ups as SHA-256 (hex, as the cipher's HMACs are); "encryption" that only binds the value to its place. */
const cipher = {
  lookup: (value: string) => createHash('sha256').update(value).digest('hex'),
  encrypt: (plain: Buffer, context: string) => `${context}|${plain.toString('utf8')}`,
  decrypt: (value: string, context: string) =>
    value.startsWith(`${context}|`) ? Promise.resolve(Buffer.from(value.slice(context.length + 1), 'utf8')) : Promise.reject(new Error('moved value')),
};

/** Identities by id and UIN, as the VID rules ask the identities area for them. */
class MemoryIdentities implements VidIdentities {
  readonly rows = new Map<string, { row: IdentityRow; uin: string }>();
  readonly audits: { identityId: string; parts: string[]; lookup: string }[] = [];

  constructor(private readonly store: MemoryVids) {}

  add(status = 'ACTIVATED'): { id: string; uin: string } {
    const id = `identity-${this.rows.size + 1}`;
    const uin = generateNumber(RULES.uin);
    const row = { id, uinHash: cipher.lookup(uin), status } as IdentityRow;
    this.rows.set(id, { row, uin });
    this.store.identityStatuses.set(id, status);
    return { id, uin };
  }

  setStatus(id: string, status: string): void {
    this.rows.get(id)!.row.status = status;
    this.store.identityStatuses.set(id, status);
  }

  byUin = (uin: string) => Promise.resolve([...this.rows.values()].find((entry) => entry.uin === uin)?.row ?? null);
  find = async (lookup: { uin: string } | { rid: string }) => {
    const row = 'uin' in lookup ? await this.byUin(lookup.uin) : null;
    if (!row) throw idrepoErrors.noRecord('no identity has this UIN');
    return row;
  };
  byIds = (ids: readonly string[]) => Promise.resolve(new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!.row] as const] : []))));
  uinOfRow = (row: IdentityRow) => Promise.resolve(this.rows.get(row.id)!.uin);
  audit = (_caller: unknown, identityId: string, parts: string[], lookup: string) => {
    this.audits.push({ identityId, parts, lookup });
    return Promise.resolve();
  };
}

const operator = { subject: 'operator', subjectType: 'client' as const, roles: ['ID_REPOSITORY'] };
const ida = { subject: 'ida', subjectType: 'client' as const, roles: ['ID_AUTHENTICATION'] };
const residentOf = (identityId: string) => ({ subject: identityId, subjectType: 'resident' as const, roles: ['RESIDENT'] });

let clock: ManualClock;
let store: MemoryVids;
let identities: MemoryIdentities;
let vids: VidService;

function serviceWith(policy?: VidPolicyFile, rules: { uin: NumberRules; vid: NumberRules } = RULES): VidService {
  return new VidService(store, clock, cipher, identities, new VidPolicies(policy), rules);
}

const statuses = () => store.rows.map((row) => `${row.vidType}:${row.status}`);

beforeEach(() => {
  clock = new ManualClock(new Date('2024-05-01T10:00:00Z'));
  store = new MemoryVids();
  identities = new MemoryIdentities(store);
  vids = serviceWith();
});

describe('VID rules over an in-memory store', () => {
  it('keeps one perpetual VID per UIN: a second replaces the first, REVOKED (auto-restore)', async () => {
    const { uin } = identities.add();
    const first = await vids.create(operator, { vidType: 'perpetual', uin });
    clock.advance(1000);
    const second = await vids.create(operator, { vidType: 'Perpetual', uin });
    expect(second.vid).not.toBe(first.vid);
    expect(statuses()).toEqual(['Perpetual:REVOKED', 'Perpetual:ACTIVE']);
    expect((await vids.listByUin(operator, uin)).map((info) => info.vid)).toEqual([second.vid]);
    await expect(vids.uinOf(ida, first.vid)).rejects.toMatchObject({ code: 'IDR-VID-001', message: 'VID is REVOKED' });
  });

  it('refuses a sixth temporary VID (no auto-restore) and changes nothing', async () => {
    const { uin } = identities.add();
    for (let made = 0; made < 5; made++) await vids.create(operator, { vidType: 'Temporary', uin });
    await expect(vids.create(operator, { vidType: 'Temporary', uin })).rejects.toMatchObject({ code: 'IDR-VID-003' });
    expect(statuses()).toEqual(Array(5).fill('Temporary:ACTIVE'));
  });

  it('holds the per-UIN limit when creates race (the check and the write under one lock)', async () => {
    const { uin } = identities.add();
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => vids.create(operator, { vidType: 'Temporary', uin })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result.reason as { code: string }).code)).toEqual(
      Array(3).fill('IDR-VID-003'),
    );
    expect(store.rows).toHaveLength(5);
  });

  it('lets a temporary VID expire after 30 minutes: it reads EXPIRED, resolves to nothing and frees its place', async () => {
    const { uin } = identities.add();
    const temporary = await vids.create(operator, { vidType: 'Temporary', uin });
    const [row] = store.rows;
    expect(row!.expiresAt).toEqual(new Date(clock.now().getTime() + 30 * MINUTE));
    expect(row!.transactionsLeft).toBe(1);
    expect(await vids.uinOf(ida, temporary.vid)).toBe(uin);
    clock.advance(30 * MINUTE);
    expect(vids.statusOf(row!)).toBe('EXPIRED');
    await expect(vids.uinOf(ida, temporary.vid)).rejects.toMatchObject({ code: 'IDR-VID-001', message: 'VID is EXPIRED' });
    expect(await vids.listByUin(operator, uin)).toEqual([]);
    expect(await vids.identityOfVid(temporary.vid, 'usable')).toBeNull();
    expect(await vids.identityOfVid(temporary.vid)).toMatchObject({ uinHash: cipher.lookup(uin) });
    for (let made = 0; made < 5; made++) await vids.create(operator, { vidType: 'Temporary', uin });
  });

  it('issues VIDs for ACTIVATED identities only, and a VID resolves only while its identity is', async () => {
    const blocked = identities.add('BLOCKED');
    await expect(vids.create(operator, { vidType: 'Perpetual', uin: blocked.uin })).rejects.toMatchObject({ code: 'IDR-VID-004', message: 'BLOCKED UIN' });
    const active = identities.add();
    const { vid } = await vids.create(operator, { vidType: 'Perpetual', uin: active.uin });
    identities.setStatus(active.id, 'DEACTIVATED');
    await expect(vids.uinOf(ida, vid)).rejects.toMatchObject({ code: 'IDR-VID-004' });
    await expect(vids.create(operator, { vidType: 'Shortlived', uin: active.uin })).rejects.toMatchObject({ code: 'IDR-IDC-002' });
    await expect(vids.create(operator, { vidType: 'Perpetual', uin: '123' })).rejects.toMatchObject({ code: 'IDR-IDC-002' });
    await expect(vids.create(operator, { vidType: 'Perpetual', uin: generateNumber(RULES.uin) })).rejects.toMatchObject({ code: 'IDR-IDC-007' });
  });

  it('audits the UIN a VID resolves to, by VID', async () => {
    const { id, uin } = identities.add();
    const { vid } = await vids.create(operator, { vidType: 'Perpetual', uin });
    expect(await vids.uinOf(ida, vid)).toBe(uin);
    expect(identities.audits).toEqual([{ identityId: id, parts: ['uin'], lookup: 'VID' }]);
  });

  it('restores a revoked perpetual VID with a successor; USED changes nothing on it; a temporary one is not restored', async () => {
    const { uin } = identities.add();
    const perpetual = await vids.create(operator, { vidType: 'Perpetual', uin });
    expect(await vids.updateStatus(ida, perpetual.vid, 'USED')).toMatchObject({ vidStatus: 'ACTIVE', restoredVid: null, vid: { status: 'ACTIVE' } });
    const revoked = await vids.updateStatus(operator, perpetual.vid, 'REVOKED');
    expect(revoked).toMatchObject({ vidStatus: 'REVOKED', restoredVid: { vid: expect.any(String), vidStatus: 'ACTIVE' }, vid: { status: 'REVOKED' } });
    const temporary = await vids.create(operator, { vidType: 'Temporary', uin });
    expect(await vids.updateStatus(operator, temporary.vid, 'REVOKED')).toMatchObject({ vidStatus: 'REVOKED', restoredVid: null, vid: { status: 'REVOKED' } });
    await expect(vids.updateStatus(operator, temporary.vid, 'USED')).rejects.toMatchObject({ code: 'IDR-VID-001', message: 'VID is REVOKED' });
    expect(statuses()).toEqual(['Perpetual:REVOKED', 'Perpetual:ACTIVE', 'Temporary:REVOKED']);
  });

  it('leaves everything as it was when a change is refused part-way (a revoke whose successor cannot be issued)', async () => {
    const { id, uin } = identities.add();
    const { vid } = await vids.create(operator, { vidType: 'Perpetual', uin });
    identities.setStatus(id, 'BLOCKED');
    await expect(vids.updateStatus(operator, vid, 'REVOKED')).rejects.toMatchObject({ code: 'IDR-VID-004' });
    expect(statuses()).toEqual(['Perpetual:ACTIVE']);
  });

  it('lets each caller set only its statuses, and a resident act on its own VIDs only', async () => {
    const mine = identities.add();
    const theirs = identities.add();
    const own = await vids.create(residentOf(mine.id), { vidType: 'Temporary', uin: mine.uin });
    const other = await vids.create(operator, { vidType: 'Temporary', uin: theirs.uin });
    await expect(vids.create(residentOf(mine.id), { vidType: 'Temporary', uin: theirs.uin })).rejects.toMatchObject({ code: 'IDR-IDC-011' });
    await expect(vids.updateStatus(ida, own.vid, 'REVOKED')).rejects.toMatchObject({ code: 'IDR-IDC-002' });
    await expect(vids.updateStatus(residentOf(mine.id), own.vid, 'USED')).rejects.toMatchObject({ code: 'IDR-IDC-011' });
    await expect(vids.updateStatus(residentOf(mine.id), other.vid, 'REVOKED')).rejects.toMatchObject({ code: 'IDR-IDC-011' });
    expect(await vids.updateStatus(residentOf(mine.id), own.vid, 'REVOKED')).toMatchObject({ vidStatus: 'REVOKED' });
    // The trail names the role, not the resident's identity.
    expect(store.rows.map((row) => [row.createdBy, row.updatedBy])).toEqual([
      ['resident', 'resident'],
      ['operator', null],
    ]);
  });

  it('regenerates a temporary VID (INVALIDATED, a new one made), never a perpetual one', async () => {
    const { uin } = identities.add();
    const temporary = await vids.create(operator, { vidType: 'Temporary', uin });
    clock.advance(30 * MINUTE);
    const regenerated = await vids.regenerate(operator, temporary.vid);
    expect(regenerated).toEqual({ vid: expect.any(String), vidStatus: 'ACTIVE', id: expect.any(String) });
    await expect(vids.regenerate(operator, temporary.vid)).rejects.toMatchObject({ code: 'IDR-VID-001', message: 'VID is INVALIDATED' });
    const perpetual = await vids.create(operator, { vidType: 'Perpetual', uin });
    await expect(vids.regenerate(operator, perpetual.vid)).rejects.toMatchObject({ code: 'IDR-VID-003' });
    expect(statuses()).toEqual(['Temporary:INVALIDATED', 'Temporary:ACTIVE', 'Perpetual:ACTIVE']);
  });

  it('deactivates and reactivates every unexpired VID of a UIN, and says so when there is none', async () => {
    const { uin } = identities.add();
    await vids.create(operator, { vidType: 'Perpetual', uin });
    await vids.create(operator, { vidType: 'Temporary', uin });
    clock.advance(30 * MINUTE);
    expect(await vids.deactivate(operator, uin)).toEqual({ vidStatus: 'DEACTIVATED' });
    expect(statuses()).toEqual(['Perpetual:DEACTIVATED', 'Temporary:ACTIVE']);
    await expect(vids.deactivate(operator, uin)).rejects.toMatchObject({ code: 'IDR-IDC-007' });
    expect(await vids.reactivate(operator, uin)).toEqual({ vidStatus: 'ACTIVE' });
    expect(statuses()).toEqual(['Perpetual:ACTIVE', 'Temporary:ACTIVE']);
  });

  it('refuses changes to a VID whose type the policy no longer has', async () => {
    const { uin } = identities.add();
    const { vid } = await vids.create(operator, { vidType: 'Temporary', uin });
    const perpetualOnly = serviceWith({ vidPolicies: [{ vidType: 'Perpetual', vidPolicy: new VidPolicies().find('Perpetual')!.policy }] });
    await expect(perpetualOnly.updateStatus(operator, vid, 'REVOKED')).rejects.toMatchObject({ code: 'IDR-VID-003' });
    expect(statuses()).toEqual(['Temporary:ACTIVE']);
  });

  it('answers IDR-VID-002 when every number drawn is taken, storing nothing', async () => {
    const { uin } = identities.add();
    store.takenEverywhere = true;
    await expect(vids.create(operator, { vidType: 'Perpetual', uin })).rejects.toMatchObject({ code: 'IDR-VID-002', message: 'Failed to generate VID' });
    expect(store.rows).toEqual([]);
  });

  it('refuses a stored VID whose number does not match its look-up', async () => {
    const { uin } = identities.add();
    await vids.create(operator, { vidType: 'Perpetual', uin });
    const [row] = store.rows;
    await expect(vids.vidOf({ ...row!, vidHash: cipher.lookup('9619087284974607') })).rejects.toMatchObject({ code: 'IDR-IDS-003' });
  });
});
