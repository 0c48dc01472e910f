// The portal's users screen: users filtered by role, name, zone and centre, each with its roles (auth),
// its zones and the registration centre it works at (master data), in one GraphQL query, as the admins
// who own the screen: a global admin sees every user, a zonal admin the users of its zones (placed in
// one of them or below: mapped to the zone, or working at a centre there) on every path. Set up through
// REST and the database only (no GraphQL mutation). Zones (the sample country's and these):
//   MOR (admin's) ── RSK ── KTA (kta-admin's; sample centre 10001: its staff, kta-clerk, kta-lead)
//               ├── Z_1 (z1-admin's; centre 10002: z1-clerk, kta-roamer)
//               └── BLK (blk-admin's; centres B01…B05 and the 50 users of the statement count)
import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../gateway/components.js';
import { createRequestContext } from '../../lib/context.js';
import { hashPassword } from '../../lib/secrets.js';
import { bearer, cookieHeader, envelopeOf, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';

const PASSWORD = 'users-screen-password-1';
const statements: string[] = [];
let counting = false;
let db: TestDatabase;
let t: TestPlatform;
/** Each caller's token: the global admin (mapped to MOR by the sample), the zonal admins of KTA, Z_1 and BLK. */
const tokens = { admin: '', kta: '', z1: '', blk: '' };
type Who = keyof typeof tokens;

const BULK = 50;
const bulkUser = (i: number) => `bulk-${String(i).padStart(2, '0')}`;
const bulkCentre = (i: number) => `B0${(i % 5) + 1}`;
const SAMPLE_STAFF = ['sample-officer', 'sample-operator', 'sample-supervisor'];
/** The users placed in KTA (mapped to it, or working at centre 10001). */
const KTA_USERS = ['kta-admin', 'kta-clerk', 'kta-lead', 'kta-roamer', ...SAMPLE_STAFF].sort();
/** The users placed in Z_1 (mapped to it, or working at centre 10002). */
const Z1_USERS = ['kta-roamer', 'z1-admin', 'z1-clerk', 'z1-watcher'];

const codes = (answer: any): string[] => (answer.errors ?? []).map((error: any) => error.extensions?.code);
const send = (method: string, path: string, body: unknown) =>
  t.request(method, `/v1/masterdata${path}`, { body: envelopeOf(body), headers: cookieHeader(tokens.admin) });
const ok = async (response: Promise<{ json: any }>) => {
  const { json } = await response;
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response;
};
const ask = (who: Who, query: string, variables: Record<string, unknown> = {}) => t.graphql(query, variables, bearer(tokens[who]));
/** An answer without errors: its data. */
const answered = async (who: Who, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await ask(who, query, variables);
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data;
};
const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((edge) => edge.node);
const ids = (connection: { edges: { node: { userId: string } }[] }) => nodes(connection).map((node: any) => node.userId);

/** A user of auth, written to its table (no REST path creates users); a password for those who log in. */
async function user(userId: string, name: string, roles: string[], password = false): Promise<void> {
  await t.platform.deps.prisma.user.create({
    data: { userId, name, roles, appIds: ['admin'], ...(password ? { passwordHash: await hashPassword(PASSWORD), passwordChangedAt: new Date() } : {}) },
  });
}

/** Logs a user in through REST: its token. */
async function login(userId: string): Promise<string> {
  const { json } = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
    body: envelopeOf({ userName: userId, password: PASSWORD, appId: 'admin' }),
  });
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response.token as string;
}

const zone = (code: string) => ({ code, langCode: 'eng', name: `Zone ${code}`, hierarchyLevel: 1, hierarchyName: 'Zone', parentZoneCode: 'MOR' });
const centre = (id: string, zoneCode: string) => ({
  id,
  langCode: 'eng',
  name: `Centre ${id} of ${zoneCode}`,
  centerTypeCode: 'REG',
  locationCode: 'RBTC',
  holidayLocationCode: 'RBTC',
  zoneCode,
});
const mapZone = (userId: string, zoneCode: string) => ok(send('POST', '/zoneuser', { userId, zoneCode }));
const mapCentre = (userId: string, regCenterId: string) => ok(send('POST', '/usercentermapping', { userId, regCenterId }));

