// Issue 19, as the attacker played it on the sample country: a role alone never reaches another
// caller's centres, machines, staff or devices, through REST or any GraphQL path. Zones here:
//   MOR (the admin's) ── RSK ── KTA (centre 10001, machine 10001, the sample staff)
//                    ├── Z_1 (z1-admin's; centre 10002, machine-10002)
//                    └── ZX1 ── ZX1C (a device: "Z_1/" as a LIKE pattern matches "ZX1/")
import type { KeyObject } from 'node:crypto';
import { graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { expectRejected } from '../support/assertions.js';
import { decryptForMachine, machineKeys, tpmKeyRequest } from '../support/machine.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

const PASSWORD = 'scope-password-1';
/** Each caller's token: the zonal admin of Z_1, an officer of each centre, a resident. */
const tokens: Record<'z1' | 'officer1' | 'officer2' | 'resident', string> = { z1: '', officer1: '', officer2: '', resident: '' };
const cookie = (who: keyof typeof tokens) => cookieHeader(tokens[who]);
const token = (who: keyof typeof tokens) => bearer(tokens[who]);

const send = (method: string, path: string, body: unknown, headers: Record<string, string>) =>
  t.request(method, path, { body: body === undefined ? undefined : envelopeOf(body), headers });
const ok = async (response: Promise<{ json: any }>) => {
  const { json } = await response;
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response;
};
const codes = (answer: any): string[] => (answer.errors ?? []).map((error: any) => error.extensions?.code);

/** A GraphQL operation refused with `code` that changes no row anywhere. */
async function graphRejected(headers: Record<string, string>, query: string, variables: Record<string, unknown>, code: string): Promise<void> {
  const before = await t.snapshot();
  const answer = await t.graphql(query, variables, headers);
  expect(refusalCode(answer), query).toBe(code);
  expect(await t.snapshot()).toEqual(before);
}

async function user(userId: string, roles: string[], appId: string): Promise<string> {
  const created = await t.graphql(
    'mutation($input: UserInput!) { createUser(input: $input) { user { userId } userErrors { field code message } } }',
    { input: { userId, password: PASSWORD, roles, appIds: [appId] } },
    bearer(await t.adminToken()),
  );
  expect(created.errors).toBeUndefined();
  const login = await t.graphql(
    'mutation($u: String!, $p: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: PASSWORD,
      a: appId,
    },
  );
  return login.data.loginWithPassword.passwordLogin.token as string;
}

const zone = (code: string, parentZoneCode: string, hierarchyLevel: number) => ({
  code,
  langCode: 'eng',
  name: `Zone ${code}`,
  hierarchyLevel,
  hierarchyName: 'Zone',
  parentZoneCode,
});
/** Centre 10001 as the sample has it, with a change. */
const centre10001 = (over: Record<string, unknown> = {}) => ({
  id: '10001',
  langCode: 'eng',
  name: 'Center A Ben Mansour',
  centerTypeCode: 'REG',
  locationCode: 'KTA',
  holidayLocationCode: 'KTA',
  zoneCode: 'KTA',
  ...over,
});
/** Machine 10001 as the sample has it, with a change. */
const machine10001 = (over: Record<string, unknown> = {}) => ({
  id: '10001',
  langCode: 'eng',
  name: '10001',
  serialNum: 'FB5962911686',
  macAddress: 'A4-BB-6D-0F-B4-D0',
  ipAddress: '192.168.0.424',
  machineSpecId: '1001',
  regCenterId: '10001',
  zoneCode: 'KTA',
  ...over,
});

let machine2Key: { publicKey: KeyObject; privateKey: KeyObject };

