import { graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';

const MD = '/v1/masterdata';
let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const send = (method: string, path: string, body?: unknown, headers = auth) =>
  t.request(method, MD + path, { body: body === undefined ? undefined : envelopeOf(body), headers });
const audit = () => ({ createdBy: 'seed', createdAt: t.clock.now(), changedAt: t.clock.now() });

/** Languages, locations and zones have no REST path of this area: written as the sample data would be. */
async function seed(): Promise<void> {
  const prisma = t.platform.deps.prisma;
  await prisma.language.createMany({ data: ['eng', 'fra'].map((code) => ({ code, name: code, ...audit() })) });
  await prisma.location.createMany({
    data: [
      { code: 'MOR', langCode: 'eng', name: 'Morocco', hierarchyLevel: 0, hierarchyName: 'Country', ...audit() },
      { code: 'RSK', langCode: 'eng', name: 'Rabat Sale Kenitra', hierarchyLevel: 1, hierarchyName: 'Region', parentCode: 'MOR', ...audit() },
      { code: 'KTA', langCode: 'eng', name: 'Kenitra', hierarchyLevel: 2, hierarchyName: 'Province', parentCode: 'RSK', ...audit() },
    ],
  });
  await prisma.zone.createMany({
    data: [
      { code: 'MOR', langCode: 'eng', name: 'Morocco', hierarchyLevel: 0, hierarchyName: 'Country', path: 'MOR', ...audit() },
      { code: 'NTH', langCode: 'eng', name: 'North', hierarchyLevel: 1, hierarchyName: 'Zone', parentZoneCode: 'MOR', path: 'MOR/NTH', ...audit() },
      { code: 'STH', langCode: 'eng', name: 'South', hierarchyLevel: 1, hierarchyName: 'Zone', parentZoneCode: 'MOR', path: 'MOR/STH', ...audit() },
    ],
  });
  // The admin administers the country, as the sample maps it: every zone below MOR is its own.
  await prisma.zoneUser.create({ data: { userId: 'admin', zoneCode: 'MOR', ...audit() } });
}

const centre = (overrides: Record<string, unknown> = {}) => ({
  langCode: 'eng',
  name: 'Kenitra Centre',
  centerTypeCode: 'REG',
  addressLine1: '1 Main Street',
  latitude: '34.2610',
  longitude: '-6.5802',
  locationCode: 'KTA',
  holidayLocationCode: 'RSK',
  contactPhone: '0612345678',
  contactPerson: 'A. Person',
  numberOfKiosks: 3,
  workingHours: '8:00',
  perKioskProcessTime: '00:15:00',
  centerStartTime: '09:00:00',
  centerEndTime: '17:00:00',
  lunchStartTime: '13:00:00',
  lunchEndTime: '14:00:00',
  timeZone: 'GMT+01:00',
  zoneCode: 'NTH',
  isActive: true,
  ...overrides,
});

const machine = (overrides: Record<string, unknown> = {}) => ({
  langCode: 'eng',
  name: 'machine-a',
  serialNum: 'SN-1',
  macAddress: 'A4-BB-6D-0F-B4-D0',
  ipAddress: '192.168.0.10',
  machineSpecId: 'SPEC-1',
  zoneCode: 'NTH',
  validityDateTime: '2030-12-31T00:00:00.000Z',
  isActive: true,
  ...overrides,
});

async function createUser(userId: string, roles: string[]) {
  const created = await t.graphql(
    'mutation($id: ID!, $roles: [Role!]) { createUser(input: {userId: $id, password: "user-password-1", roles: $roles, appIds: ["admin", "resident", "registrationclient"]}) { user { userId } userErrors { field code message } } }',
    { id: userId, roles },
    bearer(await t.adminToken()),
  );
  expect(created.errors).toBeUndefined();
}

/** A user's token for an application (users of createUser share one password). */
async function login(userId: string, appId: string): Promise<string> {
  const answer = await t.graphql(
    'mutation($u: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: "user-password-1", appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      a: appId,
    },
  );
  return answer.data.loginWithPassword.passwordLogin.token as string;
}

/** A GraphQL operation refused with `code` that changes no row anywhere. */
async function expectGraphRejected(token: string, query: string, variables: Record<string, unknown>, code: string): Promise<void> {
  const before = await t.snapshot();
  const answer = await t.graphql(query, variables, bearer(token));
  expect(refusalCode(answer), query).toBe(code);
  expect(await t.snapshot()).toEqual(before);
}

