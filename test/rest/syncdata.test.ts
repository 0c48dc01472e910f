import type { KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../lib/roles.js';
import { GLOBAL_KEYS, loadGlobalConfiguration } from '../../lib/global-configuration.js';
import { loadRegistrationConfiguration, REGISTRATION_KEYS } from '../../subgraphs/syncdata/config-files.js';
import { syncdataErrors } from '../../subgraphs/syncdata/errors.js';
import { expectRejected } from '../support/assertions.js';
import { decryptForMachine, machineKeys, tpmKeyRequest } from '../support/machine.js';
import { bearer, cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';

let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const get = (url: string, headers = auth) => t.request('GET', url, { headers });
const post = (url: string, body: unknown, headers = auth) => t.request('POST', url, { body: envelopeOf(body), headers });
const put = (url: string, body: unknown) => t.request('PUT', url, { body: envelopeOf(body), headers: auth });
const ok = async <T = any>(call: Promise<{ json: any }>): Promise<T> => {
  const { json } = await call;
  expect(json.errors).toBeNull();
  return json.response as T;
};
const audit = () => ({ createdBy: 'seed', createdAt: t.clock.now(), changedAt: t.clock.now() });

async function mapMachineKey(machineName: string, publicKey: KeyObject): Promise<string> {
  const response = await ok<{ keyIndex: string }>(post('/v1/syncdata/tpm/publickey', tpmKeyRequest(machineName, publicKey)));
  return response.keyIndex;
}

async function createUser(userId: string, roles: string[], password = 'user-password-1') {
  const created = await t.graphql(
    'mutation($id: ID!, $name: String!, $roles: [Role!], $p: String!) { createUser(input: {userId: $id, name: $name, mail: "u@example.org", password: $p, roles: $roles, appIds: ["registrationclient", "resident"]}) { user { userId } userErrors { field code message } } }',
    { id: userId, name: userId, roles, p: password },
    bearer(await t.adminToken()),
  );
  expect(created.errors).toBeUndefined();
}
async function login(userId: string, appId = 'registrationclient', password = 'user-password-1') {
  const answer = await t.graphql(
    'mutation($u: String!, $p: String!, $a: String!) { loginWithPassword(input: { userName: $u, password: $p, appId: $a }) { passwordLogin { token } userErrors { field code message } } }',
    {
      u: userId,
      p: password,
      a: appId,
    },
  );
  return cookieHeader(answer.data.loginWithPassword.passwordLogin.token);
}

const centre = (overrides: Record<string, unknown> = {}) => ({
  langCode: 'eng',
  name: 'Sync Centre',
  centerTypeCode: 'REG',
  locationCode: 'KTA',
  holidayLocationCode: 'RSK',
  zoneCode: 'NTH',
  ...overrides,
});
const machine = (overrides: Record<string, unknown> = {}) => ({
  langCode: 'eng',
  name: 'sync-machine-1',
  zoneCode: 'NTH',
  regCenterId: '10001',
  isActive: true,
  ...overrides,
});

/** Master data without REST paths yet (or not this file's concern), written as the sample data would be. */
async function seed(): Promise<void> {
  const prisma = t.platform.deps.prisma;
  await prisma.language.createMany({ data: ['eng', 'fra'].map((code) => ({ code, name: code, ...audit() })) });
  await prisma.locationHierarchyLevel.createMany({ data: [{ level: 0, langCode: 'eng', name: 'Country', ...audit() }] });
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
  // The admin administers the country, as the sample maps it; zsouth only the south, where no centre of this file lies.
  await prisma.zoneUser.createMany({
    data: [
      { userId: 'admin', zoneCode: 'MOR', ...audit() },
      { userId: 'zsouth', zoneCode: 'STH', ...audit() },
    ],
  });
  await prisma.documentCategory.create({ data: { code: 'POA', langCode: 'eng', name: 'Proof of Address', ...audit() } });
  await prisma.documentType.createMany({ data: ['RNC', 'PSP'].map((code) => ({ code, langCode: 'eng', name: code, ...audit() })) });
  await prisma.validDocument.create({ data: { docCategoryCode: 'POA', docTypeCode: 'RNC', ...audit() } });
  await prisma.applicantValidDocument.create({ data: { applicantTypeCode: '001', docCategoryCode: 'POA', docTypeCode: 'RNC', ...audit() } });
  await prisma.holiday.createMany({
    data: [
      { id: 1, langCode: 'eng', locationCode: 'RSK', holidayDate: new Date('2030-01-01'), holidayName: 'New Year', ...audit() },
      { id: 2, langCode: 'eng', locationCode: 'MOR', holidayDate: new Date('2030-07-30'), holidayName: 'Elsewhere', ...audit() },
    ],
  });
  await prisma.deviceType.create({ data: { code: 'FRS', langCode: 'eng', name: 'Fingerprint scanner', ...audit() } });
  await prisma.deviceSpecification.create({ data: { id: 'SPEC-1', langCode: 'eng', name: 'Slap', brand: 'B', model: 'M', deviceTypeCode: 'FRS', ...audit() } });
  await prisma.device.createMany({
    data: [
      {
        id: 'D-1',
        langCode: 'eng',
        name: 'here',
        serialNum: 'S1',
        deviceSpecId: 'SPEC-1',
        macAddress: 'M1',
        zoneCode: 'NTH',
        regCenterId: '10001',
        ...audit(),
      },
      {
        id: 'D-2',
        langCode: 'eng',
        name: 'elsewhere',
        serialNum: 'S2',
        deviceSpecId: 'SPEC-1',
        macAddress: 'M2',
        zoneCode: 'NTH',
        regCenterId: '99999',
        ...audit(),
      },
    ],
  });
  await prisma.idSchema.create({
    data: {
      id: 'schema-1',
      idVersion: 1,
      title: 'Identity',
      description: 'd',
      schemaVersion: 1,
      schema: [],
      schemaJson: '{}',
      effectiveFrom: t.clock.now(),
      status: 'PUBLISHED',
      ...audit(),
    },
  });
}

let keyIndex = '';
let privateKey: KeyObject;

beforeAll(async () => {
  await seed();
  await ok(post('/v1/masterdata/registrationcenters', centre()));
  await ok(post('/v1/masterdata/registrationcenters', centre({ name: 'Other Centre' })));
  await ok(post('/v1/masterdata/machines', machine()));
  const keys = machineKeys();
  privateKey = keys.privateKey;
  keyIndex = await mapMachineKey('sync-machine-1', keys.publicKey);
});

const settingsOf = async (query: string, suffix = '') => {
  const response = await ok<{ lastSyncTime: string; dataToSync: { entityName: string; entityType: string; data: string }[] }>(
    get(`/v1/syncdata/clientsettings${suffix}?${query}`),
  );
  const entities = Object.fromEntries(response.dataToSync.map((entity) => [entity.entityName, decryptForMachine(privateKey, entity.data) as any[]]));
  return { response, entities };
};

describe('client settings', () => {
  it("sends a machine every entity it needs, readable only with the machine's key, then only what changed", async () => {
    const { response, entities } = await settingsOf(`keyindex=${keyIndex}`);
    expect(response.lastSyncTime).toBe(t.clock.now().toISOString());
    expect(response.dataToSync.every((entity) => entity.entityType === 'structured')).toBe(true);
    expect(Object.keys(entities).sort()).toEqual(
      [
        'ApplicantValidDocument',
        'Device',
        'DeviceSpecification',
        'DeviceType',
        'DocumentCategory',
        'DocumentType',
        'Holiday',
        'IdSchema',
        'Language',
        'Location',
        'LocationHierarchy',
        'Machine',
        'RegistrationCenter',
        'RegistrationCenterWorkingDay',
        'ValidDocument',
      ].sort(),
    );
    expect(entities.Language!.map((row) => row.code)).toEqual(['eng', 'fra']);
    expect(entities.Location!.map((row) => row.code)).toEqual(['KTA', 'MOR', 'RSK']);
    expect(entities.Holiday!.map((row) => row.holidayName)).toEqual(['New Year']);
    expect(entities.Device!.map((row) => row.id)).toEqual(['D-1']);
    expect(entities.RegistrationCenter!.map((row) => [row.id, row.name])).toEqual([['10001', 'Sync Centre']]);
    expect(entities.RegistrationCenterWorkingDay).toHaveLength(7);
    expect(entities.Machine!.map((row) => [row.id, row.name, row.isDeleted])).toEqual([['10001', 'sync-machine-1', false]]);
    expect(entities.IdSchema!.map((row) => row.id)).toEqual(['schema-1']);
    // Another key cannot open it.
    expect(() => decryptForMachine(machineKeys().privateKey, response.dataToSync[0]!.data)).toThrow();

    // Later: a language renamed, a document type deleted, a user mapped to the centre and unmapped again.
    const lastSync = response.lastSyncTime;
    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    const now = t.clock.now();
    const prisma = t.platform.deps.prisma;
    await prisma.language.update({ where: { code: 'fra' }, data: { name: 'French', updatedBy: 'seed', updatedAt: now, changedAt: now } });
    await prisma.documentType.update({
      where: { code_langCode: { code: 'PSP', langCode: 'eng' } },
      data: { isDeleted: true, deletedAt: now, updatedAt: now, updatedBy: 'seed', changedAt: now },
    });
    await createUser('sync-officer-0', ['REGISTRATION_OFFICER']);
    await ok(post('/v1/masterdata/usercentermapping', { userId: 'sync-officer-0', regCenterId: '10001' }));
    await ok(t.request('DELETE', '/v1/masterdata/usercentermapping/sync-officer-0/10001', { headers: auth }));

    const delta = await settingsOf(`keyindex=${keyIndex}&lastupdated=${encodeURIComponent(lastSync)}`);
    expect(Object.keys(delta.entities).sort()).toEqual(['DocumentType', 'Language', 'RegistrationCenterUser']);
    expect(delta.entities.Language!.map((row) => [row.code, row.name])).toEqual([['fra', 'French']]);
    expect(delta.entities.DocumentType!.map((row) => [row.code, row.isDeleted])).toEqual([['PSP', true]]);
    expect(delta.entities.RegistrationCenterUser!.map((row) => [row.userId, row.isDeleted])).toEqual([['sync-officer-0', true]]);
    expect(delta.response.lastSyncTime).toBe(now.toISOString());
    // A full sync leaves the deleted rows out.
    const full = await settingsOf(`keyindex=${keyIndex}`, '/10001');
    expect(full.entities.DocumentType!.map((row) => row.code)).toEqual(['RNC']);
    expect(full.entities.RegistrationCenterUser).toBeUndefined();
  });

  it('refuses unknown keys, unknown, inactive and moved machines, and bad timestamps with their codes', async () => {
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${'0'.repeat(64)}`), 'KER-SNC-155', /^Machine not found$/);
    await expectRejected(t, () => get('/v1/syncdata/clientsettings'), 'KER-SNC-999');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}&lastupdated=yesterday`), 'KER-SNC-100');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}&lastupdated=2999-01-01T00:00:00.000Z`), 'KER-SNC-135');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings/10002?keyindex=${keyIndex}`), 'KER-SNC-149');

    // A key mapped to a name no machine has.
    const stray = machineKeys();
    const strayIndex = await mapMachineKey('no-such-machine', stray.publicKey);
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${strayIndex}`), 'KER-SNC-155');

    // A machine placed at no centre.
    const loose = machineKeys();
    await ok(post('/v1/masterdata/machines', machine({ name: 'loose-machine', regCenterId: null })));
    const looseIndex = await mapMachineKey('loose-machine', loose.publicKey);
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${looseIndex}`), 'KER-SNC-141');

    await ok(put('/v1/masterdata/machines', machine({ id: '10001', isActive: false })));
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}`), 'KER-SNC-155', /inactive/);
    await ok(put('/v1/masterdata/machines', machine({ id: '10001', isActive: true })));
    expect((await get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}`)).json.errors).toBeNull();
  });

  it('takes lastUpdated as a DateTime through GraphQL, while REST answers malformed wire text with KER-SNC-100 as before', async () => {
    const headers = bearer(await t.adminToken());
    const SETTINGS =
      'query($k: String!, $since: DateTime) { clientSettings(keyIndex: $k, lastUpdated: $since) { lastSyncTime dataToSync { entityName entityType data } } }';
    const since = '2000-01-01T00:00:00.000Z';
    const graph = await t.graphql(SETTINGS, { k: keyIndex, since }, headers);
    expect(graph.errors).toBeUndefined();
    const wire = await settingsOf(`keyindex=${keyIndex}&lastupdated=${encodeURIComponent(since)}`);
    const names = (entities: { entityName: string }[]) => entities.map((entity) => entity.entityName);
    expect(names(graph.data.clientSettings.dataToSync)).toEqual(names(wire.response.dataToSync));
    expect(graph.data.clientSettings.lastSyncTime).toBe(wire.response.lastSyncTime);
    // Absent (null) stays absent: every live row, as REST without lastupdated.
    const full = await t.graphql(SETTINGS, { k: keyIndex, since: null }, headers);
    expect(names(full.data.clientSettings.dataToSync)).toEqual(names((await settingsOf(`keyindex=${keyIndex}`)).response.dataToSync));
    // A future instant is sync data's own refusal; what is no instant GraphQL refuses itself.
    expect(refusalCode(await t.graphql(SETTINGS, { k: keyIndex, since: '2999-01-01T00:00:00.000Z' }, headers))).toBe('KER-SNC-135');
    for (const bad of ['yesterday', '', '2026-02-30T00:00:00.000Z']) {
      const refused = await t.graphql(SETTINGS, { k: keyIndex, since: bad }, headers);
      expect(refused.data ?? null).toBeNull();
      expect(refused.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/DateTime/) });
    }

    // REST: the wire's text, checked as sync data checks it, same code and message as before; empty means a full sync.
    const badLastUpdated = syncdataErrors.badLastUpdated().message;
    for (const query of [`keyindex=${keyIndex}&lastupdated=yesterday`, `keyindex=${'0'.repeat(64)}&lastupdated=2026-02-30T00:00:00.000Z`]) {
      const { json } = await get(`/v1/syncdata/clientsettings?${query}`);
      expect(json.errors).toEqual([{ errorCode: 'KER-SNC-100', message: badLastUpdated }]);
    }
    expect(names((await settingsOf(`keyindex=${keyIndex}&lastupdated=`)).response.dataToSync)).toEqual(names(full.data.clientSettings.dataToSync));
    // Faults found before the timestamp keep coming first: no key index, a malformed centre in the path.
    await expectRejected(t, () => get('/v1/syncdata/clientsettings?lastupdated=yesterday'), 'KER-SNC-999');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings/${'x'.repeat(11)}?keyindex=${keyIndex}&lastupdated=yesterday`), 'KER-SNC-999');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings/10002?keyindex=${keyIndex}&lastupdated=yesterday`), 'KER-SNC-100');
  });
});

