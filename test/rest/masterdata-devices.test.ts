// Devices, device types and specifications, zones and zone users. Zones used here:
//   MOR (root, admin's) ── RSK (zadmin-rsk's) ── SAL
//                      └── KTA (a sibling of RSK)
import { graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode as codeOf } from '../support/refusals.js';

const MD = '/v1/masterdata';
const PASSWORD = 'zone-admin-pass-1';
let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

/** Cookies of the other callers: a zonal admin of RSK, one without zones, a registration officer. */
const as: Record<'rsk' | 'none' | 'officer', Record<string, string>> = { rsk: {}, none: {}, officer: {} };

const send = (method: string, path: string, body?: unknown, headers = admin) =>
  t.request(method, MD + path, { body: body === undefined ? undefined : envelopeOf(body), headers });
const gql = async (query: string, variables: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  t.graphql(query, variables, headers ?? bearer(await t.adminToken()));

const device = (over: Record<string, unknown> = {}) => ({
  id: 'DEV-1',
  name: 'Slap scanner',
  serialNum: 'SN-0001',
  deviceSpecId: 'SPEC-FRS',
  macAddress: 'A0-B1-C2-D3-E4-F5',
  ipAddress: '192.168.0.10',
  langCode: 'eng',
  isActive: true,
  validityDateTime: '2030-12-31T00:00:00.000Z',
  zoneCode: 'RSK',
  ...over,
});
const zone = (code: string, parentZoneCode: string | null, hierarchyLevel: number, langCode = 'eng') => ({
  code,
  langCode,
  name: `Zone ${code} (${langCode})`,
  hierarchyLevel,
  hierarchyName: ['Country', 'Region', 'Province', 'City'][hierarchyLevel],
  parentZoneCode,
});

async function userCookie(userId: string, role: string, appId: string): Promise<Record<string, string>> {
  const created = await gql('mutation($input: UserInput!) { createUser(input: $input) { user { userId } userErrors { field code message } } }', {
    input: { userId, password: PASSWORD, roles: [role], appIds: [appId] },
  });
  expect(created.errors).toBeUndefined();
  const login = await t.graphql(
    'mutation($u: String!, $p: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: PASSWORD,
      a: appId,
    },
  );
  return cookieHeader(login.data.loginWithPassword.passwordLogin.token);
}

beforeAll(async () => {
  // A fresh database has no languages and no zones: the languages by Prisma, the zones through the API.
  const now = new Date();
  await t.platform.deps.prisma.language.createMany({
    data: [
      { code: 'eng', name: 'English', createdBy: 'test', createdAt: now, changedAt: now },
      { code: 'fra', name: 'French', createdBy: 'test', createdAt: now, changedAt: now },
    ],
  });
  const ok = async (response: Promise<{ json: any }>) => expect((await response).json.errors).toBeNull();
  await ok(send('POST', '/zones', zone('MOR', null, 0)));
  await ok(send('POST', '/zoneuser', { userId: 'admin', zoneCode: 'MOR' }));
  for (const lang of ['eng', 'fra']) {
    if (lang === 'fra') await ok(send('POST', '/zones', zone('MOR', null, 0, 'fra')));
    await ok(send('POST', '/zones', zone('RSK', 'MOR', 1, lang)));
    await ok(send('POST', '/zones', zone('KTA', 'MOR', 1, lang)));
    await ok(send('POST', '/zones', zone('SAL', 'RSK', 2, lang)));
  }
  as.rsk = await userCookie('zadmin-rsk', 'ZONAL_ADMIN', 'admin');
  as.none = await userCookie('zadmin-none', 'ZONAL_ADMIN', 'admin');
  as.officer = await userCookie('officer-1', 'REGISTRATION_OFFICER', 'registrationclient');
  await ok(send('POST', '/zoneuser', { userId: 'zadmin-rsk', zoneCode: 'RSK' }));
  for (const lang of ['eng', 'fra']) {
    await ok(send('POST', '/devicetypes', { code: 'FRS', langCode: lang, name: `Fingerprint slap (${lang})`, description: 'slap scanner', isActive: true }));
    await ok(send('POST', '/devicetypes', { code: 'CMR', langCode: lang, name: `Camera (${lang})`, isActive: true }));
    await ok(
      send('POST', '/devicespecifications', {
        id: 'SPEC-FRS',
        langCode: lang,
        name: 'Slap 4-4-2',
        brand: 'Acme',
        model: 'S442',
        deviceTypeCode: 'FRS',
        minDriverversion: '1.2',
        description: 'four-four-two slap scanner',
        isActive: true,
      }),
    );
  }
  await ok(
    send('POST', '/devicespecifications', {
      id: 'SPEC-CMR',
      langCode: 'eng',
      name: 'Face camera',
      brand: 'Acme',
      model: 'C1',
      deviceTypeCode: 'CMR',
      isActive: true,
    }),
  );
});