const created = async (body: Record<string, unknown>) => {
  const { json } = await send('POST', '/registrationcenters', body);
  expect(json.errors).toBeNull();
  return json.response;
};

beforeAll(async () => seed());

describe('registration centres', () => {
  it('creates a centre with a generated id, reads it, its working days, translations and updates', async () => {
    const first = await created({ ...centre(), workingNonWorkingDays: { sat: true } });
    expect(first).toMatchObject({
      id: '10001',
      langCode: 'eng',
      name: 'Kenitra Centre',
      locationCode: 'KTA',
      zoneCode: 'NTH',
      createdBy: 'admin',
      isDeleted: false,
    });
    expect(first.workingNonWorkingDays).toEqual({ MON: true, TUE: true, WED: true, THU: true, FRI: true, SAT: true, SUN: false });
    expect((await created(centre({ name: 'Second' }))).id).toBe('10002');

    const read = await send('GET', '/registrationcenters/10001/eng');
    expect(read.json.response.registrationCenters).toHaveLength(1);
    expect(read.json.response.registrationCenters[0]).toMatchObject({ id: '10001', centerStartTime: '09:00:00', numberOfKiosks: 3 });

    const french = await created({ ...centre({ id: '10001', langCode: 'fra', name: 'Centre de Kenitra', numberOfKiosks: 4 }) });
    expect(french.workingNonWorkingDays.SAT).toBe(true);
    // Shared fields follow the last write in every language.
    expect((await send('GET', '/registrationcenters/10001/eng')).json.response.registrationCenters[0].numberOfKiosks).toBe(4);

    const updated = await send('PUT', '/registrationcenters', {
      ...centre({ id: '10001', name: 'Kenitra Main', zoneCode: 'STH' }),
      workingNonWorkingDays: { MON: false },
    });
    expect(updated.json.response).toMatchObject({ name: 'Kenitra Main', zoneCode: 'STH', updatedBy: 'admin' });
    expect(updated.json.response.workingNonWorkingDays.MON).toBe(false);
    const fra = (await send('GET', '/registrationcenters/10001/fra')).json.response.registrationCenters[0];
    expect(fra).toMatchObject({ name: 'Centre de Kenitra', zoneCode: 'STH' });

    const days = (await send('GET', '/workingdays/10001/fra')).json.response.workingdays;
    expect(days.map((d: any) => [d.dayCode, d.isWorking])).toEqual([
      ['MON', false],
      ['TUE', true],
      ['WED', true],
      ['THU', true],
      ['FRI', true],
      ['SAT', true],
      ['SUN', false],
    ]);
    expect(days[0]).toEqual({ dayCode: 'MON', name: 'Monday', order: 1, languageCode: 'fra', isWorking: false });
    expect((await send('GET', '/registrationcenters/10001/workingdays/eng')).json.response.workingdays).toHaveLength(7);

    const ofLanguage = (await send('GET', '/registrationcenters/eng')).json.response.registrationCenters.map((c: any) => c.id);
    expect(ofLanguage).toEqual(['10001', '10002']);
  });

  it('refuses bad centres with their codes and writes nothing', async () => {
    const post = (body: Record<string, unknown>) => () => send('POST', '/registrationcenters', body);
    await expectRejected(t, post(centre({ locationCode: 'NOWHERE' })), 'KER-MSD-026');
    await expectRejected(t, post(centre({ holidayLocationCode: 'NOWHERE' })), 'KER-MSD-026');
    await expectRejected(t, post(centre({ zoneCode: 'NOZONE' })), 'KER-MSD-340');
    await expectRejected(t, post(centre({ langCode: 'deu' })), 'KER-MSD-999');
    await expectRejected(t, post(centre({ name: undefined })), 'KER-MSD-999');
    await expectRejected(t, post(centre({ centerStartTime: '18:00:00' })), 'KER-MSD-309');
    await expectRejected(t, post(centre({ lunchStartTime: '14:30:00' })), 'KER-MSD-308');
    await expectRejected(t, post(centre({ lunchStartTime: '08:00:00' })), 'KER-MSD-259');
    await expectRejected(t, post(centre({ lunchEndTime: '18:00:00' })), 'KER-MSD-260');
    await expectRejected(t, post(centre({ latitude: '123.5' })), 'KER-MSD-307');
    await expectRejected(t, post(centre({ centerStartTime: '9am' })), 'KER-MSD-999');
    await expectRejected(t, post({ ...centre(), workingNonWorkingDays: { MONDAY: true } }), 'KER-MSD-999');
    await expectRejected(t, post(centre({ id: '10001' })), 'KER-MSD-996');
    await expectRejected(t, () => send('PUT', '/registrationcenters', centre({ id: '99999' })), 'KER-MSD-215');
    await expectRejected(t, () => send('PUT', '/registrationcenters', centre()), 'KER-MSD-999');
    await expectRejected(t, () => send('PUT', '/registrationcenters', centre({ id: '10001', locationCode: 'NOWHERE' })), 'KER-MSD-026');
    await expectRejected(t, () => send('GET', '/registrationcenters/99999/eng'), 'KER-MSD-215');
    await expectRejected(t, () => send('GET', '/workingdays/99999/eng'), 'KER-MSD-215');
    await expectRejected(t, () => send('DELETE', '/registrationcenters/99999'), 'KER-MSD-215');
  });

  it('lets exactly one of two racing creates of the same centre win', async () => {
    const results = await Promise.all([1, 2].map(() => send('POST', '/registrationcenters', centre({ id: '20001', name: 'Race' }))));
    expect(results.filter((r) => r.json.errors === null)).toHaveLength(1);
    expect(results.filter((r) => r.json.errors?.[0]?.errorCode === 'KER-MSD-996')).toHaveLength(1);
  });
});