describe('configs and roles', () => {
  it('serves every key of both configuration files as strings', async () => {
    const response = await ok<{ registrationConfiguration: Record<string, string>; globalConfiguration: Record<string, string> }>(get('/v1/syncdata/configs'));
    for (const key of REGISTRATION_KEYS) expect(typeof response.registrationConfiguration[key], key).toBe('string');
    for (const key of GLOBAL_KEYS) expect(typeof response.globalConfiguration[key], key).toBe('string');
    expect(response.registrationConfiguration.smsNotificationTemplateOtp).toContain('$otp');
    expect(response.registrationConfiguration.smsNotificationTemplateOtp).toContain('$user');
    expect(response.globalConfiguration['platform.supported-languages']).toBe('eng,fra,ara');
    expect(response.globalConfiguration['platform.kernel.data-key-splitter']).toBe('#KEY_SPLITTER#');
    expect(response.globalConfiguration['platform.kernel.rid.length']).toBe('29');
  });

  it('reads operator files once, properties or JSON, and refuses a missing or incomplete one at start', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'syncdata-config-'));
    const json = path.join(dir, 'registration.json');
    writeFileSync(json, JSON.stringify(Object.fromEntries(REGISTRATION_KEYS.map((key, i) => [key, i % 2 ? i : `value ${i}`]))));
    expect(loadRegistrationConfiguration(json).keyValidityPeriodRegPack).toBe('1');
    expect(loadGlobalConfiguration(undefined)['auth.header.name']).toBe('Authorization');

    expect(() => loadRegistrationConfiguration(path.join(dir, 'absent.properties'))).toThrow(/PLATFORM_SYNC_REGISTRATION_CONFIG=.*absent/);
    const partial = path.join(dir, 'global.properties');
    writeFileSync(partial, '# only one key\nauth.header.name=Authorization\n');
    expect(() => loadGlobalConfiguration(partial)).toThrow(/PLATFORM_SYNC_GLOBAL_CONFIG=.*missing platform\.kernel\.email\.max-length/);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"keyValidityPeriodRegPack": {"nested": 1}}');
    expect(() => loadRegistrationConfiguration(broken)).toThrow(/not a string/);
  });

  it('lists every role of the platform', async () => {
    const response = await ok<{ roles: { roleId: string; roleName: string; roleDescription: string }[] }>(get('/v1/syncdata/roles'));
    expect(response.roles.map((role) => role.roleId)).toEqual([...ROLES]);
    expect(response.roles.every((role) => role.roleName === role.roleId && role.roleDescription.length > 0)).toBe(true);
  });
});