beforeAll(async () => {
  db = await freshDatabase({ onQuery: (sql) => void (counting && statements.push(sql)) });
  // No job runner: its polls would be counted with the request's statements.
  t = await startTestPlatform({ JOBS_RUN: 'false', PLATFORM_SAMPLE_DATA: 'true' }, { database: db.database });
  tokens.admin = await t.adminToken();
  for (const code of ['Z_1', 'BLK']) await ok(send('POST', '/zones', zone(code)));
  await ok(send('POST', '/registrationcenters', centre('10002', 'Z_1')));
  for (const id of ['B01', 'B02', 'B03', 'B04', 'B05']) await ok(send('POST', '/registrationcenters', centre(id, 'BLK')));

  await user('kta-admin', 'Admin of Kenitra', ['ZONAL_ADMIN'], true);
  await user('z1-admin', 'Admin of Z_1', ['ZONAL_ADMIN'], true);
  await user('blk-admin', 'Admin of BLK', ['ZONAL_ADMIN'], true);
  // % and _ in a name: a filter that let them through to LIKE unescaped would match kta-lead's name too.
  await user('kta-clerk', 'Clerk 100% _done_', ['REGISTRATION_OFFICER']);
  await user('kta-lead', 'Lead 100 percent xdonex', ['REGISTRATION_SUPERVISOR']);
  await user('kta-roamer', 'Roaming clerk', ['REGISTRATION_OFFICER']);
  await user('z1-clerk', 'Clerk of Z_1', ['REGISTRATION_OFFICER']);
  await user('z1-watcher', 'Watcher of Z_1', ['REGISTRATION_SUPERVISOR']);
  await user('unplaced', 'Clerk of nowhere', ['REGISTRATION_OFFICER']);
  await mapZone('kta-admin', 'KTA');
  await mapZone('z1-admin', 'Z_1');
  await mapZone('blk-admin', 'BLK');
  await mapCentre('kta-clerk', '10001');
  await mapCentre('kta-lead', '10001');
  // mapped to KTA, working at a centre of Z_1: each zonal admin sees the user, each its own part of it
  await mapZone('kta-roamer', 'KTA');
  await mapCentre('kta-roamer', '10002');
  await mapCentre('z1-clerk', '10002');
  await mapZone('z1-watcher', 'Z_1');
  tokens.kta = await login('kta-admin');
  tokens.z1 = await login('z1-admin');
  tokens.blk = await login('blk-admin');

  // The statement count's users: 50 in BLK, each mapped to the zone and working at one of its five centres.
  const prisma = t.platform.deps.prisma;
  const at = t.clock.now();
  const audit = { createdBy: 'seed', createdAt: at, changedAt: at };
  await prisma.user.createMany({
    data: Array.from({ length: BULK }, (_, i) => ({
      userId: bulkUser(i),
      name: `Bulk user ${i}`,
      roles: [i % 2 ? 'REGISTRATION_SUPERVISOR' : 'REGISTRATION_OFFICER'],
      appIds: ['registrationclient'],
      // one second apart, before every other user
      createdAt: new Date(Date.UTC(2020, 0, 1, 0, 0, i)),
    })),
  });
  const indexes = Array.from({ length: BULK }, (_, i) => i);
  await prisma.zoneUser.createMany({ data: indexes.map((i) => ({ userId: bulkUser(i), zoneCode: 'BLK', ...audit })) });
  await prisma.registrationCenterUser.createMany({ data: indexes.map((i) => ({ userId: bulkUser(i), regCenterId: bulkCentre(i), ...audit })) });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const SCREEN = `query UsersScreen($first: Int, $after: String, $filter: UserFilter, $order: UserOrder, $lang: String) {
  users(first: $first, after: $after, filter: $filter, orderBy: $order) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { userId name roles zones(langCode: $lang) { code langCode name } registrationCentre(langCode: $lang) { id langCode name zoneCode } } }
  }
}`;
const BY_ID = { field: 'USER_ID', direction: 'ASC' };
/** A page within the default cost limit: each user's zones weigh as their cap (1,000), so 25 users cost about 44,000 and 29 pass 50,000. */
const PAGE = 25;
/** Every user the screen lists for these variables, page after page, and the total. */
async function everyUser(who: Who, variables: Record<string, unknown>): Promise<{ users: any[]; totalCount: number }> {
  const users: any[] = [];
  let after: string | null = null;
  for (;;) {
    const page: any = (await answered(who, SCREEN, { ...variables, first: PAGE, after })).users;
    users.push(...nodes(page));
    if (!page.pageInfo.hasNextPage) return { users, totalCount: page.totalCount };
    after = page.pageInfo.endCursor;
  }
}
/** The screen's list for a filter: the users' ids and the total. */
const listed = async (who: Who, filter: Record<string, unknown>) => {
  const { users, totalCount } = await everyUser(who, { filter, order: BY_ID, lang: 'eng' });
  return { ids: users.map((node) => node.userId as string), totalCount };
};

describe('the users screen in one query, as a global admin', () => {
  it('each user with its roles, its zones and the centre it works at (in the language asked; another when the centre lacks it)', async () => {
    const { users, totalCount } = await everyUser('admin', { order: BY_ID, lang: 'eng' });
    const byId = new Map(users.map((node) => [node.userId, node]));
    expect(totalCount).toBe(BULK + 13);
    expect(byId.size).toBe(BULK + 13);
    expect(byId.get('kta-clerk')).toEqual({
      userId: 'kta-clerk',
      name: 'Clerk 100% _done_',
      roles: ['REGISTRATION_OFFICER'],
      zones: [],
      registrationCentre: { id: '10001', langCode: 'eng', name: 'Center A Ben Mansour', zoneCode: 'KTA' },
    });
    expect(byId.get('kta-roamer')).toMatchObject({
      zones: [{ code: 'KTA', langCode: 'eng', name: 'Kenitra' }],
      registrationCentre: { id: '10002', langCode: 'eng', name: 'Centre 10002 of Z_1', zoneCode: 'Z_1' },
    });
    expect(byId.get('admin')).toMatchObject({
      roles: expect.arrayContaining(['GLOBAL_ADMIN']),
      zones: [{ code: 'MOR', name: 'Morocco' }],
      registrationCentre: null,
    });
    expect(byId.get('unplaced')).toMatchObject({ zones: [], registrationCentre: null });
    expect(byId.get('sample-officer')).toMatchObject({ roles: ['REGISTRATION_OFFICER'], registrationCentre: { id: '10001' } });

    const french = await answered('admin', SCREEN, { first: 1, filter: { userId: 'kta-roamer' }, lang: 'fra' });
    // KTA and centre 10001 have French rows; centre 10002 is English only: its row in the language it has
    expect(nodes(french.users)[0]).toMatchObject({
      zones: [{ code: 'KTA', langCode: 'fra', name: 'Kénitra' }],
      registrationCentre: { id: '10002', langCode: 'eng' },
    });
    const clerk = await answered(
      'admin',
      '{ users(filter: {userId: "kta-clerk"}) { edges { node { registrationCentre(langCode: "fra") { langCode name } } } } }',
    );
    expect(nodes(clerk.users)[0].registrationCentre).toEqual({ langCode: 'fra', name: 'Centre A Ben Mansour' });
  });

  it('filters by role, by part of the name (any case, % and _ taken literally), by zone (and below), by centre, and by all at once', async () => {
    expect((await listed('admin', { role: 'REGISTRATION_SUPERVISOR', zoneCode: 'KTA' })).ids).toEqual(['kta-lead', 'sample-operator', 'sample-supervisor']);
    expect((await listed('admin', { name: 'clerk' })).ids).toEqual(['kta-clerk', 'kta-roamer', 'unplaced', 'z1-clerk']);
    expect(await listed('admin', { name: '100% _done_' })).toEqual({ ids: ['kta-clerk'], totalCount: 1 });
    expect(await listed('admin', { name: '0%' })).toEqual({ ids: ['kta-clerk'], totalCount: 1 });
    expect(await listed('admin', { name: 'x_o' })).toEqual({ ids: [], totalCount: 0 });

    expect(await listed('admin', { zoneCode: 'KTA' })).toEqual({ ids: KTA_USERS, totalCount: KTA_USERS.length });
    // a zone holds the users of the zones below it
    expect((await listed('admin', { zoneCode: 'RSK' })).ids).toEqual(KTA_USERS);
    expect(await listed('admin', { zoneCode: 'Z_1' })).toEqual({ ids: Z1_USERS, totalCount: Z1_USERS.length });
    // "Z_1" is a code, not a pattern: no zone "ZX1" exists, none matches it
    expect(await listed('admin', { zoneCode: 'ZX1' })).toEqual({ ids: [], totalCount: 0 });
    expect((await listed('admin', { zoneCode: 'MOR' })).totalCount).toBe(BULK + 12);

    expect(await listed('admin', { regCenterId: '10002' })).toEqual({ ids: ['kta-roamer', 'z1-clerk'], totalCount: 2 });
    expect((await listed('admin', { regCenterId: '10001' })).ids).toEqual(['kta-clerk', 'kta-lead', ...SAMPLE_STAFF]);
    expect(await listed('admin', { regCenterId: '99999' })).toEqual({ ids: [], totalCount: 0 });

    expect(await listed('admin', { zoneCode: 'KTA', role: 'REGISTRATION_OFFICER', name: 'CLERK' })).toEqual({
      ids: ['kta-clerk', 'kta-roamer'],
      totalCount: 2,
    });
    expect(await listed('admin', { zoneCode: 'KTA', regCenterId: '10002' })).toEqual({ ids: ['kta-roamer'], totalCount: 1 });
    expect(await listed('admin', { zoneCode: 'Z_1', regCenterId: '10001' })).toEqual({ ids: [], totalCount: 0 });
  });

  it('pages a filtered list with its total: each page after the last cursor, in either order, every user once', async () => {
    for (const order of [BY_ID, { field: 'CREATED_AT', direction: 'DESC' }]) {
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; ; page++) {
        const { users } = await answered('admin', SCREEN, { first: 20, after, filter: { zoneCode: 'BLK' }, order });
        expect(users.totalCount).toBe(BULK + 1);
        expect(users.pageInfo.hasPreviousPage).toBe(page > 0);
        seen.push(...ids(users));
        if (!users.pageInfo.hasNextPage) break;
        after = users.pageInfo.endCursor;
      }
      expect(seen).toHaveLength(BULK + 1);
      expect(new Set(seen).size).toBe(BULK + 1);
      const bulk = Array.from({ length: BULK }, (_, i) => bulkUser(i));
      // newest first: blk-admin, then the bulk users from the last created
      expect(seen).toEqual(order === BY_ID ? ['blk-admin', ...bulk] : ['blk-admin', ...bulk.reverse()]);
    }
  });
});

describe("a zonal admin's users screen: its zones' users only, on every path", () => {
  it('lists the users placed in its zones (with their roles), whatever the filter asks', async () => {
    const { users, totalCount } = await everyUser('kta', { order: BY_ID, lang: 'eng' });
    expect(users.map((node) => node.userId)).toEqual(KTA_USERS);
    expect(totalCount).toBe(KTA_USERS.length);
    const byId = new Map(users.map((node) => [node.userId, node]));
    expect(byId.get('kta-clerk')).toMatchObject({ roles: ['REGISTRATION_OFFICER'], registrationCentre: { id: '10001' } });
    // its user working at a centre of another zone: the user and its KTA zone, not that centre (null, no error)
    expect(byId.get('kta-roamer')).toMatchObject({ roles: ['REGISTRATION_OFFICER'], zones: [{ code: 'KTA' }], registrationCentre: null });

    // its filters look where it sees: not in another zone, nor at another zone's centre (where kta-roamer works)
    expect(await listed('kta', { zoneCode: 'Z_1' })).toEqual({ ids: [], totalCount: 0 });
    expect(await listed('kta', { regCenterId: '10002' })).toEqual({ ids: [], totalCount: 0 });
    expect(await listed('kta', { regCenterId: '10001' })).toEqual({ ids: ['kta-clerk', 'kta-lead', ...SAMPLE_STAFF], totalCount: 5 });
    expect(await listed('kta', { zoneCode: 'MOR' })).toEqual({ ids: KTA_USERS, totalCount: KTA_USERS.length });
    expect(await listed('kta', { userId: 'z1' })).toEqual({ ids: [], totalCount: 0 });
    expect(await listed('kta', { name: 'clerk' })).toEqual({ ids: ['kta-clerk', 'kta-roamer'], totalCount: 2 });

    const z1 = await everyUser('z1', { order: BY_ID, lang: 'eng' });
    expect(z1.users.map((node) => node.userId)).toEqual(Z1_USERS);
    // the same user seen from Z_1: the centre there, not its KTA zone
    expect(z1.users.find((node) => node.userId === 'kta-roamer')).toMatchObject({
      roles: ['REGISTRATION_OFFICER'],
      zones: [],
      registrationCentre: { id: '10002' },
    });
  });

  it("reads no roles, zones or centre of another zone's user through a record that names it, a look-up or the entities", async () => {
    // Centre 10002 (Z_1) was created by the global admin, mapped to MOR: not one of KTA's users.
    const named = await ask(
      'kta',
      '{ registrationCentre(id: "10002", langCode: "eng") { createdBy { userId name roles zones { code } registrationCentre { id } } } }',
    );
    expect(named.data.registrationCentre.createdBy).toEqual({ userId: 'admin', name: expect.any(String), roles: null, zones: [], registrationCentre: null });
    expect(codes(named)).toEqual(['KER-ATH-403']);
    expect(named.errors[0].path).toEqual(['registrationCentre', 'createdBy', 'roles']);
    // one user by id stays the global admin's
    expect(codes(await ask('kta', '{ user(userId: "kta-clerk") { userId } }'))).toEqual(['KER-ATH-403']);

    // Entities by key, as the gateway fetches them: auth answers the id and name of any user, the roles of KTA's only;
    // master data the zones and centre the caller covers.
    const representations = ['z1-clerk', 'kta-clerk', 'z1-watcher'].map((userId) => ({ __typename: 'User', userId }));
    const context = () => createRequestContext({ headers: bearer(tokens.kta), clientAddress: '127.0.0.1' }, t.platform.deps.tokens);
    const subgraph = (name: string) => t.platform.buildSubgraph(COMPONENTS.find((component) => component.name === name)!);
    const fromAuth = await graphql({
      schema: await subgraph('auth'),
      source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { userId roles } } }',
      variableValues: { r: representations },
      contextValue: context(),
    });
    expect(fromAuth.data!._entities).toEqual([
      { userId: 'z1-clerk', roles: null },
      { userId: 'kta-clerk', roles: ['REGISTRATION_OFFICER'] },
      { userId: 'z1-watcher', roles: null },
    ]);
    expect(fromAuth.errors!.map((error) => [error.extensions?.code, error.path?.join('.')])).toEqual([
      ['KER-ATH-403', '_entities.0.roles'],
      ['KER-ATH-403', '_entities.2.roles'],
    ]);
    const fromMasterdata = await graphql({
      schema: await subgraph('masterdata'),
      source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { userId zones { code } registrationCentre { id } } } }',
      variableValues: { r: representations },
      contextValue: context(),
    });
    expect(fromMasterdata.errors).toBeUndefined();
    expect(fromMasterdata.data!._entities).toEqual([
      { userId: 'z1-clerk', zones: [], registrationCentre: null },
      { userId: 'kta-clerk', zones: [], registrationCentre: { id: '10001' } },
      { userId: 'z1-watcher', zones: [], registrationCentre: null },
    ]);
  });
});