describe('machines', () => {
  it('creates, reads, updates, deletes and revives a machine', async () => {
    const { json } = await send('POST', '/machines', machine({ regCenterId: '10002' }));
    expect(json.errors).toBeNull();
    expect(json.response).toMatchObject({
      id: '10001',
      name: 'machine-a',
      regCenterId: '10002',
      validityDateTime: '2030-12-31T00:00:00.000Z',
      createdBy: 'admin',
    });
    expect((await send('GET', '/machines/10001/eng')).json.response.machines[0].serialNum).toBe('SN-1');
    const fra = await send('POST', '/machines', machine({ id: '10001', langCode: 'fra' }));
    expect(fra.json.response.regCenterId).toBeNull();
    // Every field is shared: the French row moved the machine off its centre in both languages.
    expect((await send('GET', '/machines/10001/eng')).json.response.machines[0].regCenterId).toBeNull();
    const updated = await send('PUT', '/machines', machine({ id: '10001', regCenterId: '10002', ipAddress: '10.0.0.1' }));
    expect(updated.json.response).toMatchObject({ regCenterId: '10002', ipAddress: '10.0.0.1', updatedBy: 'admin' });
    expect((await send('GET', '/machines/eng')).json.response.machines.map((m: any) => m.id)).toEqual(['10001']);

    await expectRejected(t, () => send('DELETE', '/registrationcenters/10002'), 'KER-MSD-192');
    expect((await send('DELETE', '/machines/10001')).json.response).toEqual({ id: '10001' });
    await expectRejected(t, () => send('GET', '/machines/10001/fra'), 'KER-MSD-030');
    const revived = await send('POST', '/machines', machine({ id: '10001' }));
    expect(revived.json.response.id).toBe('10001');
    await send('DELETE', '/machines/10001');
    expect((await send('DELETE', '/registrationcenters/10002')).json.response).toEqual({ id: '10002' });
    await expectRejected(t, () => send('GET', '/registrationcenters/10002/eng'), 'KER-MSD-215');
  });

  it('refuses bad machines with their codes and writes nothing', async () => {
    await send('POST', '/machines', machine({ id: 'M-1', name: 'taken' }));
    const post = (body: Record<string, unknown>) => () => send('POST', '/machines', body);
    await expectRejected(t, post(machine({ name: 'taken' })), 'KER-MSD-413');
    await expectRejected(t, post(machine({ id: 'M-1' })), 'KER-MSD-996');
    await expectRejected(t, post(machine({ zoneCode: 'NOZONE' })), 'KER-MSD-343');
    await expectRejected(t, post(machine({ regCenterId: '99999' })), 'KER-MSD-215');
    await expectRejected(t, post(machine({ validityDateTime: 'tomorrow' })), 'KER-MSD-043');
    await expectRejected(t, post(machine({ name: '' })), 'KER-MSD-999');
    await expectRejected(t, post(machine({ langCode: 'english' })), 'KER-MSD-999');
    await expectRejected(t, () => send('PUT', '/machines', machine({ id: 'NOPE' })), 'KER-MSD-030');
    await expectRejected(t, () => send('DELETE', '/machines/NOPE'), 'KER-MSD-030');
    await expectRejected(t, () => send('GET', '/machines/NOPE/eng'), 'KER-MSD-030');
  });

  it('takes a machine validity as a DateTime through GraphQL; REST refuses a malformed one with KER-MSD-043 before anything else', async () => {
    const mutation = 'mutation($input: MachineInput!) { createMachine(input: $input) { machine { id validityDateTime } userErrors { field code message } } }';
    const created = await t.graphql(mutation, { input: machine({ id: 'DT-1', name: 'dt-1', validityDateTime: '2031-06-30T08:00:00.000Z' }) }, auth);
    expect(created.errors).toBeUndefined();
    expect(created.data.createMachine).toEqual({ machine: { id: 'DT-1', validityDateTime: '2031-06-30T08:00:00.000Z' }, userErrors: [] });
    const before = await t.snapshot();
    const refused = await t.graphql(mutation, { input: machine({ id: 'DT-2', name: 'dt-2', validityDateTime: 'tomorrow' }) }, auth);
    expect(refused.errors?.[0]?.message).toMatch(/DateTime/);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await t.snapshot()).toEqual(before);
    // As MOSIP parses the date with the request: a malformed validity is answered before an unknown machine.
    await expectRejected(t, () => send('PUT', '/machines', machine({ id: 'NOPE', validityDateTime: 'tomorrow' })), 'KER-MSD-043');
    // An empty validity is none.
    const none = await send('POST', '/machines', machine({ id: 'DT-3', name: 'dt-3', validityDateTime: '' }));
    expect(none.json.response).toMatchObject({ id: 'DT-3', validityDateTime: null });
  });

  it('lets exactly one of two racing machines take a name', async () => {
    const results = await Promise.all(['R-1', 'R-2'].map((id) => send('POST', '/machines', machine({ id, name: 'racer' }))));
    expect(results.filter((r) => r.json.errors === null)).toHaveLength(1);
    expect(results.filter((r) => r.json.errors?.[0]?.errorCode === 'KER-MSD-413')).toHaveLength(1);
  });
});

