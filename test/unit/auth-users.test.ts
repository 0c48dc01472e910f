import { Port } from '../../lib/port.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../lib/errors.js';
import { connection, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { MasterKey } from '../../lib/master-key.js';
import { verifyClientSecret, verifyPassword } from '../../lib/secrets.js';
import { ManualClock } from '../../lib/time.js';
import type { ClientChanges, ClientFilter, ClientRow, NewClient } from '../../subgraphs/auth/storage/clients.js';
import type { ThrottleStore } from '../../subgraphs/auth/storage/throttle.js';
import type { NewUser, UserChanges, UserQuery, UserRow, UserStore } from '../../subgraphs/auth/storage/users.js';
import { LoginThrottle } from '../../subgraphs/auth/throttle.js';
import { UserScopes, type UserPlacement } from '../../subgraphs/auth/user-scope.js';
import { UsersService, type UsersServiceDeps } from '../../subgraphs/auth/users-service.js';

/*
 * Users and clients administration (auth/users-service.ts) over in-memory
 * auth_user and auth_client tables: creation, changes, locks, roles, password
 * expiry and the password change's throttle. No database, no HTTP.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const DAY_MS = 86_400_000;
const SECRET_KEY = MasterKey.fromPassphrase('auth unit tests').derive('auth/client-secret-hmac');

/** auth_user in memory: unique user ids, the table's defaults, ids in order. */
class MemoryUsers implements UserStore {
  readonly rows = new Map<string, UserRow>();

  constructor(private readonly clock: ManualClock) {}

  private stored(user: NewUser): UserRow {
    const now = this.clock.now();
    return {
      id: `id-${user.userId}`,
      name: null,
      mail: null,
      mobile: null,
      langCode: 'eng',
      rid: null,
      passwordHash: null,
      passwordChangedAt: null,
      isLocked: false,
      createdAt: now,
      updatedAt: now,
      ...user,
    };
  }

  byId(userId: string): Promise<UserRow | null> {
    return Promise.resolve(this.rows.get(userId) ?? null);
  }

  byIds(userIds: readonly string[]): Promise<UserRow[]> {
    return Promise.resolve(userIds.flatMap((userId) => this.rows.get(userId) ?? []));
  }

  page(page: PageArgs, query: UserQuery): Promise<Connection<UserRow>> {
    const contains = (value: string | null, part?: string | null) => !part || (value ?? '').toLowerCase().includes(part.toLowerCase());
    const rows = [...this.rows.values()]
      .filter(
        (row) =>
          contains(row.userId, query.userId) &&
          contains(row.name, query.name) &&
          (!query.role || row.roles.includes(query.role)) &&
          (!query.appId || row.appIds.includes(query.appId)) &&
          (query.isLocked == null || row.isLocked === query.isLocked) &&
          (!query.among || query.among.has(row.userId)),
      )
      .sort((a, b) => a.userId.localeCompare(b.userId));
    return connection(
      page,
      (row) => row.userId,
      ({ take }) => Promise.resolve(rows.slice(0, take)),
      () => Promise.resolve(rows.length),
    );
  }

  count(): Promise<number> {
    return Promise.resolve(this.rows.size);
  }

  create(user: NewUser): Promise<UserRow> {
    if (this.rows.has(user.userId)) return Promise.reject(new Error('unique constraint: userId'));
    const row = this.stored(user);
    this.rows.set(user.userId, row);
    return Promise.resolve(row);
  }

  update(userId: string, changes: UserChanges): Promise<UserRow> {
    const row = this.rows.get(userId);
    if (!row) return Promise.reject(new Error(`no auth_user ${userId}`));
    Object.assign(row, changes, { updatedAt: this.clock.now() });
    return Promise.resolve(row);
  }

  async insertIfAbsent(user: NewUser): Promise<boolean> {
    if (this.rows.has(user.userId)) return false;
    await this.create(user);
    return true;
  }

  async findOrCreate(user: NewUser): Promise<UserRow> {
    return this.rows.get(user.userId) ?? this.create(user);
  }
}

type ClientRows = UsersServiceDeps['clients'];

/** auth_client in memory. */
class MemoryClients implements ClientRows {
  readonly rows = new Map<string, ClientRow>();

  byId(clientId: string): Promise<ClientRow | null> {
    return Promise.resolve(this.rows.get(clientId) ?? null);
  }

  byIds(clientIds: readonly string[]): Promise<ClientRow[]> {
    return Promise.resolve(clientIds.flatMap((clientId) => this.rows.get(clientId) ?? []));
  }

  page(page: PageArgs, filter?: ClientFilter | null): Promise<Connection<ClientRow>> {
    const rows = [...this.rows.values()].filter((row) => filter?.isActive == null || row.isActive === filter.isActive);
    return connection(
      page,
      (row) => row.clientId,
      ({ take }) => Promise.resolve(rows.slice(0, take)),
      () => Promise.resolve(rows.length),
    );
  }

  create(client: NewClient): Promise<ClientRow> {
    const row: ClientRow = { id: `id-${client.clientId}`, isActive: true, createdAt: NOW, updatedAt: NOW, ...client };
    this.rows.set(client.clientId, row);
    return Promise.resolve(row);
  }

  update(clientId: string, changes: ClientChanges): Promise<ClientRow> {
    const row = this.rows.get(clientId);
    if (!row) return Promise.reject(new Error(`no auth_client ${clientId}`));
    return Promise.resolve(Object.assign(row, changes));
  }
}

/** auth_throttle in memory: the same windows as the SQL upsert. */
class MemoryCounters implements ThrottleStore {
  readonly rows = new Map<string, { windowStart: Date; count: number }>();

  increment(bucket: string, now: Date, expired: Date): Promise<number> {
    const row = this.rows.get(bucket);
    if (!row || row.windowStart <= expired) this.rows.set(bucket, { windowStart: now, count: 1 });
    else row.count += 1;
    return Promise.resolve(this.rows.get(bucket)!.count);
  }

  clear(bucket: string): Promise<void> {
    this.rows.delete(bucket);
    return Promise.resolve();
  }

  sweep(before: Date): Promise<void> {
    for (const [bucket, row] of this.rows) if (row.windowStart < before) this.rows.delete(bucket);
    return Promise.resolve();
  }
}

/** Where master data places users: the zonal admin `zonal` administers `officer1` and `officer2`. */
const placement: UserPlacement = {
  usersAdministeredBy: (caller) => Promise.resolve(new Set(caller.subject === 'zonal' ? ['officer1', 'officer2'] : [])),
  placedUsers: () => Promise.resolve(new Set(['officer2', 'officer3'])),
};

let clock: ManualClock;
let users: MemoryUsers;
let clients: MemoryClients;
let revoked: string[];
let service: UsersService;

/** Master data's user places, plugged in as master data does. */
const placedBy = (placement: UserPlacement) => {
  const port = new Port<UserPlacement>('user places');
  port.plug(placement);
  return port;
};

const make = (maxAgeDays = 0, limits = { account: 3, address: 100 }) =>
  new UsersService(
    { users, clients, tokens: { revokeSubject: (subject) => (revoked.push(subject), Promise.resolve(1)) }, clock },
    SECRET_KEY,
    { throttle: new LoginThrottle(new MemoryCounters(), clock, limits, Buffer.alloc(32, 7)), maxAgeDays },
    new UserScopes(placedBy(placement)),
  );

/** The platform error a call fails with: its code and message. */
async function failure(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await work().then(
    () => undefined,
    (failed: unknown) => failed,
  );
  if (!(error instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(error)}`);
  return { code: error.code, message: error.message };
}

beforeEach(() => {
  clock = new ManualClock(NOW);
  users = new MemoryUsers(clock);
  clients = new MemoryClients();
  revoked = [];
  service = make();
});

describe('creating a user', () => {
  it('stores the profile with the defaults (language eng, no roles) and a scrypt hash of the password, set now', async () => {
    const user = await service.createUser({ userId: 'officer1', name: 'Officer One', password: 'correct horse', roles: ['REGISTRATION_OFFICER'] });
    expect(user).toMatchObject({ userId: 'officer1', name: 'Officer One', langCode: 'eng', roles: ['REGISTRATION_OFFICER'], appIds: [], mail: null });
    expect(user.passwordHash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', user.passwordHash)).toBe(true);
    expect(user.passwordChangedAt).toEqual(NOW);
  });

  it('stores no password when none is given', async () => {
    const user = await service.createUser({ userId: 'officer1' });
    expect(user.passwordHash).toBeNull();
    expect(user.passwordChangedAt).toBeNull();
  });

  it('refuses a malformed user id, profile, password, role or application before storing anything (KER-ATH-400)', async () => {
    const cases: [Parameters<UsersService['createUser']>[0], string][] = [
      [{ userId: 'has space' }, 'Invalid input: userId is 1 to 64 letters, digits or . @ + - _'],
      [{ userId: 'x'.repeat(65) }, 'Invalid input: userId is 1 to 64 letters, digits or . @ + - _'],
      [{ userId: 'u1', mail: 'not-mail' }, 'Invalid input: mail is not an e-mail address'],
      [{ userId: 'u1', mobile: '12' }, 'Invalid input: mobile is 6 to 15 digits'],
      [{ userId: 'u1', langCode: 'en' }, 'Invalid input: langCode is a three-letter ISO 639-2 code'],
      [{ userId: 'u1', password: 'short' }, 'Invalid input: password has at least 8 characters'],
      [{ userId: 'u1', roles: ['EMPEROR'] }, 'Invalid input: unknown role EMPEROR'],
      [{ userId: 'u1', appIds: ['elsewhere'] }, 'Invalid input: unknown appId elsewhere'],
    ];
    for (const [input, message] of cases) expect(await failure(() => service.createUser(input))).toEqual({ code: 'KER-ATH-400', message });
    expect(users.rows.size).toBe(0);
  });

  it('refuses a user id that exists (KER-ATH-409)', async () => {
    await service.createUser({ userId: 'officer1' });
    expect(await failure(() => service.createUser({ userId: 'officer1', name: 'again' }))).toEqual({
      code: 'KER-ATH-409',
      message: 'User officer1 already exists',
    });
    expect(users.rows.get('officer1')!.name).toBeNull();
  });
});

describe('changing a user', () => {
  beforeEach(async () => {
    await service.createUser({ userId: 'officer1', name: 'Officer One', mail: 'one@example.org', roles: ['REGISTRATION_OFFICER'], appIds: ['admin'] });
  });

  it('changes only what is given; a profile change keeps the sessions', async () => {
    const user = await service.updateUser('officer1', { name: 'Officer 1', mail: null, mobile: undefined });
    expect(user).toMatchObject({ name: 'Officer 1', mail: 'one@example.org', roles: ['REGISTRATION_OFFICER'] });
    expect(revoked).toEqual([]);
  });

  it('ends the sessions when roles or applications change (they take effect at the next login)', async () => {
    await service.updateUser('officer1', { roles: ['REGISTRATION_SUPERVISOR'] });
    await service.updateUser('officer1', { appIds: ['registrationclient'] });
    expect(users.rows.get('officer1')).toMatchObject({ roles: ['REGISTRATION_SUPERVISOR'], appIds: ['registrationclient'] });
    expect(revoked).toEqual(['officer1', 'officer1']);
  });

  it('checks the profile before the user exists, and an unknown user is KER-ATH-003', async () => {
    expect((await failure(() => service.updateUser('nobody', { roles: ['EMPEROR'] }))).code).toBe('KER-ATH-400');
    expect(await failure(() => service.updateUser('nobody', { name: 'x' }))).toEqual({ code: 'KER-ATH-003', message: 'User detail does not exist: nobody' });
  });

  it('locks (ending the sessions) and unlocks (keeping none to end)', async () => {
    expect((await service.setLocked('officer1', true)).isLocked).toBe(true);
    expect(revoked).toEqual(['officer1']);
    expect((await service.setLocked('officer1', false)).isLocked).toBe(false);
    expect(revoked).toEqual(['officer1']);
    expect((await failure(() => service.setLocked('nobody', true))).code).toBe('KER-ATH-003');
  });

  it('resets a password: a new hash, set now, every session ended', async () => {
    clock.advance(DAY_MS);
    const user = await service.resetPassword('officer1', 'new password 1');
    expect(await verifyPassword('new password 1', user.passwordHash)).toBe(true);
    expect(user.passwordChangedAt).toEqual(new Date(NOW.getTime() + DAY_MS));
    expect(revoked).toEqual(['officer1']);
    expect((await failure(() => service.resetPassword('officer1', 'short'))).code).toBe('KER-ATH-400');
  });
});

describe('a user changing its own password', () => {
  const caller = { subject: 'officer1', subjectType: 'user' as const };

  beforeEach(async () => {
    await service.createUser({ userId: 'officer1', password: 'first password' });
  });

  it('takes the current password, stores the new one and ends every session', async () => {
    clock.advance(1000);
    expect(await service.changePassword(caller, 'first password', 'second password', '10.0.0.1')).toBe(true);
    const row = users.rows.get('officer1')!;
    expect(await verifyPassword('second password', row.passwordHash)).toBe(true);
    expect(row.passwordChangedAt).toEqual(new Date(NOW.getTime() + 1000));
    expect(revoked).toEqual(['officer1']);
  });

  it('refuses a client, the same password and a short one, in that order', async () => {
    expect((await failure(() => service.changePassword({ ...caller, subjectType: 'client' }, 'a', 'b', 'x'))).message).toBe(
      'Invalid input: only a user has a password to change',
    );
    expect((await failure(() => service.changePassword(caller, 'first password', 'short', 'x'))).message).toBe(
      'Invalid input: password has at least 8 characters',
    );
    expect((await failure(() => service.changePassword(caller, 'first password', 'first password', 'x'))).message).toBe(
      'Invalid input: the new password is the current one',
    );
  });

  it('counts wrong current passwords against the login limits: past them even the right one is throttled', async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await failure(() => service.changePassword(caller, 'wrong password', 'second password', '10.0.0.1'))).toEqual({
        code: 'KER-ATH-023',
        message: 'Invalid Credentials',
      });
    }
    expect(await failure(() => service.changePassword(caller, 'first password', 'second password', '10.0.0.1'))).toEqual({
      code: 'KER-ATH-023',
      message: 'Invalid Credentials: too many attempts, try again later',
    });
    expect(await verifyPassword('first password', users.rows.get('officer1')!.passwordHash)).toBe(true);
    expect(revoked).toEqual([]);
  });
});

describe('password expiry', () => {
  it('never expires with no maximum age, or without a password', async () => {
    const user = await service.createUser({ userId: 'officer1', password: 'first password' });
    expect(service.passwordExpiresAt(user)).toBeNull();
    const aging = make(90);
    expect(aging.passwordExpiresAt({ passwordHash: null, passwordChangedAt: NOW })).toBeNull();
    expect(aging.passwordExpiresAt({ passwordHash: 'x', passwordChangedAt: null })).toBeNull();
  });

  it('expires the maximum age after the password was set, and a new password starts it again', async () => {
    service = make(90);
    const user = await service.createUser({ userId: 'officer1', password: 'first password' });
    expect(service.passwordExpiresAt(user)).toEqual(new Date(NOW.getTime() + 90 * DAY_MS));
    clock.advance(100 * DAY_MS);
    const reset = await service.resetPassword('officer1', 'second password');
    expect(service.passwordExpiresAt(reset)).toEqual(new Date(NOW.getTime() + 190 * DAY_MS));
  });
});

describe('roles and scopes', () => {
  beforeEach(async () => {
    for (const userId of ['officer1', 'officer2', 'officer3']) await service.createUser({ userId, roles: ['REGISTRATION_OFFICER'] });
  });

  it("shows a global admin every user's roles, a zonal admin only those of its zones' users (KER-ATH-403)", async () => {
    const global = await service.scopeOf({ subject: 'root', roles: ['GLOBAL_ADMIN'] });
    const zonal = await service.scopeOf({ subject: 'zonal', roles: ['ZONAL_ADMIN'] });
    const officer3 = users.rows.get('officer3')!;
    expect(service.rolesOf(global, officer3)).toEqual(['REGISTRATION_OFFICER']);
    expect(service.rolesOf(zonal, users.rows.get('officer1')!)).toEqual(['REGISTRATION_OFFICER']);
    expect(() => service.rolesOf(zonal, officer3)).toThrow("Forbidden: user officer3 is not one of the caller's zones");
  });

  it("lists a zonal admin's users only, narrowed further by a placement filter", async () => {
    const zonal = await service.scopeOf({ subject: 'zonal', roles: ['ZONAL_ADMIN'] });
    const ids = async (page: Promise<Connection<UserRow>>) => (await page).edges.map((edge) => edge.node.userId);
    expect(await ids(service.users(zonal, {}))).toEqual(['officer1', 'officer2']);
    expect(await ids(service.users(zonal, {}, { zoneCode: 'NTH' }))).toEqual(['officer2']);
    const global = await service.scopeOf({ subject: 'root', roles: ['GLOBAL_ADMIN'] });
    expect(await ids(service.users(global, {}))).toEqual(['officer1', 'officer2', 'officer3']);
    expect(await ids(service.users(global, {}, { zoneCode: 'NTH' }))).toEqual(['officer2', 'officer3']);
  });
});

describe('clients', () => {
  it('issues a secret shown once, kept as an HMAC; a rotation replaces it and ends the sessions', async () => {
    const created = await service.createClient({ clientId: 'machine1', roles: ['REGISTRATION_PROCESSOR'], appIds: ['registrationprocessor'] });
    const row = clients.rows.get('machine1')!;
    expect(row.secretHash).not.toContain(created.secretKey);
    expect(verifyClientSecret(created.secretKey, row.secretHash, SECRET_KEY)).toBe(true);
    const rotated = await service.rotateClientSecret('machine1');
    expect(rotated.secretKey).not.toBe(created.secretKey);
    expect(verifyClientSecret(created.secretKey, clients.rows.get('machine1')!.secretHash, SECRET_KEY)).toBe(false);
    expect(verifyClientSecret(rotated.secretKey, clients.rows.get('machine1')!.secretHash, SECRET_KEY)).toBe(true);
    expect(revoked).toEqual(['machine1']);
  });

  it('refuses a taken client id (KER-ATH-409), an unknown one (KER-ATH-003) and an unknown role (KER-ATH-400)', async () => {
    await service.createClient({ clientId: 'machine1' });
    expect((await failure(() => service.createClient({ clientId: 'machine1' }))).code).toBe('KER-ATH-409');
    expect(await failure(() => service.updateClient('machine9', { isActive: false }))).toEqual({
      code: 'KER-ATH-003',
      message: 'Client does not exist: machine9',
    });
    expect((await failure(() => service.updateClient('machine1', { roles: ['EMPEROR'] }))).code).toBe('KER-ATH-400');
  });

  it('deactivates a client, ending its sessions, and keeps what is not given', async () => {
    await service.createClient({ clientId: 'machine1', roles: ['REGISTRATION_PROCESSOR'] });
    const updated = await service.updateClient('machine1', { isActive: false, roles: null });
    expect(updated).toMatchObject({ isActive: false, roles: ['REGISTRATION_PROCESSOR'] });
    expect(revoked).toEqual(['machine1']);
  });
});