beforeAll(async () => {
  await ok(send('POST', '/v1/masterdata/zones', zone('Z_1', 'MOR', 1), admin));
  await ok(send('POST', '/v1/masterdata/zones', zone('ZX1', 'MOR', 1), admin));
  await ok(send('POST', '/v1/masterdata/zones', zone('ZX1C', 'ZX1', 2), admin));
  await ok(
    send(
      'POST',
      '/v1/masterdata/devices',
      {
        id: 'ZX1C-DEV',
        name: 'Scanner of ZX1C',
        serialNum: 'SN-ZX1C',
        deviceSpecId: '165',
        macAddress: '3C-52-82-99-99-99',
        ipAddress: '10.99.99.99',
        langCode: 'eng',
        isActive: true,
        validityDateTime: '2030-12-31T00:00:00.000Z',
        zoneCode: 'ZX1C',
      },
      admin,
    ),
  );
  await ok(send('POST', '/v1/masterdata/registrationcenters', { ...centre10001({ id: '10002', name: 'Centre of Z_1', zoneCode: 'Z_1' }) }, admin));
  await ok(
    send(
      'POST',
      '/v1/masterdata/machines',
      machine10001({ id: '10002', name: 'machine-10002', regCenterId: '10002', zoneCode: 'Z_1', macAddress: 'M2' }),
      admin,
    ),
  );
  tokens.z1 = await user('z1-admin', ['ZONAL_ADMIN'], 'admin');
  await ok(send('POST', '/v1/masterdata/zoneuser', { userId: 'z1-admin', zoneCode: 'Z_1' }, admin));
  tokens.officer1 = await user('officer-10001', ['REGISTRATION_OFFICER'], 'registrationclient');
  tokens.officer2 = await user('officer-10002', ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'], 'registrationclient');
  tokens.resident = await user('resident-s', ['RESIDENT'], 'resident');
  await ok(send('POST', '/v1/masterdata/usercentermapping', { userId: 'officer-10001', regCenterId: '10001' }, admin));
  await ok(send('POST', '/v1/masterdata/usercentermapping', { userId: 'officer-10002', regCenterId: '10002' }, admin));
  machine2Key = machineKeys();
});

describe('a zonal admin outside its zones', () => {
  it('changes nothing of centre 10001 (zone KTA), its machines or its staff: KER-MSD-439, through GraphQL and REST', async () => {
    const z1 = token('z1');
    const refused = (query: string, variables: Record<string, unknown> = {}) => graphRejected(z1, query, variables, 'KER-MSD-439');
    await refused(
      'mutation($input: RegistrationCentreInput!) { updateRegistrationCentre(input: $input) { registrationCentre { id } userErrors { field code message } } }',
      {
        input: centre10001({ name: 'Mine now' }),
      },
    );
    await refused(
      'mutation($input: RegistrationCentreInput!) { updateRegistrationCentre(input: $input) { registrationCentre { id } userErrors { field code message } } }',
      { input: centre10001({ zoneCode: 'Z_1' }) },
    );
    await refused('mutation { deleteRegistrationCentre(input: { id: "10001" }) { result userErrors { field code message } } }');
    await refused('mutation($input: MachineInput!) { createMachine(input: $input) { machine { id } userErrors { field code message } } }', {
      input: machine10001({ id: null, name: 'planted', zoneCode: 'Z_1' }),
    });
    await refused('mutation($input: MachineInput!) { updateMachine(input: $input) { machine { id } userErrors { field code message } } }', {
      input: machine10001({ ipAddress: '6.6.6.6' }),
    });
    await refused('mutation { deleteMachine(input: { id: "10001" }) { result userErrors { field code message } } }');
    await refused(
      'mutation { mapUserToCentre(input: { userId: "z1-admin", regCenterId: "10001" }) { registrationCentreUser { regCenterId } userErrors { field code message } } }',
    );
    await refused(
      'mutation { unmapUserFromCentre(input: { userId: "sample-officer", regCenterId: "10001" }) { registrationCentreUser { regCenterId } userErrors { field code message } } }',
    );

    const rest = (method: string, path: string, body?: unknown) => expectRejected(t, () => send(method, path, body, cookie('z1')), 'KER-MSD-439');
    await rest('PUT', '/v1/masterdata/machines', machine10001({ ipAddress: '6.6.6.6' }));
    await rest('PUT', '/v1/masterdata/machines', machine10001({ regCenterId: '10002', zoneCode: 'Z_1' }));
    await rest('PUT', '/v1/masterdata/registrationcenters', centre10001({ name: 'Mine now' }));
    await rest('POST', '/v1/masterdata/machines', machine10001({ id: null, name: 'planted', zoneCode: 'Z_1' }));
    await rest('DELETE', '/v1/masterdata/machines/10001');
    await rest('POST', '/v1/masterdata/usercentermapping', { userId: 'z1-admin', regCenterId: '10001' });
    await rest('DELETE', '/v1/masterdata/usercentermapping/sample-officer/10001');
    // Racing the same writes changes nothing either.
    const before = await t.snapshot();
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send('PUT', '/v1/masterdata/machines', machine10001({ ipAddress: `6.6.6.${i}` }), cookie('z1'))),
    );
    expect(raced.map((r) => r.json.errors?.[0]?.errorCode)).toEqual(Array(6).fill('KER-MSD-439'));
    expect(await t.snapshot()).toEqual(before);
    expect((await t.platform.deps.prisma.machine.findFirstOrThrow({ where: { id: '10001', langCode: 'eng' } })).ipAddress).toBe('192.168.0.424');

    // Within its zone it works.
    expect(
      (await ok(send('PUT', '/v1/masterdata/registrationcenters', centre10001({ id: '10002', name: 'Renamed', zoneCode: 'Z_1' }), cookie('z1')))).name,
    ).toBe('Renamed');
  });

  it('sees nothing of zone ZX1C, whose code a LIKE pattern of Z_1 matches: devices, zones, search, filter values', async () => {
    const z1 = token('z1');
    const own = {
      id: 'Z1-DEV',
      name: 'Scanner of Z_1',
      serialNum: 'SN-Z1',
      deviceSpecId: '165',
      macAddress: '3C-52-82-11-11-11',
      langCode: 'eng',
      isActive: true,
      validityDateTime: '2030-12-31T00:00:00.000Z',
      zoneCode: 'Z_1',
    };
    await ok(send('POST', '/v1/masterdata/devices', own, cookie('z1')));
    const graph = await t.graphql(
      '{ devices(first: 100) { edges { node { id macAddress } } } devicesByLanguage(langCode: "eng") { id } zones(first: 100) { edges { node { code } } } }',
      {},
      z1,
    );
    expect(graph.errors).toBeUndefined();
    expect(JSON.stringify(graph)).not.toContain('3C-52-82-99-99-99');
    expect(graph.data.devices.edges.map((e: any) => e.node.id)).toEqual(['Z1-DEV']);
    expect(graph.data.devicesByLanguage).toEqual([{ id: 'Z1-DEV' }]);
    expect(graph.data.zones.edges.map((e: any) => e.node.code)).toEqual(['Z_1']);
    expect(codes(await t.graphql('{ device(id: "ZX1C-DEV", langCode: "eng") { macAddress } }', {}, z1))).toEqual(['KER-MSD-439']);
    const search = await send(
      'POST',
      '/v1/masterdata/devices/search',
      { filters: [{ columnName: 'macAddress', type: 'contains', value: '3C' }] },
      cookie('z1'),
    );
    expect(search.json.response.data.map((d: any) => d.id)).toEqual(['Z1-DEV']);
    const values = await send('POST', '/v1/masterdata/devices/filtervalues', { filters: [{ columnName: 'ipAddress', type: 'unique' }] }, cookie('z1'));
    expect(JSON.stringify(values.json)).not.toContain('10.99.99.99');
    expect((await send('GET', '/v1/masterdata/zones/hierarchy/eng', undefined, cookie('z1'))).json.response.map((z: any) => z.code)).toEqual(['Z_1']);
    await expectRejected(t, () => send('PUT', '/v1/masterdata/devices/decommission/ZX1C-DEV', undefined, cookie('z1')), 'KER-MSD-439');
  });

  it("takes a name filter's `_` as an underscore, and bounds a search's pageStart (KER-MSD-317)", async () => {
    const machines = await t.graphql('{ machines(filter: {name: "_"}) { totalCount } registrationCentres(filter: {name: "_"}) { totalCount } }', {}, admin);
    expect(machines.data).toEqual({ machines: { totalCount: 0 }, registrationCentres: { totalCount: 0 } });
    await expectRejected(
      t,
      () => send('POST', '/v1/masterdata/devices/search', { pagination: { pageStart: 99999999999, pageFetch: 10 } }, admin),
      'KER-MSD-317',
    );
  });
});