describe('user centre mapping', () => {
  it('maps a user to one centre, refuses a second, unmaps and maps again', async () => {
    await createUser('officer-1', ['REGISTRATION_OFFICER']);
    const other = await created(centre({ name: 'Other' }));
    const mapped = await send('POST', '/usercentermapping', { id: 'officer-1', regCenterId: '10001', name: 'Officer One', langCode: 'eng', isActive: true });
    expect(mapped.json.response).toMatchObject({ userId: 'officer-1', regCenterId: '10001', isActive: true, createdBy: 'admin' });
    await expectRejected(t, () => send('POST', '/usercentermapping', { userId: 'officer-1', regCenterId: '10001' }), 'KER-MSD-426');
    await expectRejected(t, () => send('POST', '/usercentermapping', { userId: 'officer-1', regCenterId: other.id }), 'KER-MSD-432');
    await expectRejected(t, () => send('POST', '/usercentermapping', { userId: 'nobody', regCenterId: '10001' }), 'KER-USR-007');
    await expectRejected(t, () => send('POST', '/usercentermapping', { userId: 'officer-1', regCenterId: '99999' }), 'KER-MSD-428');
    await expectRejected(t, () => send('POST', '/usercentermapping', { regCenterId: '10001' }), 'KER-MSD-999');
    await expectRejected(t, () => send('DELETE', `/registrationcenters/10001`), 'KER-MSD-192');

    expect((await send('DELETE', '/usercentermapping/officer-1/10001')).json.response).toMatchObject({ userId: 'officer-1', regCenterId: '10001' });
    await expectRejected(t, () => send('DELETE', '/usercentermapping/officer-1/10001'), 'KER-MSD-423');
    expect((await send('POST', '/usercentermapping', { userId: 'officer-1', regCenterId: other.id })).json.errors).toBeNull();
  });

  it('lets one of two racing mappings of a user to different centres win', async () => {
    await createUser('officer-2', ['REGISTRATION_OFFICER']);
    const third = await created(centre({ name: 'Third' }));
    const results = await Promise.all(
      ['10001', third.id as string].map((regCenterId) => send('POST', '/usercentermapping', { userId: 'officer-2', regCenterId })),
    );
    expect(results.filter((r) => r.json.errors === null)).toHaveLength(1);
    expect(results.filter((r) => r.json.errors?.[0]?.errorCode === 'KER-MSD-432')).toHaveLength(1);
  });
});

