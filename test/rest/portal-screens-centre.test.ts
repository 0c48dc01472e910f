// The portal's centre screen: centre 10001 of the sample country with its machines, devices, users
// (names, roles), working days, location, zone and the holidays of its holiday location, in one
// GraphQL query, as the admins who own the screen (a zonal admin of the centre's zone, a global
// admin; auth shows a zonal admin the roles of its zones' users only). Each list under a page of
// centres is batched (one window query and one grouped count for the page, lib/graph/nested.ts),
// follows the centre's language, equals the same list asked for that centre alone, and keeps the
// centres' scope: an admin of another zone gets nothing of them. Zones:
//   MOR (the admin's) ── RSK ── KTA (kta-admin's; centre 10001, machine 10001, device 3000001)
//                    │              └── NST (the 100 centres of the statement count)
//                    └── Z_1 (z1-admin's; centre 10002, its machine and device)
import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';

const PASSWORD = 'screen-password-1';
const statements: string[] = [];
let counting = false;
let db: TestDatabase;
let t: TestPlatform;
/** Each caller's token: the global admin (mapped to MOR by the sample), the zonal admins of KTA and Z_1. */
const tokens = { admin: '', kta: '', z1: '' };
type Who = keyof typeof tokens;

const codes = (answer: any): string[] => (answer.errors ?? []).map((error: any) => error.extensions?.code);
const send = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
  t.request(method, path, { body: body === undefined ? undefined : envelopeOf(body), headers });
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

async function zonalAdmin(userId: string, zoneCode: string): Promise<string> {
  const created = await t.graphql(
    'mutation($input: UserInput!) { createUser(input: $input) { user { userId } userErrors { field code message } } }',
    { input: { userId, name: `Admin of ${zoneCode}`, password: PASSWORD, roles: ['ZONAL_ADMIN'], appIds: ['admin'] } },
    bearer(tokens.admin),
  );
  expect(created.errors).toBeUndefined();
  await ok(send('POST', '/v1/masterdata/zoneuser', { userId, zoneCode }, cookieHeader(tokens.admin)));
  const login = await t.graphql(
    'mutation($u: String!, $p: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: "admin" }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: PASSWORD,
    },
  );
  return login.data.loginWithPassword.passwordLogin.token as string;
}

const audit = (at: Date) => ({ createdBy: 'seed', createdAt: at, changedAt: at });
const NESTED = 100;
const nestedCentre = (i: number) => `N${String(i).padStart(3, '0')}`;