describe('an officer of centre 10001', () => {
  it("cannot map centre 10002's machine (KER-ATH-403), nor read that machine's settings once its own officer has", async () => {
    const attacker = machineKeys();
    const map = (headers: Record<string, string>, key: KeyObject) => send('POST', '/v1/syncdata/tpm/publickey', tpmKeyRequest('machine-10002', key), headers);
    await expectRejected(t, () => map(cookie('officer1'), attacker.publicKey), 'KER-ATH-403');
    await graphRejected(
      token('officer1'),
      'mutation($machineName: ID!, $publicKey: String!) { uploadMachinePublicKey(input: { machineName: $machineName, publicKey: $publicKey }) { machineKey { keyIndex } userErrors { field code message } } }',
      tpmKeyRequest('machine-10002', attacker.publicKey),
      'KER-ATH-403',
    );
    // nor may the other centre's officer claim a name no machine has yet
    await expectRejected(
      t,
      () => send('POST', '/v1/syncdata/tpm/publickey', tpmKeyRequest('machine-10003', attacker.publicKey), cookie('officer1')),
      'KER-ATH-403',
    );

    const { keyIndex } = await ok(map(cookie('officer2'), machine2Key.publicKey));
    await expectRejected(t, () => send('GET', `/v1/syncdata/clientsettings?keyindex=${keyIndex}`, undefined, cookie('officer1')), 'KER-ATH-403');
    expect(codes(await t.graphql('query($k: String!) { clientSettings(keyIndex: $k) { lastSyncTime } }', { k: keyIndex }, token('officer1')))).toEqual([
      'KER-ATH-403',
    ]);
    // Its own officer syncs it: the staff list is its centre's.
    const settings = await ok(send('GET', `/v1/syncdata/clientsettings?keyindex=${keyIndex}`, undefined, cookie('officer2')));
    const staff = settings.dataToSync.find((entity: any) => entity.entityName === 'RegistrationCenterUser');
    expect((decryptForMachine(machine2Key.privateKey, staff.data) as any[]).map((row) => row.userId)).toEqual(['officer-10002']);
  });

  it("reads only its own centre's machines and staff, by any path (KER-ATH-403)", async () => {
    const officer = token('officer1');
    expect(codes(await t.graphql('{ machines(filter: {regCenterId: "10002"}) { edges { node { macAddress ipAddress serialNum } } } }', {}, officer))).toEqual([
      'KER-ATH-403',
    ]);
    const other = await t.graphql(
      '{ registrationCentre(id: "10002", langCode: "eng") { users { edges { node { user { userId } } } } machines { totalCount } } }',
      {},
      officer,
    );
    expect(other.data.registrationCentre).toEqual({ users: null, machines: null });
    expect(codes(other)).toEqual(['KER-ATH-403', 'KER-ATH-403']);
    const listed = await send('GET', '/v1/masterdata/machines/eng', undefined, cookie('officer1'));
    expect(listed.json.response.machines.map((m: any) => m.id)).toEqual(['10001']);
    await expectRejected(t, () => send('GET', '/v1/masterdata/machines/10002/eng', undefined, cookie('officer1')), 'KER-ATH-403');
    await expectRejected(t, () => send('GET', '/v1/syncdata/userdetails/10002', undefined, cookie('officer1')), 'KER-ATH-403');
    const own = await t.graphql('{ registrationCentre(id: "10001", langCode: "eng") { users { edges { node { user { userId } } } } } }', {}, officer);
    expect(own.data.registrationCentre.users.edges.map((e: any) => e.node.user.userId)).toEqual([
      'officer-10001',
      'sample-officer',
      'sample-operator',
      'sample-supervisor',
    ]);
  });
});