describe('zones', () => {
  it('answers the caller’s zones and those below them, and the leaves among them, in REST and GraphQL', async () => {
    const hierarchy = (await send('GET', '/zones/hierarchy/eng')).json.response;
    expect(hierarchy.map((z: any) => z.code)).toEqual(['MOR', 'KTA', 'RSK', 'SAL']);
    expect(hierarchy[3]).toMatchObject({
      code: 'SAL',
      langCode: 'eng',
      hierarchyLevel: 2,
      hierarchyName: 'Province',
      parentZoneCode: 'RSK',
      createdBy: 'admin',
    });
    expect(hierarchy[3].createdDateTime).toMatch(TIMESTAMP);
    expect((await send('GET', '/zones/leafs/eng')).json.response.map((z: any) => z.code)).toEqual(['KTA', 'SAL']);
    expect((await send('GET', '/zones/hierarchy/fra', undefined, as.rsk)).json.response.map((z: any) => z.code)).toEqual(['RSK', 'SAL']);
    expect((await send('GET', '/zones/leafs/eng', undefined, as.rsk)).json.response.map((z: any) => z.code)).toEqual(['SAL']);

    const rsk = bearer((as.rsk.cookie ?? '').replace('Authorization=Platform-Token', ''));
    const graph = await gql('{ zoneHierarchy(langCode: "eng") { code path parent { code } } leafZones(langCode: "eng") { code } }', {}, rsk);
    expect(graph.data.zoneHierarchy).toEqual([
      { code: 'RSK', path: 'MOR/RSK', parent: { code: 'MOR' } },
      { code: 'SAL', path: 'MOR/RSK/SAL', parent: { code: 'RSK' } },
    ]);
    expect(graph.data.leafZones).toEqual([{ code: 'SAL' }]);
    const page = await gql('{ zones(first: 2, filter: {langCode: "fra"}) { totalCount edges { node { code langCode } } pageInfo { hasNextPage endCursor } } }');
    expect(page.data.zones.totalCount).toBe(4);
    expect(page.data.zones.edges.map((e: any) => e.node.code)).toEqual(['KTA', 'MOR']);
    const next = await gql(
      'query($after: String) { zones(first: 5, after: $after, filter: {langCode: "fra"}) { edges { node { code } } pageInfo { hasNextPage } } }',
      {
        after: page.data.zones.pageInfo.endCursor,
      },
    );
    expect(next.data.zones.edges.map((e: any) => e.node.code)).toEqual(['RSK', 'SAL']);
    expect(next.data.zones.pageInfo.hasNextPage).toBe(false);
    await expectRejected(t, () => send('GET', '/zones/hierarchy/eng', undefined, as.none), 'KER-MSD-339');
  });

  it('creates zones below the caller’s own only (KER-MSD-439), a root zone only as GLOBAL_ADMIN (KER-ATH-403), with coded refusals', async () => {
    const created = await gql(
      'mutation($input: ZoneInput!) { createZone(input: $input) { zone { code path hierarchyLevel createdBy { userId } } userErrors { field code message } } }',
      {
        input: zone('SAL2', 'RSK', 2),
      },
    );
    expect(created.data.createZone.zone).toEqual({ code: 'SAL2', path: 'MOR/RSK/SAL2', hierarchyLevel: 2, createdBy: { userId: 'admin' } });
    const mine = await send('POST', '/zones', zone('SAL3', 'SAL', 3), as.rsk);
    expect(mine.json.response).toMatchObject({ code: 'SAL3', parentZoneCode: 'SAL', createdBy: 'zadmin-rsk' });

    await expectRejected(t, () => send('POST', '/zones', zone('KTA1', 'KTA', 2), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('POST', '/zones', zone('NEW', null, 0), as.rsk), 'KER-ATH-403');
    await expectRejected(t, () => send('POST', '/zones', zone('X1', 'NOPE', 1)), 'KER-MSD-392');
    await expectRejected(t, () => send('POST', '/zones', zone('RSK', 'MOR', 1)), 'KER-MSD-394');
    await expectRejected(t, () => send('POST', '/zones', zone('SAL2', 'KTA', 2, 'fra')), 'KER-MSD-394');
    await expectRejected(t, () => send('POST', '/zones', zone('X2', 'RSK', 1)), 'KER-MSD-394');
    await expectRejected(t, () => send('POST', '/zones', zone('X3', 'RSK', 2, 'deu')), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/zones', { ...zone('X4', 'RSK', 2), name: undefined }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/zones', zone('a/b', 'RSK', 2)), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/zones', zone('X5', 'RSK', 2), as.officer), 'KER-ATH-403');
    const bad = await gql('mutation($input: ZoneInput!) { createZone(input: $input) { zone { code } userErrors { field code message } } }', {
      input: zone('X6', 'NOPE', 1),
    });
    expect(codeOf(bad)).toBe('KER-MSD-392');
  });

  it('maps admins to zones (GLOBAL_ADMIN only), unmaps and maps again; User.zones lists them', async () => {
    await userCookie('zadmin-kta', 'ZONAL_ADMIN', 'admin');
    const mapped = await send('POST', '/zoneuser', { userId: 'zadmin-kta', zoneCode: 'KTA' });
    expect(mapped.json.response).toMatchObject({ userId: 'zadmin-kta', zoneCode: 'KTA', isActive: true, isDeleted: false, createdBy: 'admin' });
    await expectRejected(t, () => send('POST', '/zoneuser', { userId: 'zadmin-kta', zoneCode: 'KTA' }), 'KER-MSD-395');
    await expectRejected(t, () => send('POST', '/zoneuser', { userId: 'nobody', zoneCode: 'KTA' }), 'KER-MSD-391');
    await expectRejected(t, () => send('POST', '/zoneuser', { userId: 'zadmin-kta', zoneCode: 'NOPE' }), 'KER-MSD-392');
    await expectRejected(t, () => send('POST', '/zoneuser', { userId: 'zadmin-kta' }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/zoneuser', { userId: 'zadmin-rsk', zoneCode: 'KTA' }, as.rsk), 'KER-ATH-403');
    await expectRejected(t, () => send('DELETE', '/zoneuser/zadmin-kta/KTA', undefined, as.rsk), 'KER-ATH-403');

    const user = await gql('{ user(userId: "zadmin-kta") { userId zones(langCode: "fra") { code name } } }');
    expect(user.data.user).toEqual({ userId: 'zadmin-kta', zones: [{ code: 'KTA', name: 'Zone KTA (fra)' }] });
    expect((await send('DELETE', '/zoneuser/zadmin-kta/KTA')).json.response).toEqual({ userId: 'zadmin-kta', zoneCode: 'KTA' });
    await expectRejected(t, () => send('DELETE', '/zoneuser/zadmin-kta/KTA'), 'KER-MSD-391');
    expect((await gql('{ user(userId: "zadmin-kta") { zones { code } } }')).data.user.zones).toEqual([]);

    const again = await gql(
      'mutation { mapZoneUser(input: { userId: "zadmin-kta", zoneCode: "KTA" }) { zoneUser { zoneCode isDeleted createdBy { userId } } userErrors { field code message } } }',
    );
    expect(again.data.mapZoneUser.zoneUser).toEqual({ zoneCode: 'KTA', isDeleted: false, createdBy: { userId: 'admin' } });
    const unmapped = await gql(
      'mutation { unmapZoneUser(input: { userId: "zadmin-kta", zoneCode: "KTA" }) { zoneUser { isDeleted isActive updatedBy { userId } } userErrors { field code message } } }',
    );
    expect(unmapped.data.unmapZoneUser.zoneUser).toEqual({ isDeleted: true, isActive: false, updatedBy: { userId: 'admin' } });
    expect(await t.platform.deps.prisma.zoneUser.count({ where: { userId: 'zadmin-kta' } })).toBe(1);
  });
});

describe('device types and specifications', () => {
  it('creates, updates and reads them in REST and GraphQL', async () => {
    expect((await send('POST', '/devicetypes', { code: 'IRS', langCode: 'eng', name: 'Iris', isActive: true })).json.response).toEqual({
      code: 'IRS',
      langCode: 'eng',
    });
    expect(
      (await send('PUT', '/devicetypes', { code: 'IRS', langCode: 'eng', name: 'Iris scanner', description: 'dual', isActive: false })).json.response,
    ).toEqual({
      code: 'IRS',
      langCode: 'eng',
    });
    const spec = { id: 'SPEC-IRS', langCode: 'eng', name: 'Iris', brand: 'Acme', model: 'I2', deviceTypeCode: 'IRS', minDriverVersion: '2.0', isActive: true };
    expect((await send('POST', '/devicespecifications', spec)).json.response).toEqual({ id: 'SPEC-IRS', langCode: 'eng' });
    expect((await send('PUT', '/devicespecifications', { ...spec, minDriverVersion: undefined, minDriverversion: '2.1', model: 'I3' })).json.response).toEqual({
      id: 'SPEC-IRS',
      langCode: 'eng',
    });
    const ofType = (await send('GET', '/devicespecifications/eng/IRS')).json.response.devicespecifications;
    expect(ofType).toEqual([
      {
        id: 'SPEC-IRS',
        langCode: 'eng',
        name: 'Iris',
        brand: 'Acme',
        model: 'I3',
        deviceTypeCode: 'IRS',
        minDriverversion: '2.1',
        description: null,
        isActive: true,
      },
    ]);
    const ofLanguage = (await send('GET', '/devicespecifications/fra')).json.response.devicespecifications;
    expect(ofLanguage.map((s: any) => s.id)).toEqual(['SPEC-FRS']);

    const graph = await gql(`{
      deviceSpecificationsByLanguage(langCode: "eng") { id }
      deviceSpecificationsByType(langCode: "eng", deviceTypeCode: "FRS") { id minDriverVersion deviceType { name } }
      deviceSpecifications(first: 10, filter: {deviceTypeCode: "IRS"}) { totalCount edges { node { id model deviceType { name description isActive updatedBy { userId } } } } }
      deviceTypes(first: 10, filter: {langCode: "fra"}) { totalCount edges { node { code name } } }
    }`);
    expect(graph.data.deviceSpecificationsByLanguage.map((s: any) => s.id)).toEqual(['SPEC-CMR', 'SPEC-FRS', 'SPEC-IRS']);
    expect(graph.data.deviceSpecificationsByType).toEqual([{ id: 'SPEC-FRS', minDriverVersion: '1.2', deviceType: { name: 'Fingerprint slap (eng)' } }]);
    expect(graph.data.deviceSpecifications.edges[0].node).toEqual({
      id: 'SPEC-IRS',
      model: 'I3',
      deviceType: { name: 'Iris scanner', description: 'dual', isActive: false, updatedBy: { userId: 'admin' } },
    });
    expect(graph.data.deviceTypes.totalCount).toBe(2);
    const mutations = await gql(`mutation {
      createDeviceType(input: {code: "GPS", langCode: "eng", name: "GPS", isActive: true}) { deviceType { code createdBy { userId } } userErrors { field code message } }
      updateDeviceType(input: {code: "GPS", langCode: "eng", name: "GPS unit", isActive: true}) { deviceType { name } userErrors { field code message } }
      createDeviceSpecification(input: {id: "SPEC-GPS", langCode: "eng", name: "GPS", brand: "Acme", model: "G1", deviceTypeCode: "GPS", isActive: true}) { deviceSpecification { id } userErrors { field code message } }
      updateDeviceSpecification(input: {id: "SPEC-GPS", langCode: "eng", name: "GPS 2", brand: "Acme", model: "G2", deviceTypeCode: "GPS", isActive: true}) { deviceSpecification { name model } userErrors { field code message } }
    }`);
    expect(mutations.errors).toBeUndefined();
    expect(mutations.data.updateDeviceSpecification.deviceSpecification).toEqual({ name: 'GPS 2', model: 'G2' });
  });

  it('refuses with MOSIP’s codes and changes nothing', async () => {
    const spec = { id: 'SPEC-X', langCode: 'eng', name: 'X', brand: 'Acme', model: 'X1', deviceTypeCode: 'FRS', isActive: true };
    await expectRejected(t, () => send('POST', '/devicetypes', { code: 'FRS', langCode: 'eng', name: 'Again', isActive: true }), 'KER-MSD-053');
    await expectRejected(t, () => send('PUT', '/devicetypes', { code: 'NOPE', langCode: 'eng', name: 'None', isActive: true }), 'KER-MSD-003');
    await expectRejected(t, () => send('POST', '/devicetypes', { code: 'ZZZ', langCode: 'deu', name: 'German', isActive: true }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devicetypes', { code: 'ZZZ', langCode: 'eng', isActive: true }), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devicespecifications', { ...spec, deviceTypeCode: 'NOPE' }), 'KER-MSD-003');
    await expectRejected(t, () => send('POST', '/devicespecifications', { ...spec, id: 'SPEC-FRS' }), 'KER-MSD-054');
    await expectRejected(t, () => send('PUT', '/devicespecifications', spec), 'KER-MSD-012');
    await expectRejected(t, () => send('PUT', '/devicespecifications', { ...spec, id: 'SPEC-FRS', deviceTypeCode: 'NOPE' }), 'KER-MSD-003');
    await expectRejected(t, () => send('POST', '/devicespecifications', { ...spec, model: 'a model name far too long' }), 'KER-MSD-999');
    await expectRejected(t, () => send('GET', '/devicespecifications/deu'), 'KER-MSD-012');
    await expectRejected(t, () => send('GET', '/devicespecifications/fra/CMR'), 'KER-MSD-012');
    await expectRejected(t, () => send('POST', '/devicetypes', { code: 'OFF', langCode: 'eng', name: 'Officer', isActive: true }, as.officer), 'KER-ATH-403');
    await expectRejected(t, () => send('POST', '/devicespecifications', spec, as.officer), 'KER-ATH-403');
    expect(
      codeOf(
        await gql(
          'mutation { updateDeviceType(input: {code: "NOPE", langCode: "eng", name: "n", isActive: true}) { deviceType { code } userErrors { field code message } } }',
        ),
      ),
    ).toBe('KER-MSD-003');
  });
});

describe('devices', () => {
  it('creates, reads, updates, decommissions and deletes a device through REST', async () => {
    const created = (await send('POST', '/devices', device({ id: 'DEV-REST' }))).json;
    expect(created.errors).toBeNull();
    expect(created.response).toMatchObject({
      id: 'DEV-REST',
      name: 'Slap scanner',
      serialNum: 'SN-0001',
      deviceSpecId: 'SPEC-FRS',
      macAddress: 'A0-B1-C2-D3-E4-F5',
      ipAddress: '192.168.0.10',
      langCode: 'eng',
      isActive: true,
      validityDateTime: '2030-12-31T00:00:00.000Z',
      zoneCode: 'RSK',
      regCenterId: null,
      createdBy: 'admin',
      updatedBy: null,
      updatedDateTime: null,
      isDeleted: false,
      deletedDateTime: null,
    });
    expect(created.response.createdDateTime).toMatch(TIMESTAMP);
    expect((await send('POST', '/devices', device({ id: 'DEV-REST', langCode: 'fra', name: 'Scanner' }))).json.errors).toBeNull();

    const ofLanguage = (await send('GET', '/devices/fra')).json.response.devices;
    expect(ofLanguage.map((d: any) => [d.id, d.name])).toContainEqual(['DEV-REST', 'Scanner']);
    expect((await send('GET', '/devices/eng/FRS')).json.response.devices.map((d: any) => d.id)).toContain('DEV-REST');
    await expectRejected(t, () => send('GET', '/devices/eng/CMR'), 'KER-MSD-010');

    // Zone, status and the rest belong to the device: every language follows; the name is the language's own.
    const updated = (await send('PUT', '/devices', device({ id: 'DEV-REST', name: 'Slap scanner 2', zoneCode: 'SAL', isActive: false, ipAddress: null }))).json;
    expect(updated.response).toMatchObject({ name: 'Slap scanner 2', zoneCode: 'SAL', isActive: false, ipAddress: null, updatedBy: 'admin' });
    expect(updated.response.updatedDateTime).toMatch(TIMESTAMP);
    const french = await t.platform.deps.prisma.device.findUniqueOrThrow({ where: { id_langCode: { id: 'DEV-REST', langCode: 'fra' } } });
    expect(french).toMatchObject({ name: 'Scanner', zoneCode: 'SAL', isActive: false, ipAddress: null });

    expect((await send('PUT', '/devices/decommission/DEV-REST')).json.response).toEqual({ id: 'DEV-REST' });
    const rows = await t.platform.deps.prisma.device.findMany({ where: { id: 'DEV-REST' } });
    expect(rows.map((row) => [row.isDeleted, row.isActive, row.deletedAt !== null])).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
    await expectRejected(t, () => send('PUT', '/devices/decommission/DEV-REST'), 'KER-MSD-010');

    // A decommissioned device may be created again: the row comes back.
    expect((await send('POST', '/devices', device({ id: 'DEV-REST' }))).json.response).toMatchObject({ isDeleted: false, deletedDateTime: null });
    expect((await send('DELETE', '/devices/DEV-REST')).json.response).toEqual({ id: 'DEV-REST' });
    await expectRejected(t, () => send('DELETE', '/devices/DEV-REST'), 'KER-MSD-010');
    expect(await t.platform.deps.prisma.device.count({ where: { id: 'DEV-REST' } })).toBe(2);
  });

  it('serves the same calls through GraphQL, and the portal’s connection, entity fields and references', async () => {
    const fields = 'id langCode name zoneCode isActive createdBy { userId } specification { model deviceType { code } } zone { name path }';
    const created = await gql(`mutation($input: DeviceInput!) { createDevice(input: $input) { device { ${fields} } userErrors { field code message } } }`, {
      input: device({ id: 'DEV-GQL', ipAddress: null }),
    });
    expect(created.data.createDevice.device).toEqual({
      id: 'DEV-GQL',
      langCode: 'eng',
      name: 'Slap scanner',
      zoneCode: 'RSK',
      isActive: true,
      createdBy: { userId: 'admin' },
      specification: { model: 'S442', deviceType: { code: 'FRS' } },
      zone: { name: 'Zone RSK (eng)', path: 'MOR/RSK' },
    });
    await gql('mutation($input: DeviceInput!) { createDevice(input: $input) { device { id } userErrors { field code message } } }', {
      input: device({ id: 'DEV-GQL2', zoneCode: 'KTA', deviceSpecId: 'SPEC-CMR' }),
    });
    const updated = await gql(
      'mutation($input: DeviceInput!) { updateDevice(input: $input) { device { name serialNum updatedBy { userId } } userErrors { field code message } } }',
      {
        input: device({ id: 'DEV-GQL', name: 'Renamed', serialNum: 'SN-9' }),
      },
    );
    expect(updated.data.updateDevice.device).toEqual({ name: 'Renamed', serialNum: 'SN-9', updatedBy: { userId: 'admin' } });
    const reads = await gql(`{
      device(id: "DEV-GQL", langCode: "eng") { name }
      devicesByLanguage(langCode: "eng") { id }
      devicesByType(langCode: "eng", deviceType: "CMR") { id }
      searchDevices(input: {filters: [{columnName: "name", type: "contains", value: "renam"}]}) { totalRecord data { id } }
      devices(first: 1, filter: {zoneCode: "MOR", langCode: "eng", name: "e"}) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } }
    }`);
    expect(reads.errors).toBeUndefined();
    // Apart: two whole lists of 10,000 devices and one of 10,000 filter values weigh more than one operation may.
    const filterValues = await gql(`{
      deviceFilterValues(input: {filters: [{columnName: "zoneCode"}], optionalFilters: [{columnName: "id", type: "startsWith", value: "DEV-GQL"}]}) { filters { fieldID fieldValue } }
    }`);
    expect(filterValues.errors).toBeUndefined();
    expect(reads.data.device.name).toBe('Renamed');
    expect(reads.data.devicesByLanguage.map((d: any) => d.id)).toEqual(expect.arrayContaining(['DEV-GQL', 'DEV-GQL2']));
    expect(reads.data.devicesByType).toEqual([{ id: 'DEV-GQL2' }]);
    expect(reads.data.searchDevices).toEqual({ totalRecord: 1, data: [{ id: 'DEV-GQL' }] });
    expect(filterValues.data.deviceFilterValues.filters).toEqual([
      { fieldID: 'zoneCode', fieldValue: 'KTA' },
      { fieldID: 'zoneCode', fieldValue: 'RSK' },
    ]);
    expect(reads.data.devices.edges).toHaveLength(1);
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page: any = await gql(
        'query($after: String) { devices(first: 1, after: $after, filter: {deviceType: "FRS", isActive: true}) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
        {
          after,
        },
      );
      all.push(...page.data.devices.edges.map((e: any) => e.node.id));
      after = page.data.devices.pageInfo.hasNextPage ? page.data.devices.pageInfo.endCursor : null;
    } while (after);
    expect(all).toContain('DEV-GQL');
    expect(all).not.toContain('DEV-GQL2');

    // Entities by their keys, as the gateway fetches them: one batch for many, another admin's device as null.
    const masterdata = COMPONENTS.find((component) => component.name === 'masterdata')!;
    const schema = await t.platform.buildSubgraph(masterdata);
    const entities = async (cookie: string) =>
      graphql({
        schema,
        source:
          'query($r: [_Any!]!) { _entities(representations: $r) { ... on Device { id zoneCode } ... on Zone { code path } ... on DeviceType { name } ... on DeviceSpecification { model } } }',
        variableValues: {
          r: [
            { __typename: 'Device', id: 'DEV-GQL', langCode: 'eng' },
            { __typename: 'Device', id: 'DEV-GQL2', langCode: 'eng' },
            { __typename: 'Zone', code: 'SAL', langCode: 'fra' },
            { __typename: 'DeviceType', code: 'CMR', langCode: 'eng' },
            { __typename: 'DeviceSpecification', id: 'SPEC-CMR', langCode: 'eng' },
          ],
        },
        contextValue: createRequestContext({ headers: { cookie }, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
    const byAdmin = await entities(admin.cookie!);
    expect(byAdmin.errors).toBeUndefined();
    expect(byAdmin.data!._entities).toEqual([
      { id: 'DEV-GQL', zoneCode: 'RSK' },
      { id: 'DEV-GQL2', zoneCode: 'KTA' },
      { code: 'SAL', path: 'MOR/RSK/SAL' },
      { name: 'Camera (eng)' },
      { model: 'C1' },
    ]);
    expect(((await entities(as.rsk.cookie!)).data!._entities as unknown[])[1]).toBeNull();

    expect(
      (await gql('mutation { decommissionDevice(input: { id: "DEV-GQL2" }) { result userErrors { field code message } } }')).data.decommissionDevice.result,
    ).toBe('DEV-GQL2');
    expect((await gql('mutation { deleteDevice(input: { id: "DEV-GQL" }) { result userErrors { field code message } } }')).data.deleteDevice.result).toBe(
      'DEV-GQL',
    );
    // A deleted device is no longer there: the look-up answers null (REST answers KER-MSD-010).
    const gone = await gql('{ device(id: "DEV-GQL", langCode: "eng") { id } }');
    expect(gone.errors).toBeUndefined();
    expect(gone.data.device).toBeNull();
  });

  it('searches and lists filter values over the caller’s zones, MOSIP’s paged answer', async () => {
    for (const [i, zoneCode] of ['RSK', 'SAL', 'KTA', 'SAL'].entries()) {
      await send('POST', '/devices', device({ id: `SRCH-${i}`, name: `Search ${i}`, serialNum: `SS-${i}`, zoneCode, isActive: i !== 3 }));
    }
    const search = (request: unknown, headers = admin) => send('POST', '/devices/search', request, headers);
    const startsWith = { columnName: 'name', type: 'startsWith', value: 'Search' };
    const first = (await search({ filters: [startsWith], sort: [{ sortfield: 'serialNum', sorttype: 'DESC' }], pagination: { pageStart: 0, pageFetch: 3 } }))
      .json.response;
    expect(first).toMatchObject({ fromRecord: 0, toRecord: 3, totalRecord: 4 });
    expect(first.data.map((d: any) => d.id)).toEqual(['SRCH-3', 'SRCH-2', 'SRCH-1']);
    const second = (await search({ filters: [startsWith], sort: [{ sortfield: 'serialNum', sorttype: 'DESC' }], pagination: { pageStart: 1, pageFetch: 3 } }))
      .json.response;
    expect(second).toMatchObject({ fromRecord: 3, toRecord: 4, totalRecord: 4 });
    const active = (await search({ filters: [startsWith, { columnName: 'isActive', type: 'equals', value: 'false' }], languageCode: 'eng' })).json.response;
    expect(active.data.map((d: any) => d.id)).toEqual(['SRCH-3']);
    // zadmin-rsk sees RSK and SAL, not KTA; asking for KTA by name is refused.
    const theirs = (await search({ filters: [startsWith], sort: [{ sortfield: 'serialNum', sorttype: 'ASC' }] }, as.rsk)).json.response;
    expect(theirs.data.map((d: any) => d.id)).toEqual(['SRCH-0', 'SRCH-1', 'SRCH-3']);
    await expectRejected(t, () => search({ filters: [{ columnName: 'zoneCode', type: 'equals', value: 'KTA' }] }, as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => search({ filters: [{ columnName: 'colour', type: 'equals', value: 'red' }] }), 'KER-MSD-317');
    await expectRejected(t, () => search({ filters: [{ columnName: 'name', type: 'between', fromValue: 'a', toValue: 'b' }] }), 'KER-MSD-317');
    await expectRejected(t, () => search({ sort: [{ sortfield: 'colour' }] }), 'KER-MSD-313');
    await expectRejected(t, () => search({ pagination: { pageStart: -1, pageFetch: 10 } }), 'KER-MSD-316');
    await expectRejected(t, () => search({ filters: 'all' }), 'KER-MSD-317');

    const values = (request: unknown, headers = admin) => send('POST', '/devices/filtervalues', request, headers);
    const zones = (await values({ filters: [{ columnName: 'zoneCode', type: 'unique' }], optionalFilters: [startsWith] }, as.rsk)).json.response;
    expect(zones.filters.map((f: any) => f.fieldValue)).toEqual(['RSK', 'SAL']);
    const serials = (await values({ filters: [{ columnName: 'serialNum', type: 'all', text: 'SS-' }] })).json.response;
    expect(serials.filters.map((f: any) => f.fieldValue)).toEqual(['SS-0', 'SS-1', 'SS-2', 'SS-3']);
    await expectRejected(t, () => values({ filters: [] }), 'KER-MSD-317');
    await expectRejected(t, () => values({ filters: [{ columnName: 'colour' }] }), 'KER-MSD-317');
    await expectRejected(t, () => values({ filters: [{ columnName: 'name' }] }, as.officer), 'KER-ATH-403');
  });

  it('keeps each admin to their own zones (KER-MSD-439); a parent zone covers its children', async () => {
    expect((await send('POST', '/devices', device({ id: 'KTA-1', zoneCode: 'KTA' }))).json.errors).toBeNull();
    expect((await send('POST', '/devices', device({ id: 'SAL-1', zoneCode: 'SAL' }), as.rsk)).json.response.createdBy).toBe('zadmin-rsk');

    await expectRejected(t, () => send('POST', '/devices', device({ id: 'KTA-2', zoneCode: 'KTA' }), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'MOR-1', zoneCode: 'MOR' }), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'KTA-1', zoneCode: 'KTA', name: 'Mine now' }), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'KTA-1', zoneCode: 'RSK' }), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'SAL-1', zoneCode: 'KTA' }), as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices/decommission/KTA-1', undefined, as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('DELETE', '/devices/KTA-1', undefined, as.rsk), 'KER-MSD-439');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'ANY-1' }), as.none), 'KER-MSD-439');
    const rsk = bearer(as.rsk.cookie!.replace('Authorization=Platform-Token', ''));
    expect(codeOf(await gql('{ device(id: "KTA-1", langCode: "eng") { id } }', {}, rsk))).toBe('KER-MSD-439');
    expect(codeOf(await gql('{ devices(filter: {zoneCode: "KTA"}) { totalCount } }', {}, rsk))).toBe('KER-MSD-439');
    expect(
      codeOf(
        await gql(
          'mutation($input: DeviceInput!) { createDevice(input: $input) { device { id } userErrors { field code message } } }',
          { input: device({ id: 'KTA-3', zoneCode: 'KTA' }) },
          rsk,
        ),
      ),
    ).toBe('KER-MSD-439');

    const listed = (await send('GET', '/devices/eng', undefined, as.rsk)).json.response.devices.map((d: any) => d.zoneCode);
    expect(new Set(listed)).toEqual(new Set(['RSK', 'SAL']));
    expect(
      (await gql('{ devices(first: 100) { totalCount edges { node { zoneCode } } } }', {}, rsk)).data.devices.edges.map((e: any) => e.node.zoneCode),
    ).not.toContain('KTA');
    await expectRejected(t, () => send('GET', '/devices/eng', undefined, as.none), 'KER-MSD-010');

    // The parent covers the child: the root's admin moves the RSK admin's device, and zadmin-rsk loses it.
    expect((await send('PUT', '/devices', device({ id: 'SAL-1', zoneCode: 'KTA' }))).json.response.zoneCode).toBe('KTA');
    await expectRejected(t, () => send('PUT', '/devices/decommission/SAL-1', undefined, as.rsk), 'KER-MSD-439');
    expect((await send('PUT', '/devices/decommission/SAL-1')).json.response).toEqual({ id: 'SAL-1' });
  });

  it('takes a device validity as a DateTime through GraphQL (REST keeps KER-MSD-999 for a malformed one)', async () => {
    const mutation = 'mutation($input: DeviceInput!) { createDevice(input: $input) { device { id validityDateTime } userErrors { field code message } } }';
    const headers = bearer(await t.adminToken());
    const created = await gql(mutation, { input: device({ id: 'DT-1', validityDateTime: '2031-06-30T08:00:00.000Z' }) }, headers);
    expect(created.errors).toBeUndefined();
    expect(created.data.createDevice).toEqual({ device: { id: 'DT-1', validityDateTime: '2031-06-30T08:00:00.000Z' }, userErrors: [] });
    const before = await t.snapshot();
    const refused = await gql(mutation, { input: device({ id: 'DT-2', validityDateTime: 'soon' }) }, headers);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // Written in the query itself, the same value is refused as the query's mistake, not the server's.
    const inline = await gql(
      'mutation { createDevice(input: { id: "DT-2", name: "n", serialNum: "s", deviceSpecId: "SPEC-FRS", macAddress: "m", langCode: "eng", isActive: true, validityDateTime: "soon", zoneCode: "RSK" }) { device { id } } }',
      {},
      headers,
    );
    expect(inline.errors?.[0]).toMatchObject({ message: expect.stringMatching(/DateTime/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(refused.errors?.[0]?.message).toMatch(/DateTime/);
    expect(await t.snapshot()).toEqual(before);
    // The wire's own form (no zone: UTC) still reaches the same instant.
    const wire = await send('POST', '/devices', device({ id: 'DT-3', validityDateTime: '2031-06-30T08:00:00' }));
    expect(wire.json.response.validityDateTime).toBe('2031-06-30T08:00:00.000Z');
  });

  it('refuses bad devices with the spec’s codes and changes nothing', async () => {
    await send('POST', '/devices', device({ id: 'BAD-1' }));
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-1' })), 'KER-MSD-069');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', deviceSpecId: 'NOPE' })), 'KER-MSD-069');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-1', langCode: 'fra', zoneCode: 'SAL' })), 'KER-MSD-069');
    // A zone that does not exist is no admin's: KER-MSD-439, as MOSIP answers it (Invalid_Device_Zone_notPresentInDB).
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', zoneCode: 'NOPE' })), 'KER-MSD-439');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', langCode: 'deu' })), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', macAddress: undefined })), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', ipAddress: '999.1.1.1' })), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', validityDateTime: 'soon' })), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'BAD-2', isActive: 'yes' })), 'KER-MSD-999');
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'x'.repeat(37) })), 'KER-MSD-999');
    await expectRejected(
      t,
      () => t.request('POST', `${MD}/devices`, { raw: '{"request":', headers: { ...admin, 'content-type': 'application/json' } }),
      'KER-MSD-999',
    );
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'NOPE' })), 'KER-MSD-010');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'BAD-1', langCode: 'fra' })), 'KER-MSD-010');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'BAD-1', deviceSpecId: 'NOPE' })), 'KER-MSD-083');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'BAD-1', zoneCode: 'NOPE' })), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'BAD-1', zoneCode: 'NOPE' }), as.rsk), 'KER-MSD-439');
    const adminBearer = bearer(await t.adminToken());
    const before = await t.snapshot();
    for (const [mutation, id] of [
      ['createDevice', 'BAD-2'],
      ['updateDevice', 'BAD-1'],
    ]) {
      const answer = await gql(
        `mutation($input: DeviceInput!) { ${mutation}(input: $input) { device { id zoneCode } userErrors { field code message } } }`,
        { input: device({ id, zoneCode: 'NOPE' }) },
        adminBearer,
      );
      expect(codeOf(answer), mutation).toBe('KER-MSD-439');
    }
    expect(await t.snapshot()).toEqual(before);
    expect((await t.platform.deps.prisma.device.findMany({ where: { id: 'BAD-1' }, select: { zoneCode: true } })).map((row) => row.zoneCode)).toEqual(['RSK']);
    await expectRejected(t, () => send('PUT', '/devices/decommission/NOPE'), 'KER-MSD-010');
    await expectRejected(t, () => send('DELETE', '/devices/NOPE'), 'KER-MSD-010');
    await expectRejected(t, () => send('GET', '/devices/deu'), 'KER-MSD-010');
    await expectRejected(t, () => send('GET', '/devices/english'), 'KER-MSD-999');

    // A device placed at a registration centre is neither decommissioned (KER-MSD-440) nor deleted (KER-MSD-147).
    await t.platform.deps.prisma.device.update({ where: { id_langCode: { id: 'BAD-1', langCode: 'eng' } }, data: { regCenterId: '10001' } });
    await expectRejected(t, () => send('PUT', '/devices/decommission/BAD-1'), 'KER-MSD-440');
    await expectRejected(t, () => send('DELETE', '/devices/BAD-1'), 'KER-MSD-147');
    expect(codeOf(await gql('mutation { decommissionDevice(input: { id: "BAD-1" }) { result userErrors { field code message } } }'))).toBe('KER-MSD-440');
    expect((await send('GET', '/devices/eng')).json.response.devices.find((d: any) => d.id === 'BAD-1').regCenterId).toBe('10001');
  });

  it('lets only the admins write (KER-ATH-403), and wants a valid token (KER-ATH-401)', async () => {
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'OFF-1' }), as.officer), 'KER-ATH-403');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'OFF-1' }), as.officer), 'KER-ATH-403');
    await expectRejected(t, () => send('PUT', '/devices/decommission/OFF-1', undefined, as.officer), 'KER-ATH-403');
    await expectRejected(t, () => send('DELETE', '/devices/OFF-1', undefined, as.officer), 'KER-ATH-403');
    await expectRejected(t, () => send('GET', '/devices/eng', undefined, as.officer), 'KER-ATH-403');
    const officer = bearer(as.officer.cookie!.replace('Authorization=Platform-Token', ''));
    expect(
      codeOf(
        await gql(
          'mutation($input: DeviceInput!) { createDevice(input: $input) { device { id } userErrors { field code message } } }',
          { input: device({ id: 'OFF-1' }) },
          officer,
        ),
      ),
    ).toBe('KER-ATH-403');
    const forged = { cookie: 'Authorization=Platform-Tokennot.a.token' };
    await expectRejected(t, () => send('POST', '/devices', device({ id: 'OFF-1' }), forged), 'KER-ATH-401');
    await expectRejected(t, () => send('GET', '/devices/eng', undefined, forged), 'KER-ATH-401');
  });

  it('answers KER-MSD-500, with no detail, when the devices cannot be read', async () => {
    await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_device RENAME TO md_device_away');
    try {
      const { json } = await send('GET', '/devices/eng');
      expect(json.errors[0].errorCode).toBe('KER-MSD-500');
      expect(json.errors[0].message).not.toMatch(/md_device|relation|SELECT/i);
    } finally {
      await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_device_away RENAME TO md_device');
    }
  });

  it('lets exactly one of parallel creates of the same device and language win', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => send('POST', '/devices', device({ id: 'RACE-1', serialNum: `R-${i}` }))));
    const won = results.filter((r) => r.json.errors === null);
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.json.errors !== null)) expect(lost.json.errors[0].errorCode).toBe('KER-MSD-069');
    expect(await t.platform.deps.prisma.device.count({ where: { id: 'RACE-1' } })).toBe(1);
    const zones = await Promise.all(Array.from({ length: 4 }, () => send('POST', '/zones', zone('RACEZ', 'KTA', 2))));
    expect(zones.filter((r) => r.json.errors === null)).toHaveLength(1);
    expect(zones.filter((r) => r.json.errors?.[0]?.errorCode === 'KER-MSD-394')).toHaveLength(3);
  });
});