describe('portal graph', () => {
  it('lists centres with working days, users and machines, and machines with their centre', async () => {
    await send('POST', '/machines', machine({ id: 'G-1', name: 'graph-machine', regCenterId: '10001' }));
    await send('POST', '/usercentermapping', { userId: 'officer-2', regCenterId: '10001' }).catch(() => undefined);
    const token = bearer(await t.adminToken());
    const listed = await t.graphql(
      `query($filter: RegistrationCentreFilter) { registrationCentres(first: 2, filter: $filter) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { node { id langCode name workingDays { dayCode isWorking } userCount createdBy { userId }
          users(first: 5) { totalCount edges { node { user { userId } } } }
          machines(first: 5) { totalCount edges { node { id name centre { id name } } } } } } } }`,
      { filter: { langCode: 'eng', zoneCode: 'STH' } },
      token,
    );
    expect(listed.errors).toBeUndefined();
    const page = listed.data.registrationCentres;
    expect(page.totalCount).toBe(1);
    const node = page.edges[0].node;
    expect(node).toMatchObject({ id: '10001', name: 'Kenitra Main', createdBy: { userId: 'admin' } });
    expect(node.workingDays).toHaveLength(7);
    expect(node.userCount).toBe(node.users.totalCount);
    expect(node.machines.edges.map((e: any) => e.node)).toEqual([{ id: 'G-1', name: 'graph-machine', centre: { id: '10001', name: 'Kenitra Main' } }]);

    const all = await t.graphql(
      '{ registrationCentres(first: 1, filter: {langCode: "eng"}) { totalCount pageInfo { endCursor hasNextPage } edges { node { id } } } }',
      {},
      token,
    );
    const next = await t.graphql(
      'query($after: String) { registrationCentres(first: 10, after: $after, filter: {langCode: "eng"}) { edges { node { id } } } }',
      { after: all.data.registrationCentres.pageInfo.endCursor },
      token,
    );
    expect(all.data.registrationCentres.pageInfo.hasNextPage).toBe(true);
    expect(next.data.registrationCentres.edges.map((e: any) => e.node.id)).not.toContain(all.data.registrationCentres.edges[0].node.id);
    expect(next.data.registrationCentres.edges).toHaveLength(all.data.registrationCentres.totalCount - 1);

    const machines = await t.graphql('{ machines(filter: {name: "GRAPH"}) { totalCount edges { node { id centre { id } } } } }', {}, token);
    expect(machines.data.machines).toEqual({ totalCount: 1, edges: [{ node: { id: 'G-1', centre: { id: '10001' } } }] });
  });
});

describe('roles', () => {
  it('refuses a resident (KER-ATH-403) on every write', async () => {
    await createUser('resident-c', ['RESIDENT']);
    const login = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "resident-c", password: "user-password-1", appId: "resident" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    const resident = cookieHeader(login.data.loginWithPassword.passwordLogin.token);
    await expectRejected(t, () => send('POST', '/registrationcenters', centre(), resident), 'KER-ATH-403');
    await expectRejected(t, () => send('POST', '/machines', machine({ name: 'resident-m' }), resident), 'KER-ATH-403');
    await expectRejected(t, () => send('POST', '/usercentermapping', { userId: 'resident-c', regCenterId: '10001' }, resident), 'KER-ATH-403');
    await expectRejected(t, () => send('DELETE', '/registrationcenters/10001', undefined, resident), 'KER-ATH-403');
  });

  it('shows a resident where centres are, but not their machines or staff, on any path', async () => {
    await createUser('resident-d', ['RESIDENT']);
    const login = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "resident-d", password: "user-password-1", appId: "resident" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    const token = login.data.loginWithPassword.passwordLogin.token as string;
    const resident = cookieHeader(token);
    expect((await send('GET', '/registrationcenters/10001/eng', undefined, resident)).json.errors).toBeNull();
    await expectRejected(t, () => send('GET', '/machines/eng', undefined, resident), 'KER-ATH-403');
    for (const query of [
      '{ machines { totalCount } }',
      '{ registrationCentre(id: "10001", langCode: "eng") { users { totalCount } } }',
      '{ registrationCentre(id: "10001", langCode: "eng") { userCount } }',
      '{ registrationCentre(id: "10001", langCode: "eng") { machines { edges { node { macAddress } } } } }',
    ]) {
      const answer = await t.graphql(query, {}, bearer(token));
      expect(refusalCode(answer), query).toBe('KER-ATH-403');
    }
  });
});