describe('the users screen costs the same at any page size', () => {
  /** Oldest first: the bulk users (each with a zone and a centre), then blk-admin. */
  const OLDEST = { field: 'CREATED_AT', direction: 'ASC' };

  /** The statements one GraphQL request sends, and its answer. */
  async function counted(who: Who, first: number) {
    statements.length = 0;
    counting = true;
    const answer = await ask(who, SCREEN, { first, filter: { zoneCode: 'BLK' }, order: OLDEST, lang: 'eng' });
    counting = false;
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return { users: answer.data.users, statements: statements.length };
  }

  it(`sends as many SQL statements for 1 user as for a full page (${PAGE}), as a global and as a zonal admin`, async () => {
    for (const who of ['admin', 'blk'] as const) {
      await counted(who, 1); // once first: what a request loads once (the caller's session, caches) is not the page's cost
      const one = await counted(who, 1);
      const full = await counted(who, PAGE);
      const bulk = Array.from({ length: PAGE }, (_, i) => i);
      expect(ids(one.users), who).toEqual([bulkUser(0)]);
      expect(ids(full.users), who).toEqual(bulk.map(bulkUser));
      expect(full.users.totalCount, who).toBe(BULK + 1);
      // every user of the page with its roles, its zone and its centre (each of the five centres five times)
      expect(
        nodes(full.users).map((node: any) => [node.roles.length, node.zones.map((zone: any) => zone.code), node.registrationCentre.id]),
        who,
      ).toEqual(bulk.map((i) => [1, ['BLK'], bulkCentre(i)]));
      expect(full.statements, `${who}: 1 user ${one.statements}, ${PAGE} users ${full.statements}`).toBe(one.statements);
    }
  });
});