describe('user details', () => {
  it("gives a centre's users with their stored hashes, never a clear password", async () => {
    await createUser('sync-officer-1', ['REGISTRATION_OFFICER'], 'clear-password-officer-1');
    await createUser('sync-supervisor-1', ['REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'], 'clear-password-supervisor-1');
    for (const userId of ['sync-officer-1', 'sync-supervisor-1']) await ok(post('/v1/masterdata/usercentermapping', { userId, regCenterId: '10001' }));
    const { json } = await get('/v1/syncdata/userdetails/10001');
    const users = json.response.userDetails as any[];
    expect(users.map((user) => [user.userName, user.roles])).toEqual([
      ['sync-officer-1', ['REGISTRATION_OFFICER']],
      ['sync-supervisor-1', ['REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER']],
    ]);
    const stored = await t.platform.deps.prisma.user.findUniqueOrThrow({ where: { userId: 'sync-officer-1' } });
    expect(users[0]).toEqual({
      userName: 'sync-officer-1',
      mail: 'u@example.org',
      mobile: null,
      langCode: 'eng',
      userPassword: stored.passwordHash,
      name: 'sync-officer-1',
      roles: ['REGISTRATION_OFFICER'],
    });
    expect(JSON.stringify(json)).not.toContain('clear-password');
    expect((await get('/v1/syncdata/userdetails/10002')).json.response.userDetails).toEqual([]);
    await expectRejected(t, () => get('/v1/syncdata/userdetails/99999'), 'KER-SNC-141');
    await expectRejected(t, () => get('/v1/syncdata/userdetails/not%20an%20id'), 'KER-SNC-999');
  });

  it('lets an officer read only the users of the centre it works at; a resident nothing (KER-ATH-403)', async () => {
    const officer = await login('sync-officer-1', 'registrationclient', 'clear-password-officer-1');
    expect((await get('/v1/syncdata/userdetails/10001', officer)).json.response.userDetails).toHaveLength(2);
    await expectRejected(t, () => get('/v1/syncdata/userdetails/10002', officer), 'KER-ATH-403');
    expect((await get('/v1/syncdata/configs', officer)).json.errors).toBeNull();
    expect((await get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}`, officer)).json.errors).toBeNull();

    await createUser('sync-resident', ['RESIDENT']);
    const resident = await login('sync-resident', 'resident');
    for (const url of ['/v1/syncdata/configs', '/v1/syncdata/roles', '/v1/syncdata/userdetails/10001', `/v1/syncdata/clientsettings?keyindex=${keyIndex}`])
      await expectRejected(t, () => get(url, resident), 'KER-ATH-403');
  });
});

describe('each caller in its own scope', () => {
  const gqlCode = (answer: any) => refusalCode(answer);

  it("never sends a hash that opens more than the registration client: not the admin's, not a locked account's", async () => {
    const admin = bearer(await t.adminToken());
    await createUser('sync-clean', ['REGISTRATION_OFFICER']);
    await createUser('sync-mixed', ['REGISTRATION_SUPERVISOR', 'ZONAL_ADMIN']);
    await createUser('sync-locked', ['REGISTRATION_OFFICER']);
    for (const userId of ['admin', 'sync-clean', 'sync-mixed', 'sync-locked'])
      await ok(post('/v1/masterdata/usercentermapping', { userId, regCenterId: '10002' }));
    expect(
      (await t.graphql('mutation { lockUser(input: { userId: "sync-locked" }) { user { userId } userErrors { field code message } } }', {}, admin)).errors,
    ).toBeUndefined();
    const { json } = await get('/v1/syncdata/userdetails/10002');
    expect(json.response.userDetails.map((user: any) => [user.userName, user.roles])).toEqual([['sync-clean', ['REGISTRATION_OFFICER']]]);
    const adminHash = (await t.platform.deps.prisma.user.findUniqueOrThrow({ where: { userId: 'admin' } })).passwordHash!;
    expect(JSON.stringify(json)).not.toContain(adminHash.slice(-20));
    const graph = await t.graphql('{ syncUserDetails(regCenterId: "10002") { userName roles } }', {}, admin);
    expect(graph.data.syncUserDetails).toEqual([{ userName: 'sync-clean', roles: ['REGISTRATION_OFFICER'] }]);
    for (const userId of ['admin', 'sync-mixed', 'sync-locked'])
      await ok(t.request('DELETE', `/v1/masterdata/usercentermapping/${userId}/10002`, { headers: auth }));
  });

  it('lets an admin read the staff of the centres of its zones only; a role alone reaches none (KER-ATH-403)', async () => {
    await createUser('zsouth', ['REGISTRATION_ADMIN']);
    await createUser('sync-regadmin', ['REGISTRATION_ADMIN']);
    for (const caller of [await login('zsouth', 'registrationclient'), await login('sync-regadmin', 'registrationclient')]) {
      await expectRejected(t, () => get('/v1/syncdata/userdetails/10001', caller), 'KER-ATH-403');
      await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}`, caller), 'KER-ATH-403');
      const token = caller.cookie.replace('Authorization=Platform-Token', '');
      expect(gqlCode(await t.graphql('{ syncUserDetails(regCenterId: "10001") { userName } }', {}, bearer(token)))).toBe('KER-ATH-403');
    }
  });

  it("lets an officer map only a machine of its own centre, and read no other centre's settings (KER-ATH-403), however it races", async () => {
    await ok(post('/v1/masterdata/machines', machine({ id: 'M-OTHER', name: 'other-centre-machine', regCenterId: '10002' })));
    await createUser('sync-officer-2', ['REGISTRATION_OFFICER']);
    await ok(post('/v1/masterdata/usercentermapping', { userId: 'sync-officer-2', regCenterId: '10002' }));
    const mine = await login('sync-officer-1', 'registrationclient', 'clear-password-officer-1');
    const theirs = await login('sync-officer-2');
    const upload = (caller: Record<string, string>, machineName: string, key: KeyObject) =>
      post('/v1/syncdata/tpm/publickey', tpmKeyRequest(machineName, key), caller);
    const attacker = machineKeys();

    await expectRejected(t, () => upload(mine, 'other-centre-machine', attacker.publicKey), 'KER-ATH-403');
    // a name no machine has yet is no officer's to claim
    await expectRejected(t, () => upload(mine, 'machine-of-tomorrow', attacker.publicKey), 'KER-ATH-403');
    const before = await t.snapshot();
    const graph = await t.graphql(
      'mutation($m: ID!, $k: String!) { uploadMachinePublicKey(input: { machineName: $m, publicKey: $k }) { machineKey { keyIndex } userErrors { field code message } } }',
      { m: 'other-centre-machine', k: tpmKeyRequest('x', attacker.publicKey).publicKey },
      mine,
    );
    expect(gqlCode(graph)).toBe('KER-ATH-403');
    expect(await t.snapshot()).toEqual(before);

    // Racing the centre's own officer changes nothing: only its mapping lands.
    const own = machineKeys();
    const raced = await Promise.all([
      ...Array.from({ length: 4 }, () => upload(mine, 'other-centre-machine', machineKeys().publicKey)),
      upload(theirs, 'other-centre-machine', own.publicKey),
    ]);
    expect(raced.map((r) => r.json.errors?.[0]?.errorCode ?? 'ok')).toEqual(['KER-ATH-403', 'KER-ATH-403', 'KER-ATH-403', 'KER-ATH-403', 'ok']);
    const ownIndex = raced[4]!.json.response.keyIndex as string;
    expect(await t.platform.deps.prisma.machinePublicKey.findUnique({ where: { machineName: 'other-centre-machine' } })).toMatchObject({
      keyIndex: ownIndex,
      createdBy: 'sync-officer-2',
    });

    // The settings of that machine: its centre's officer reads them, the other centre's does not, whoever holds a key.
    expect((await get(`/v1/syncdata/clientsettings?keyindex=${ownIndex}`, theirs)).json.errors).toBeNull();
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${ownIndex}`, mine), 'KER-ATH-403');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings/10002?keyindex=${ownIndex}`, mine), 'KER-ATH-403');
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${keyIndex}`, theirs), 'KER-ATH-403');
    const token = mine.cookie.replace('Authorization=Platform-Token', '');
    expect(gqlCode(await t.graphql('query($k: String!) { clientSettings(keyIndex: $k) { lastSyncTime } }', { k: ownIndex }, bearer(token)))).toBe(
      'KER-ATH-403',
    );
    // A machine moved to another centre is that centre's from then on.
    await ok(put('/v1/masterdata/machines', machine({ id: 'M-OTHER', name: 'other-centre-machine', regCenterId: '10001' })));
    await expectRejected(t, () => get(`/v1/syncdata/clientsettings?keyindex=${ownIndex}`, theirs), 'KER-ATH-403');
    expect((await get(`/v1/syncdata/clientsettings?keyindex=${ownIndex}`, mine)).json.errors).toBeNull();
  });
});