beforeAll(async () => {
  db = await freshDatabase({ onQuery: (sql) => void (counting && statements.push(sql)) });
  // No job runner: its polls would be counted with the request's statements.
  t = await startTestPlatform({ JOBS_RUN: 'false', PLATFORM_SAMPLE_DATA: 'true' }, { database: db.database });
  tokens.admin = await t.adminToken();
  const admin = cookieHeader(tokens.admin);
  await ok(
    send(
      'POST',
      '/v1/masterdata/zones',
      { code: 'Z_1', langCode: 'eng', name: 'Zone Z_1', hierarchyLevel: 1, hierarchyName: 'Zone', parentZoneCode: 'MOR' },
      admin,
    ),
  );
  await ok(
    send(
      'POST',
      '/v1/masterdata/registrationcenters',
      { id: '10002', langCode: 'eng', name: 'Centre of Z_1', centerTypeCode: 'REG', locationCode: 'RBTC', holidayLocationCode: 'RBTC', zoneCode: 'Z_1' },
      admin,
    ),
  );
  await ok(send('POST', '/v1/masterdata/machines', { id: '10002', langCode: 'eng', name: 'machine-10002', regCenterId: '10002', zoneCode: 'Z_1' }, admin));
  tokens.kta = await zonalAdmin('kta-admin', 'KTA');
  tokens.z1 = await zonalAdmin('z1-admin', 'Z_1');

  const prisma = t.platform.deps.prisma;
  const at = t.clock.now();
  // Devices are placed at centres by the imported master data only: a second scanner of 10001 in two
  // languages (the sample's 3000001 is English only), and one of centre 10002 in Z_1.
  await prisma.device.createMany({
    data: [
      { id: '3000002', langCode: 'eng', name: 'Iris scanner 2', regCenterId: '10001', zoneCode: 'KTA' },
      { id: '3000002', langCode: 'fra', name: "Scanner d'iris 2", regCenterId: '10001', zoneCode: 'KTA' },
      { id: 'Z1-DEV', langCode: 'eng', name: 'Scanner of Z_1', regCenterId: '10002', zoneCode: 'Z_1' },
    ].map((row) => ({ ...row, serialNum: `SN-${row.id}`, deviceSpecId: '165', macAddress: `MAC-${row.id}`, ...audit(at) })),
  });

  // The statement count's page: 100 centres in zone NST below KTA, spread over 10 holiday locations, with
  // 0 to 4 users (the first centre one), 0 to 3 machines and 0 to 3 devices each (two languages of the machines and devices:
  // each centre's lists take its own), 0 to 5 holidays at each location.
  await prisma.zone.create({
    data: {
      code: 'NST',
      langCode: 'eng',
      name: 'Nested',
      hierarchyLevel: 4,
      hierarchyName: 'Zone',
      parentZoneCode: 'KTA',
      path: 'MOR/RSK/KTA/NST',
      ...audit(at),
    },
  });
  const locations = Array.from({ length: 10 }, (_, i) => `NLOC${i}`);
  await prisma.location.createMany({
    data: locations.map((code) => ({
      code,
      langCode: 'eng',
      name: `Place ${code}`,
      hierarchyLevel: 4,
      hierarchyName: 'Place',
      parentCode: 'KTA',
      ...audit(at),
    })),
  });
  await prisma.holiday.createMany({
    data: locations.flatMap((locationCode, i) =>
      Array.from({ length: i % 6 }, (_, k) => ({
        langCode: 'eng',
        locationCode,
        holidayDate: new Date(Date.UTC(2026, k, 10 - i)),
        holidayName: `Holiday ${k} of ${locationCode}`,
        isActive: k !== 2,
        ...audit(at),
      })),
    ),
  });
  const centres = Array.from({ length: NESTED }, (_, i) => nestedCentre(i));
  await prisma.registrationCenter.createMany({
    data: centres.map((id, i) => ({
      id,
      langCode: 'eng',
      name: `Nested centre ${i}`,
      centerTypeCode: 'REG',
      locationCode: 'KTA',
      holidayLocationCode: locations[i % locations.length]!,
      zoneCode: 'NST',
      ...audit(at),
    })),
  });
  await prisma.user.createMany({
    data: centres.flatMap((id, i) =>
      Array.from({ length: (i + 1) % 5 }, (_, k) => ({
        userId: `${id}-u${k}`,
        name: `User ${k} of ${id}`,
        roles: ['REGISTRATION_OFFICER'],
        appIds: ['registrationclient'],
      })),
    ),
  });
  await prisma.registrationCenterUser.createMany({
    data: centres.flatMap((id, i) => Array.from({ length: (i + 1) % 5 }, (_, k) => ({ regCenterId: id, userId: `${id}-u${k}`, ...audit(at) }))),
  });
  const placed = (kind: string, i: number, k: number) => ({ id: `${nestedCentre(i)}-${kind}${k}`, regCenterId: nestedCentre(i), zoneCode: 'NST' });
  await prisma.machine.createMany({
    data: centres.flatMap((_, i) =>
      Array.from({ length: i % 4 }, (_, k) =>
        ['eng', 'fra'].map((langCode) => ({ ...placed('m', i, k), langCode, name: `machine_${i}_${k}`, isActive: k !== 1, ...audit(at) })),
      ).flat(),
    ),
  });
  await prisma.device.createMany({
    data: centres.flatMap((_, i) =>
      Array.from({ length: (i + 1) % 4 }, (_, k) =>
        ['eng', 'fra'].map((langCode) => ({
          ...placed('d', i, k),
          langCode,
          name: `device ${i} ${k}`,
          serialNum: `SN-${i}-${k}`,
          deviceSpecId: '165',
          macAddress: `MAC-${i}-${k}`,
          ...audit(at),
        })),
      ).flat(),
    ),
  });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const SCREEN = `query CentreScreen($id: ID!, $langCode: String!) {
  registrationCentre(id: $id, langCode: $langCode) {
    id langCode name centerStartTime centerEndTime
    workingDays { dayCode isWorking }
    location { code langCode name hierarchyName }
    zone { code langCode name path }
    userCount
    users(first: 20) { totalCount edges { node { isActive user { userId name roles } } } }
    machines(first: 20) { totalCount edges { node { id langCode name regCenterId } } }
    devices(first: 20) { totalCount edges { node { id langCode name regCenterId specification { name } } } }
    holidays(first: 20) { totalCount edges { node { id langCode holidayDate holidayName } } }
  }
}`;

const SAMPLE_STAFF = [
  { userId: 'sample-officer', name: 'Sample registration officer', roles: ['REGISTRATION_OFFICER'] },
  { userId: 'sample-operator', name: 'Sample registration operator (officer and supervisor)', roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'] },
  { userId: 'sample-supervisor', name: 'Sample registration supervisor', roles: ['REGISTRATION_SUPERVISOR'] },
];

/** What the screen shows of centre 10001 in English, but the users' roles. */
function expectCentre10001(centre: any): void {
  expect(centre).toMatchObject({ id: '10001', langCode: 'eng', name: 'Center A Ben Mansour', centerStartTime: '09:00:00', centerEndTime: '17:00:00' });
  expect(centre.workingDays.map((day: any) => [day.dayCode, day.isWorking])).toEqual([
    ['MON', true],
    ['TUE', true],
    ['WED', true],
    ['THU', true],
    ['FRI', true],
    ['SAT', false],
    ['SUN', false],
  ]);
  expect(centre.location).toEqual({ code: 'KTA', langCode: 'eng', name: 'Kenitra', hierarchyName: 'City' });
  expect(centre.zone).toEqual({ code: 'KTA', langCode: 'eng', name: 'Kenitra', path: 'MOR/RSK/KTA' });
  expect(centre.userCount).toBe(3);
  expect(centre.users.totalCount).toBe(3);
  expect(nodes(centre.users).map((node: any) => [node.isActive, node.user.userId, node.user.name])).toEqual(
    SAMPLE_STAFF.map((user) => [true, user.userId, user.name]),
  );
  expect(centre.machines).toEqual({ totalCount: 1, edges: [{ node: { id: '10001', langCode: 'eng', name: '10001', regCenterId: '10001' } }] });
  expect(centre.devices.totalCount).toBe(2);
  expect(nodes(centre.devices)).toEqual([
    { id: '3000001', langCode: 'eng', name: 'Fingerprint scanner 1', regCenterId: '10001', specification: { name: expect.any(String) } },
    { id: '3000002', langCode: 'eng', name: 'Iris scanner 2', regCenterId: '10001', specification: { name: expect.any(String) } },
  ]);
  expect(centre.holidays.totalCount).toBe(4);
  expect(nodes(centre.holidays).map((node: any) => [node.id, node.langCode, node.holidayDate, node.holidayName])).toEqual([
    [1, 'eng', '2026-01-01', 'New Year'],
    [2, 'eng', '2026-05-01', 'Labour Day'],
    [3, 'eng', '2026-07-30', 'Throne Day'],
    [4, 'eng', '2026-11-18', 'Independence Day'],
  ]);
}

describe("the centre screen in one query, as the screen's owners", () => {
  it('a global admin: centre 10001 with its working days, location, zone, staff (names and roles), machines, devices and holidays', async () => {
    const { registrationCentre: centre } = await answered('admin', SCREEN, { id: '10001', langCode: 'eng' });
    expectCentre10001(centre);
    expect(nodes(centre.users).map((node: any) => node.user.roles)).toEqual(SAMPLE_STAFF.map((user) => user.roles));
  });

  it("a zonal admin of the centre's zone: the same screen, the users' roles included (its zones' users: they work at a centre of KTA)", async () => {
    const { registrationCentre: centre } = await answered('kta', SCREEN, { id: '10001', langCode: 'eng' });
    expectCentre10001(centre);
    expect(nodes(centre.users).map((node: any) => node.user.roles)).toEqual(SAMPLE_STAFF.map((user) => user.roles));
  });

  it('a zonal admin reads no roles of a user outside its zones: null with KER-ATH-403 at the field, the record stands', async () => {
    // Centre 10002 (Z_1) was created by the global admin, who is mapped to MOR, not to Z_1 or below it.
    const answer = await ask('z1', '{ registrationCentre(id: "10002", langCode: "eng") { id createdBy { userId roles } } }');
    expect(answer.data.registrationCentre).toEqual({ id: '10002', createdBy: { userId: 'admin', roles: null } });
    expect(codes(answer)).toEqual(['KER-ATH-403']);
    expect(answer.errors[0].path).toEqual(['registrationCentre', 'createdBy', 'roles']);
  });

  it("follows the centre's language: machines, devices, location, zone and holidays in French; users are the centre's in every language", async () => {
    const { registrationCentre: centre } = await answered('kta', SCREEN.replace(' roles', ''), { id: '10001', langCode: 'fra' });
    expect(centre).toMatchObject({ id: '10001', langCode: 'fra', name: 'Centre A Ben Mansour' });
    expect(centre.location).toMatchObject({ code: 'KTA', langCode: 'fra', name: 'Kénitra' });
    expect(centre.zone).toMatchObject({ code: 'KTA', langCode: 'fra', name: 'Kénitra' });
    expect(nodes(centre.users).map((node: any) => node.user.userId)).toEqual(SAMPLE_STAFF.map((user) => user.userId));
    expect(nodes(centre.machines).map((node: any) => [node.id, node.langCode])).toEqual([['10001', 'fra']]);
    // 3000001 has no French row
    expect(nodes(centre.devices).map((node: any) => [node.id, node.langCode, node.name])).toEqual([['3000002', 'fra', "Scanner d'iris 2"]]);
    expect(nodes(centre.holidays).map((node: any) => node.holidayName)).toEqual(['Nouvel An', 'Fête du Travail', 'Fête du Trône', "Fête de l'Indépendance"]);
  });

  it('a page of centres in three languages: each row its own language, each list what the root list answers for that centre alone', async () => {
    const page = await answered(
      'kta',
      `{ registrationCentres(first: 10, filter: {zoneCode: "KTA"}) { edges { node { id langCode
          machines(first: 5) { totalCount edges { node { id langCode name } } }
          devices(first: 5) { totalCount edges { node { id langCode name } } }
          holidays(first: 2, filter: {from: "2026-02-01"}) { totalCount pageInfo { hasNextPage } edges { node { id langCode holidayName } } } } } } }`,
    );
    const rows = nodes(page.registrationCentres);
    expect(rows.map((row: any) => row.langCode)).toEqual(['ara', 'eng', 'fra']);
    for (const row of rows) {
      const alone = await answered(
        'kta',
        `query($id: String, $lang: String) {
          machines(first: 5, filter: {regCenterId: $id, langCode: $lang}) { totalCount edges { node { id langCode name } } }
          devices(first: 5, filter: {regCenterId: $id, langCode: $lang}) { totalCount edges { node { id langCode name } } }
          holidays(first: 2, filter: {locationCode: "KTA", langCode: $lang, from: "2026-02-01"}) { totalCount pageInfo { hasNextPage } edges { node { id langCode holidayName } } } }`,
        { id: row.id, lang: row.langCode },
      );
      expect(row.machines, row.langCode).toEqual(alone.machines);
      expect(row.devices, row.langCode).toEqual(alone.devices);
      expect(row.holidays, row.langCode).toEqual(alone.holidays);
      expect(nodes(row.machines).every((machine: any) => machine.langCode === row.langCode)).toBe(true);
      expect(row.holidays).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    }
  });
});

describe("an admin of another zone gets nothing of centre 10001's lists", () => {
  const REFUSED = 'KER-MSD-439';

  it('through the centre: its users, user count, machines and devices are null with KER-MSD-439; its own centre answers', async () => {
    const answer = await ask('z1', SCREEN.replace(' roles', ''), { id: '10001', langCode: 'eng' });
    const centre = answer.data.registrationCentre;
    expect(centre).toMatchObject({ id: '10001', userCount: null, users: null, machines: null, devices: null });
    expect(codes(answer)).toEqual([REFUSED, REFUSED, REFUSED, REFUSED]);
    expect(answer.errors.map((error: any) => error.path.join('.')).sort()).toEqual([
      'registrationCentre.devices',
      'registrationCentre.machines',
      'registrationCentre.userCount',
      'registrationCentre.users',
    ]);
    expect(JSON.stringify(answer.data)).not.toMatch(/sample-officer|3000001|3000002|A4-BB-6D/);
    // What any master data reader may read of any centre stays: where it is, and the holidays of its place.
    expect(centre.location.code).toBe('KTA');
    expect(centre.holidays.totalCount).toBe(4);

    const own = await answered('z1', SCREEN.replace(' roles', ''), { id: '10002', langCode: 'eng' });
    expect(own.registrationCentre).toMatchObject({
      zone: { code: 'Z_1', path: 'MOR/Z_1' },
      location: { code: 'RBTC', name: 'Rabat City' },
      users: { totalCount: 0, edges: [] },
      machines: { totalCount: 1, edges: [{ node: { id: '10002' } }] },
      devices: { totalCount: 1, edges: [{ node: { id: 'Z1-DEV' } }] },
    });
  });

  it("through a page of centres, a cursor into 10001's lists, the root lists, look-ups by id and entity references", async () => {
    const page = await ask(
      'z1',
      `{ registrationCentres(first: 2, filter: {langCode: "eng"}) { edges { node { id
          users(first: 5) { totalCount edges { node { user { userId } } } }
          machines(first: 5) { edges { node { id } } }
          devices(first: 5) { edges { node { id } } } } } } }`,
    );
    const rows = nodes(page.data.registrationCentres);
    expect(rows.map((row: any) => row.id)).toEqual(['10001', '10002']);
    expect(rows[0]).toEqual({ id: '10001', users: null, machines: null, devices: null });
    expect(rows[1]).toMatchObject({ id: '10002', users: { totalCount: 0 }, machines: { edges: [{ node: { id: '10002' } }] } });
    expect(codes(page)).toEqual([REFUSED, REFUSED, REFUSED]);

    // Paging into 10001's lists after a cursor the global admin had.
    const first = await answered(
      'admin',
      '{ registrationCentre(id: "10001", langCode: "eng") { users(first: 1) { pageInfo { endCursor } } devices(first: 1) { pageInfo { endCursor } } } }',
    );
    const after = await ask(
      'z1',
      'query($u: String, $d: String) { registrationCentre(id: "10001", langCode: "eng") { users(after: $u) { edges { node { user { userId } } } } devices(after: $d) { edges { node { id } } } } }',
      { u: first.registrationCentre.users.pageInfo.endCursor, d: first.registrationCentre.devices.pageInfo.endCursor },
    );
    expect(after.data.registrationCentre).toEqual({ users: null, devices: null });
    expect(codes(after)).toEqual([REFUSED, REFUSED]);

    // The root lists: a filter on the centre is refused, the unfiltered lists hold none of its rows.
    expect(codes(await ask('z1', '{ machines(filter: {regCenterId: "10001"}) { totalCount } }'))).toEqual([REFUSED]);
    expect(codes(await ask('z1', '{ devices(filter: {regCenterId: "10001"}) { totalCount } }'))).toEqual([REFUSED]);
    const lists = await answered(
      'z1',
      '{ machines(first: 100) { edges { node { id regCenterId } } } devices(first: 100) { edges { node { id regCenterId } } } devicesByLanguage(langCode: "eng") { id regCenterId } machinesOfLanguage(langCode: "eng") { id regCenterId } }',
    );
    expect(nodes(lists.machines)).toEqual([{ id: '10002', regCenterId: '10002' }]);
    expect(nodes(lists.devices)).toEqual([{ id: 'Z1-DEV', regCenterId: '10002' }]);
    expect(lists.devicesByLanguage).toEqual([{ id: 'Z1-DEV', regCenterId: '10002' }]);
    expect(lists.machinesOfLanguage).toEqual([{ id: '10002', regCenterId: '10002' }]);
    expect(codes(await ask('z1', '{ machine(id: "10001", langCode: "eng") { macAddress } }'))).toEqual([REFUSED]);
    expect(codes(await ask('z1', '{ device(id: "3000002", langCode: "eng") { macAddress } }'))).toEqual([REFUSED]);
    // An unknown centre is no one's to refuse: nothing.
    expect(await answered('z1', '{ devices(filter: {regCenterId: "99999"}) { totalCount } }')).toEqual({ devices: { totalCount: 0 } });

    // REST.
    const z1 = cookieHeader(tokens.z1);
    await expectRejected(t, () => send('GET', '/v1/masterdata/machines/10001/eng', undefined, z1), REFUSED);
    const searched = await send('POST', '/v1/masterdata/devices/search', { filters: [{ columnName: 'name', type: 'contains', value: 'scanner' }] }, z1);
    expect(searched.json.response.data.map((device: any) => device.id)).toEqual(['Z1-DEV']);
    // the offline login list is registration staff's and the global admin's
    await expectRejected(t, () => send('GET', '/v1/syncdata/userdetails/10001', undefined, z1), 'KER-ATH-403');

    // Entities by their keys, as the gateway fetches them: 10001's machine and devices are absent.
    const masterdata = COMPONENTS.find((component) => component.name === 'masterdata')!;
    const entities = await graphql({
      schema: await t.platform.buildSubgraph(masterdata),
      source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Machine { machineId: id } ... on Device { deviceId: id } } }',
      variableValues: {
        r: [
          { __typename: 'Machine', id: '10001', langCode: 'eng' },
          { __typename: 'Device', id: '3000001', langCode: 'eng' },
          { __typename: 'Device', id: '3000002', langCode: 'eng' },
          { __typename: 'Device', id: 'Z1-DEV', langCode: 'eng' },
        ],
      },
      contextValue: createRequestContext({ headers: bearer(tokens.z1), clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
    });
    expect(entities.errors).toBeUndefined();
    expect(entities.data!._entities).toEqual([null, null, null, { deviceId: 'Z1-DEV' }]);
  });
});

describe('the lists under a page of centres are batched', () => {
  const PAGE = `query($first: Int) { registrationCentres(first: $first, filter: {zoneCode: "NST"}) { edges { node { id holidayLocationCode
      users(first: 3) { totalCount pageInfo { hasNextPage endCursor } edges { node { user { userId name } } } }
      machines(first: 2, filter: {isActive: true, name: "_1"}) { totalCount pageInfo { hasNextPage } edges { node { id langCode name } } }
      devices(first: 2) { totalCount pageInfo { hasNextPage } edges { node { id langCode name } } }
      holidays(first: 2, filter: {isActive: true}) { totalCount pageInfo { hasNextPage } edges { node { id holidayName } } } } } } }`;

  /** The statements one GraphQL request sends, and its answer. */
  async function counted(who: Who, query: string, variables: Record<string, unknown>) {
    statements.length = 0;
    counting = true;
    const answer = await ask(who, query, variables);
    counting = false;
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return { data: answer.data, statements: statements.length };
  }

  it('costs the same number of SQL statements for 1, 50 and 100 centres, as a global and as a zonal admin', async () => {
    for (const who of ['admin', 'kta'] as const) {
      await counted(who, PAGE, { first: 1 }); // once first: what a request loads once (the caller's session, caches) is not the lists' cost
      const costs: Record<number, number> = {};
      for (const first of [1, 50, 100]) costs[first] = (await counted(who, PAGE, { first })).statements;
      expect(new Set(Object.values(costs)).size, `${who}: ${JSON.stringify(costs)}`).toBe(1);
      // the centres' page (1), the caller's reach (5), the device list's rules (3), per list a window query and a
      // grouped count (8), the users' names from auth (1)
      expect(costs[1], who).toBeLessThanOrEqual(18);
    }
  });

  it('gives each centre its own page, filtered and counted, as the same list asked for that centre alone', async () => {
    const { data } = await counted('kta', PAGE, { first: 100 });
    const rows = nodes(data.registrationCentres);
    expect(rows).toHaveLength(NESTED);
    for (const row of rows.filter((_: unknown, i: number) => i % 9 === 0 || i % 10 === 3)) {
      const alone = await answered(
        'kta',
        `query($id: ID!, $centre: String, $location: String) {
          registrationCentre(id: $id, langCode: "eng") { users(first: 3) { totalCount pageInfo { hasNextPage endCursor } edges { node { user { userId name } } } } }
          machines(first: 2, filter: {regCenterId: $centre, langCode: "eng", isActive: true, name: "_1"}) { totalCount pageInfo { hasNextPage } edges { node { id langCode name } } }
          devices(first: 2, filter: {regCenterId: $centre, langCode: "eng"}) { totalCount pageInfo { hasNextPage } edges { node { id langCode name } } }
          holidays(first: 2, filter: {locationCode: $location, langCode: "eng", isActive: true}) { totalCount pageInfo { hasNextPage } edges { node { id holidayName } } } }`,
        { id: row.id, centre: row.id, location: row.holidayLocationCode },
      );
      expect(row.users, row.id).toEqual(alone.registrationCentre.users);
      expect(row.machines, row.id).toEqual(alone.machines);
      expect(row.devices, row.id).toEqual(alone.devices);
      expect(row.holidays, row.id).toEqual(alone.holidays);
    }
    const most = (list: string) => Math.max(...rows.map((row: any) => row[list].totalCount));
    // up to 4 users, 2 active machines, 3 devices, 4 observed holidays
    expect([most('users'), most('machines'), most('devices'), most('holidays')]).toEqual([4, 2, 3, 4]);
    // "_1" is taken literally: machine_1_0 and machine_12_2 match it, machine_21_0 does not.
    const named = Array.from({ length: NESTED }, (_, i) =>
      Array.from({ length: i % 4 }, (_, k) => k).filter((k) => k !== 1 && `machine_${i}_${k}`.includes('_1')),
    );
    expect(rows.map((row: any) => row.machines.totalCount)).toEqual(named.map((ks) => ks.length));
    for (const list of ['users', 'devices', 'holidays'])
      expect(
        rows.some((row: any) => row[list].pageInfo.hasNextPage),
        list,
      ).toBe(true);
    expect(rows.every((row: any) => nodes(row.machines).every((machine: any) => machine.langCode === 'eng'))).toBe(true);
  });

  it("pages into one centre's users after its cursor", async () => {
    const { data } = await counted('admin', PAGE, { first: 100 });
    const crowded = nodes(data.registrationCentres).find((row: any) => row.id === nestedCentre(3));
    expect(crowded.users.pageInfo.hasNextPage).toBe(true);
    const next = await answered(
      'admin',
      'query($after: String) { registrationCentres(first: 100, filter: {zoneCode: "NST"}) { edges { node { id users(first: 10, after: $after) { edges { node { user { userId } } } } } } } }',
      { after: crowded.users.pageInfo.endCursor },
    );
    const following = nodes(next.registrationCentres).find((row: any) => row.id === nestedCentre(3));
    expect([...nodes(crowded.users), ...nodes(following.users)].map((node: any) => node.user.userId)).toEqual(
      ['u0', 'u1', 'u2', 'u3'].map((user) => `${nestedCentre(3)}-${user}`),
    );
  });
});