describe('zone codes and filter texts', () => {
  it('takes `_` and `%` literally: the admin of Z_1 sees nothing of ZX1C, by any path', async () => {
    const ok = async (response: Promise<{ json: any }>) => expect((await response).json.errors).toBeNull();
    await ok(send('POST', '/zones', zone('Z_1', 'MOR', 1)));
    await ok(send('POST', '/zones', zone('ZX1', 'MOR', 1)));
    await ok(send('POST', '/zones', zone('ZX1C', 'ZX1', 2)));
    await ok(send('POST', '/devices', device({ id: 'LIKE-1', zoneCode: 'ZX1C', serialNum: 'SN_LIT', macAddress: 'AA-BB-CC-DD-EE-01', ipAddress: '10.1.1.1' })));
    const z1 = await userCookie('zadmin-z1', 'ZONAL_ADMIN', 'admin');
    await ok(send('POST', '/zoneuser', { userId: 'zadmin-z1', zoneCode: 'Z_1' }));
    await ok(send('POST', '/devices', device({ id: 'LIKE-2', zoneCode: 'Z_1' }), z1));

    expect((await send('GET', '/devices/eng', undefined, z1)).json.response.devices.map((d: any) => d.id)).toEqual(['LIKE-2']);
    expect((await send('POST', '/devices/search', {}, z1)).json.response.data.map((d: any) => d.id)).toEqual(['LIKE-2']);
    const values = (await send('POST', '/devices/filtervalues', { filters: [{ columnName: 'macAddress', type: 'unique' }] }, z1)).json.response;
    expect(values.filters.map((f: any) => f.fieldValue)).not.toContain('AA-BB-CC-DD-EE-01');
    expect((await send('GET', '/zones/hierarchy/eng', undefined, z1)).json.response.map((z: any) => z.code)).toEqual(['Z_1']);
    await expectRejected(t, () => send('POST', '/devices/search', { filters: [{ columnName: 'zoneCode', type: 'equals', value: 'ZX1C' }] }, z1), 'KER-MSD-439');
    await expectRejected(t, () => send('PUT', '/devices', device({ id: 'LIKE-1', zoneCode: 'ZX1C' }), z1), 'KER-MSD-439');
    const token = bearer(z1.cookie!.replace('Authorization=Platform-Token', ''));
    const graph = await gql(
      '{ devices(first: 100) { edges { node { id } } } devicesByLanguage(langCode: "eng") { id } zones(first: 50) { edges { node { code } } } }',
      {},
      token,
    );
    expect(graph.errors).toBeUndefined();
    expect(graph.data.devices.edges.map((e: any) => e.node.id)).toEqual(['LIKE-2']);
    expect(graph.data.devicesByLanguage.map((d: any) => d.id)).toEqual(['LIKE-2']);
    expect(graph.data.zones.edges.map((e: any) => e.node.code)).toEqual(['Z_1']);
    expect(codeOf(await gql('{ device(id: "LIKE-1", langCode: "eng") { macAddress } }', {}, token))).toBe('KER-MSD-439');

    // A caller's filter text matches as written: `_` is an underscore, `%` a percent sign.
    const search = async (filter: Record<string, unknown>) =>
      (await send('POST', '/devices/search', { filters: [filter], pagination: { pageFetch: 100 } })).json.response.data.map((d: any) => d.id);
    expect(await search({ columnName: 'serialNum', type: 'contains', value: '_' })).toEqual(['LIKE-1']);
    expect(await search({ columnName: 'serialNum', type: 'contains', value: '%' })).toEqual([]);
    expect(await search({ columnName: 'zoneCode', type: 'equals', value: 'z_1' })).toEqual(['LIKE-2']);
    expect(await search({ columnName: 'zoneCode', type: 'startsWith', value: 'Z_' })).toEqual(['LIKE-2']);
    const serials = (await send('POST', '/devices/filtervalues', { filters: [{ columnName: 'serialNum', type: 'unique', text: 'N_' }] })).json.response;
    expect(serials.filters.map((f: any) => f.fieldValue)).toEqual(['SN_LIT']);
    expect((await gql('{ devices(first: 100, filter: {name: "%"}) { totalCount } }')).data.devices.totalCount).toBe(0);
  });

  it('bounds how far a search pages (KER-MSD-317), instead of failing in the database', async () => {
    await expectRejected(t, () => send('POST', '/devices/search', { pagination: { pageStart: 99999999999, pageFetch: 10 } }), 'KER-MSD-317');
    await expectRejected(t, () => send('POST', '/devices/search', { pagination: { pageStart: 1_000_001, pageFetch: 100 } }), 'KER-MSD-317');
    const graph = await gql('{ searchDevices(input: {pagination: {pageStart: 2000000, pageFetch: 100}}) { totalRecord } }');
    expect(codeOf(graph)).toBe('KER-MSD-317');
    expect((await send('POST', '/devices/search', { pagination: { pageStart: 1_000_000, pageFetch: 10 } })).json.response.data).toEqual([]);
  });
});