describe('each caller in its own scope', () => {
  it('keeps a zonal admin to the centres, machines and centre users of its zones (KER-MSD-439), through REST and GraphQL', async () => {
    await createUser('zadmin-sth', ['ZONAL_ADMIN']);
    await createUser('zadmin-none', ['ZONAL_ADMIN']);
    await createUser('officer-n', ['REGISTRATION_OFFICER']);
    await createUser('officer-s', ['REGISTRATION_OFFICER']);
    expect((await send('POST', '/zoneuser', { userId: 'zadmin-sth', zoneCode: 'STH' })).json.errors).toBeNull();
    await created(centre({ id: 'Z-N', name: 'North centre', zoneCode: 'NTH' }));
    await created(centre({ id: 'Z-S', name: 'South centre', zoneCode: 'STH' }));
    expect((await send('POST', '/machines', machine({ id: 'ZM-N', name: 'north-machine', regCenterId: 'Z-N' }))).json.errors).toBeNull();
    expect((await send('POST', '/usercentermapping', { userId: 'officer-n', regCenterId: 'Z-N' })).json.errors).toBeNull();
    const token = await login('zadmin-sth', 'admin');
    const sth = cookieHeader(token);

    const refused = (method: string, path: string, body?: unknown) => expectRejected(t, () => send(method, path, body, sth), 'KER-MSD-439');
    await refused('PUT', '/registrationcenters', centre({ id: 'Z-N', name: 'Taken over', zoneCode: 'NTH' }));
    // neither pulled into its zone nor pushed out of it
    await refused('PUT', '/registrationcenters', centre({ id: 'Z-N', zoneCode: 'STH' }));
    await refused('PUT', '/registrationcenters', centre({ id: 'Z-S', zoneCode: 'NTH' }));
    await refused('POST', '/registrationcenters', centre({ name: 'Elsewhere', zoneCode: 'NTH' }));
    // another language of a centre rewrites its shared fields, the zone among them
    await refused('POST', '/registrationcenters', centre({ id: 'Z-N', langCode: 'fra', name: 'Nord', zoneCode: 'STH' }));
    await refused('DELETE', '/registrationcenters/Z-N');
    await refused('POST', '/machines', machine({ name: 'intruder-1', zoneCode: 'NTH' }));
    // a machine of its own zone placed at another zone's centre writes that centre
    await refused('POST', '/machines', machine({ name: 'intruder-2', zoneCode: 'STH', regCenterId: 'Z-N' }));
    await refused('POST', '/machines', machine({ id: 'ZM-N', langCode: 'fra', name: 'north-machine', zoneCode: 'STH' }));
    await refused('PUT', '/machines', machine({ id: 'ZM-N', name: 'north-machine', regCenterId: 'Z-N', ipAddress: '10.9.9.9' }));
    await refused('PUT', '/machines', machine({ id: 'ZM-N', name: 'north-machine', zoneCode: 'STH', regCenterId: 'Z-S' }));
    await refused('DELETE', '/machines/ZM-N');
    await refused('POST', '/usercentermapping', { userId: 'officer-s', regCenterId: 'Z-N' });
    await refused('DELETE', '/usercentermapping/officer-n/Z-N');

    const graph = (query: string, variables: Record<string, unknown> = {}) => expectGraphRejected(token, query, variables, 'KER-MSD-439');
    await graph(
      'mutation($input: RegistrationCentreInput!) { updateRegistrationCentre(input: $input) { registrationCentre { id } userErrors { field code message } } }',
      {
        input: centre({ id: 'Z-N', name: 'Taken over', zoneCode: 'NTH' }),
      },
    );
    await graph(
      'mutation($input: RegistrationCentreInput!) { createRegistrationCentre(input: $input) { registrationCentre { id } userErrors { field code message } } }',
      { input: centre({ zoneCode: 'NTH' }) },
    );
    await graph('mutation { deleteRegistrationCentre(input: { id: "Z-N" }) { result userErrors { field code message } } }');
    await graph('mutation($input: MachineInput!) { createMachine(input: $input) { machine { id } userErrors { field code message } } }', {
      input: machine({ name: 'intruder-3', zoneCode: 'STH', regCenterId: 'Z-N' }),
    });
    await graph('mutation($input: MachineInput!) { updateMachine(input: $input) { machine { id } userErrors { field code message } } }', {
      input: machine({ id: 'ZM-N', name: 'north-machine', regCenterId: 'Z-N', serialNum: 'SN-X' }),
    });
    await graph('mutation { deleteMachine(input: { id: "ZM-N" }) { result userErrors { field code message } } }');
    await graph(
      'mutation { mapUserToCentre(input: { userId: "officer-s", regCenterId: "Z-N" }) { registrationCentreUser { regCenterId } userErrors { field code message } } }',
    );
    await graph(
      'mutation { unmapUserFromCentre(input: { userId: "officer-n", regCenterId: "Z-N" }) { registrationCentreUser { regCenterId } userErrors { field code message } } }',
    );
    // an admin mapped to no zone writes nowhere
    const none = cookieHeader(await login('zadmin-none', 'admin'));
    await expectRejected(t, () => send('POST', '/registrationcenters', centre({ zoneCode: 'STH' }), none), 'KER-MSD-439');

    // In its own zone it does all of it.
    const south = await send('PUT', '/registrationcenters', centre({ id: 'Z-S', name: 'South main', zoneCode: 'STH' }), sth);
    expect(south.json.response).toMatchObject({ name: 'South main', updatedBy: 'zadmin-sth' });
    const own = await send('POST', '/machines', machine({ id: 'ZM-S', name: 'south-machine', zoneCode: 'STH', regCenterId: 'Z-S' }), sth);
    expect(own.json.response).toMatchObject({ regCenterId: 'Z-S', createdBy: 'zadmin-sth' });
    expect((await send('POST', '/usercentermapping', { userId: 'officer-s', regCenterId: 'Z-S' }, sth)).json.response.createdBy).toBe('zadmin-sth');
    // The country's admin moves the south centre north: it is no longer the zonal admin's.
    expect((await send('PUT', '/registrationcenters', centre({ id: 'Z-S', name: 'South main', zoneCode: 'NTH' }))).json.errors).toBeNull();
    await refused('PUT', '/registrationcenters', centre({ id: 'Z-S', name: 'Back south', zoneCode: 'STH' }));
    await refused('DELETE', '/usercentermapping/officer-s/Z-S');
    await refused('PUT', '/machines', machine({ id: 'ZM-S', name: 'south-machine', zoneCode: 'STH', regCenterId: 'Z-S' }));
  });

  it('shows machines and centre staff only to the staff of their centre and the admins of its zone', async () => {
    await created(centre({ id: 'R-N', name: 'Reach north', zoneCode: 'NTH' }));
    await created(centre({ id: 'R-S', name: 'Reach south', zoneCode: 'STH' }));
    for (const [id, name, zoneCode, regCenterId] of [
      ['RM-N', 'reach-north', 'NTH', 'R-N'],
      ['RM-S', 'reach-south', 'STH', 'R-S'],
    ]) {
      expect((await send('POST', '/machines', machine({ id, name, zoneCode, regCenterId }))).json.errors).toBeNull();
    }
    await createUser('reader-n', ['REGISTRATION_OFFICER']);
    await createUser('reader-none', ['REGISTRATION_SUPERVISOR']);
    expect((await send('POST', '/usercentermapping', { userId: 'reader-n', regCenterId: 'R-N' })).json.errors).toBeNull();
    const officer = await login('reader-n', 'registrationclient');
    const codes = (answer: any) => (answer.errors ?? []).map((error: any) => error.extensions.code);

    // An officer: its own centre's machines and staff, nothing of another centre.
    expect(codes(await t.graphql('{ machines(filter: {regCenterId: "R-S"}) { totalCount } }', {}, bearer(officer)))).toEqual(['KER-ATH-403']);
    const mine = await t.graphql('{ machines(first: 100) { edges { node { id regCenterId macAddress } } } }', {}, bearer(officer));
    expect(mine.data.machines.edges.map((e: any) => e.node.id)).toEqual(['RM-N']);
    const other = await t.graphql(
      '{ registrationCentre(id: "R-S", langCode: "eng") { id users { totalCount } userCount machines { totalCount } } }',
      {},
      bearer(officer),
    );
    expect(other.data.registrationCentre).toEqual({ id: 'R-S', users: null, userCount: null, machines: null });
    expect(codes(other)).toEqual(['KER-ATH-403', 'KER-ATH-403', 'KER-ATH-403']);
    const own = await t.graphql(
      '{ registrationCentre(id: "R-N", langCode: "eng") { userCount users { edges { node { user { userId } } } } machines { totalCount } } }',
      {},
      bearer(officer),
    );
    expect(own.errors).toBeUndefined();
    expect(own.data.registrationCentre).toMatchObject({
      userCount: 1,
      users: { edges: [{ node: { user: { userId: 'reader-n' } } }] },
      machines: { totalCount: 1 },
    });
    expect(codes(await t.graphql('{ machine(id: "RM-S", langCode: "eng") { macAddress } }', {}, bearer(officer)))).toEqual(['KER-ATH-403']);
    expect((await send('GET', '/machines/eng', undefined, cookieHeader(officer))).json.response.machines.map((m: any) => m.id)).toEqual(['RM-N']);
    await expectRejected(t, () => send('GET', '/machines/RM-S/eng', undefined, cookieHeader(officer)), 'KER-ATH-403');
    expect((await send('GET', '/machines/RM-N/eng', undefined, cookieHeader(officer))).json.response.machines[0].id).toBe('RM-N');
    // Staff of no centre: nothing.
    expect((await send('GET', '/machines/eng', undefined, cookieHeader(await login('reader-none', 'registrationclient')))).json.response.machines).toEqual([]);

    // A zonal admin: the machines and staff of its zone only.
    const sth = await login('zadmin-sth', 'admin');
    const listed = (await send('GET', '/machines/eng', undefined, cookieHeader(sth))).json.response.machines;
    expect(listed.map((m: any) => m.id)).toContain('RM-S');
    expect(listed.map((m: any) => m.id)).not.toContain('RM-N');
    // each machine listed lies in the admin's zone, or stands at a centre of it
    const southCentres = new Set((await t.platform.deps.prisma.registrationCenter.findMany({ where: { zoneCode: 'STH' } })).map((row) => row.id));
    for (const m of listed) expect(m.zoneCode === 'STH' || southCentres.has(m.regCenterId), m.id).toBe(true);
    await expectRejected(t, () => send('GET', '/machines/RM-N/eng', undefined, cookieHeader(sth)), 'KER-MSD-439');
    expect(codes(await t.graphql('{ registrationCentre(id: "R-N", langCode: "eng") { users { totalCount } } }', {}, bearer(sth)))).toEqual(['KER-MSD-439']);
    expect(codes(await t.graphql('{ machines(filter: {regCenterId: "R-N"}) { totalCount } }', {}, bearer(sth)))).toEqual(['KER-MSD-439']);

    // Entities by their keys, as the gateway fetches them: another centre's machine is absent.
    const masterdata = COMPONENTS.find((component) => component.name === 'masterdata')!;
    const schema = await t.platform.buildSubgraph(masterdata);
    const entities = await graphql({
      schema,
      source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Machine { id macAddress } } }',
      variableValues: {
        r: [
          { __typename: 'Machine', id: 'RM-N', langCode: 'eng' },
          { __typename: 'Machine', id: 'RM-S', langCode: 'eng' },
        ],
      },
      contextValue: createRequestContext({ headers: bearer(officer), clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
    });
    expect(entities.data!._entities).toEqual([{ id: 'RM-N', macAddress: 'A4-BB-6D-0F-B4-D0' }, null]);
  });

  it('takes `_` and `%` in a name filter as they are written', async () => {
    expect((await send('POST', '/machines', machine({ id: 'U-1', name: 'under_score' }))).json.errors).toBeNull();
    const admin = bearer(await t.adminToken());
    const named = async (name: string) =>
      (await t.graphql('query($n: String) { machines(filter: {name: $n}) { edges { node { id } } } }', { n: name }, admin)).data;
    expect((await named('_')).machines.edges).toEqual([{ node: { id: 'U-1' } }]);
    expect((await named('%')).machines.edges).toEqual([]);
    expect((await named('r_s')).machines.edges).toEqual([{ node: { id: 'U-1' } }]);
    const centres = await t.graphql('{ registrationCentres(filter: {name: "_"}) { totalCount } }', {}, admin);
    expect(centres.data.registrationCentres.totalCount).toBe(0);
  });
});