describe('machine keys', () => {
  it("are listed to each caller for the machines it reaches: its centre's for an officer, every one for a GLOBAL_ADMIN; an entity outside is absent", async () => {
    // machine-10002's key, mapped by its own officer (the same key again is no change)
    await ok(send('POST', '/v1/syncdata/tpm/publickey', tpmKeyRequest('machine-10002', machine2Key.publicKey), cookie('officer2')));
    const listQuery = '{ machineKeys(first: 100) { totalCount edges { node { machineName keyIndex } } } }';
    const names = async (headers: Record<string, string>) => {
      const answer = await t.graphql(listQuery, {}, headers);
      expect(answer.errors).toBeUndefined();
      const listed = answer.data.machineKeys.edges.map((edge: any) => edge.node.machineName);
      expect(answer.data.machineKeys.totalCount).toBe(listed.length);
      return listed;
    };
    expect(await names(token('officer2'))).toEqual(['machine-10002']);
    expect(await names(token('officer1'))).not.toContain('machine-10002');
    expect(await names(admin)).toContain('machine-10002');

    // By its key, as the gateway fetches entities: absent for the other centre's officer.
    const keys = COMPONENTS.find((component) => component.name === 'keys')!;
    const schema = await t.platform.buildSubgraph(keys);
    const entity = (headers: Record<string, string>) =>
      graphql({
        schema,
        source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on MachineKey { machineName keyIndex } } }',
        variableValues: { r: [{ __typename: 'MachineKey', machineName: 'machine-10002' }] },
        contextValue: createRequestContext({ headers, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
    expect((await entity(token('officer1'))).data!._entities).toEqual([null]);
    expect((await entity(token('officer2'))).data!._entities).toEqual([{ machineName: 'machine-10002', keyIndex: expect.any(String) }]);
  });
});

describe("the registration client's offline login list", () => {
  it("never holds the admin's hash or roles, even when a zonal admin maps the admin to its centre", async () => {
    const adminHash = (await t.platform.deps.prisma.user.findUniqueOrThrow({ where: { userId: 'admin' } })).passwordHash!;
    const first = await ok(send('GET', '/v1/syncdata/userdetails/10001', undefined, admin));
    expect(first.userDetails.map((u: any) => u.userName)).toEqual(['officer-10001', 'sample-officer', 'sample-operator', 'sample-supervisor']);
    expect(JSON.stringify(first)).not.toContain(adminHash.slice(-24));
    // The zonal admin maps the global admin to its own centre: the mapping is its to make, the hash still goes nowhere.
    await ok(send('POST', '/v1/masterdata/usercentermapping', { userId: 'admin', regCenterId: '10002' }, cookie('z1')));
    const second = await ok(send('GET', '/v1/syncdata/userdetails/10002', undefined, cookie('officer2')));
    expect(second.userDetails.map((u: any) => [u.userName, u.roles])).toEqual([['officer-10002', ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR']]]);
    expect(JSON.stringify(second)).not.toContain(adminHash.slice(-24));
    const graph = await t.graphql('{ syncUserDetails(regCenterId: "10002") { userName roles userPassword } }', {}, token('officer2'));
    expect(graph.data.syncUserDetails.map((u: any) => u.userName)).toEqual(['officer-10002']);
  });
});

describe('a resident', () => {
  it('reaches no machine, staff list, settings or key mapping (KER-ATH-403)', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/masterdata/machines/eng', undefined],
      ['GET', '/v1/masterdata/machines/10001/eng', undefined],
      ['GET', '/v1/syncdata/userdetails/10001', undefined],
      ['POST', '/v1/syncdata/tpm/publickey', tpmKeyRequest('10001', machineKeys().publicKey)],
      ['PUT', '/v1/masterdata/machines', machine10001({ ipAddress: '6.6.6.6' })],
    ] as const) {
      await expectRejected(t, () => send(method, path, body, cookie('resident')), 'KER-ATH-403');
    }
    for (const query of [
      '{ machines { totalCount } }',
      '{ machinesOfLanguage(langCode: "eng") { id } }',
      '{ registrationCentre(id: "10001", langCode: "eng") { users { totalCount } } }',
    ]) {
      expect(codes(await t.graphql(query, {}, token('resident'))), query).toContain('KER-ATH-403');
    }
  });
});
