import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMasterdata } from '../../subgraphs/masterdata/import/loader.js';
import { expectRejected } from '../support/assertions.js';
import { decryptForMachine, machineKeys, tpmKeyRequest } from '../support/machine.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';

let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const get = async (url: string) => {
  const { json } = await t.request('GET', `/v1/masterdata${url}`, { headers: auth });
  expect(json.errors, url).toBeNull();
  return json.response;
};

describe('sample country', () => {
  it('loads on start: languages, the location hierarchy to KTA, zone MOR for the admin, centre and machine 10001, FRS and 165, documents, a published schema, holidays', async () => {
    const prisma = t.platform.deps.prisma;
    expect((await prisma.language.findMany({ orderBy: { code: 'asc' } })).map((row) => row.code)).toEqual(['ara', 'eng', 'fra']);
    const chain = (await get('/locations/KTA/eng')).locations;
    expect(chain[0]).toMatchObject({ code: 'KTA', hierarchyLevel: 3, hierarchyName: 'City' });
    expect(chain.at(-1)).toMatchObject({ code: 'MOR', hierarchyLevel: 0 });
    expect(await prisma.zoneUser.findMany({ select: { userId: true, zoneCode: true } })).toEqual([{ userId: 'admin', zoneCode: 'MOR' }]);
    expect(await prisma.zone.count({ where: { code: 'MOR' } })).toBe(3);
    expect(await prisma.registrationCenter.count({ where: { id: '10001' } })).toBe(3);
    expect(await prisma.registrationCenterWorkingDay.count({ where: { regCenterId: '10001', isWorking: true, langCode: 'eng' } })).toBe(5);
    expect(await prisma.machine.count({ where: { id: '10001' } })).toBe(3);
    expect(await prisma.deviceType.count({ where: { code: 'FRS' } })).toBe(3);
    expect(await prisma.deviceSpecification.count({ where: { id: '165', deviceTypeCode: 'FRS' } })).toBe(3);
    expect(await prisma.applicantValidDocument.count()).toBeGreaterThan(20);
    expect(await prisma.documentCategory.count({ where: { langCode: 'eng' } })).toBe(3);

    const schema = await get('/idschema/latest');
    expect(schema).toMatchObject({ status: 'PUBLISHED', idVersion: 1, title: 'Sample country identity' });
    expect(schema.schema.map((field: any) => field.id)).toContain('individualBiometrics');
    const holidays = (await get('/holidays')).holidays;
    expect(holidays.filter((h: any) => h.locationCode === 'KTA' && h.langCode === 'eng').map((h: any) => h.holidayName)).toContain('New Year');
    expect((await get('/holidays/1')).holidays.map((h: any) => h.langCode).sort()).toEqual(['ara', 'eng', 'fra']);
    const search = await t.request('POST', '/v1/masterdata/holidays/search', {
      body: envelopeOf({ filters: [{ columnName: 'holidayName', type: 'contains', value: 'day' }], languageCode: 'eng' }),
      headers: auth,
    });
    expect(search.json.response.totalRecord).toBe(3);
    const graph = await t.graphql('{ locations(filter: {langCode: "ara", hierarchyLevel: 3}) { totalCount } }', {}, bearer(await t.adminToken()));
    expect(graph.data.locations.totalCount).toBe(2);
  });

  it('answers every area with the sample codes, and each area its codes for what is not there', async () => {
    // Documents and applicant types
    expect((await get('/documentcategories/eng')).documentcategories.map((c: any) => c.code).sort()).toEqual(['POA', 'POB', 'POI']);
    expect((await get('/documenttypes/POI/eng')).documenttypes.map((d: any) => d.code).sort()).toEqual(['CIN', 'PAS']);
    const adult = (await get('/doccattypes?individualtypecode=FR&agegrouptypecode=ADL&gendertypecode=MLE')).documentcategories;
    expect(
      adult
        .find((c: any) => c.code === 'POI' && c.langCode === 'eng')
        .documenttype.map((d: any) => d.code)
        .sort(),
    ).toEqual(['CIN', 'PAS']);
    expect((await get('/checkapptypedoccattypedoctype?applicanttypecode=003&documentcategorycode=POB&documenttypecode=CRN')).resultMessage).toMatch(/valid/i);
    await expectRejected(t, () => t.request('GET', '/v1/masterdata/documentcategories/NOPE/eng', { headers: auth }), 'KER-MSD-014');
    // Devices and zones: the admin covers MOR, so every sample device
    expect((await get('/devices/eng')).devices.map((d: any) => d.id)).toEqual(['3000001']);
    expect((await get('/devices/eng/FRS')).devices.map((d: any) => d.deviceSpecId)).toEqual(['165']);
    expect([...new Set((await get('/zones/hierarchy/eng')).map((z: any) => z.code))].sort()).toEqual(['KTA', 'MOR', 'RSK']);
    await expectRejected(t, () => t.request('PUT', '/v1/masterdata/devices/decommission/NOPE', { headers: auth }), 'KER-MSD-010');
    // Centres and machines
    const centre = (await get('/registrationcenters/10001/eng')).registrationCenters[0];
    expect(centre).toMatchObject({ id: '10001', locationCode: 'KTA', zoneCode: 'KTA', centerStartTime: '09:00:00', centerEndTime: '17:00:00' });
    expect((await get('/machines/10001/eng')).machines[0]).toMatchObject({ id: '10001', name: '10001', regCenterId: '10001' });
    await expectRejected(t, () => t.request('GET', '/v1/masterdata/registrationcenters/99999/eng', { headers: auth }), 'KER-MSD-215');
    // Sync data for machine 10001 once its TPM key is mapped
    const sync = async (url: string) => {
      const { json } = await t.request('GET', `/v1/syncdata${url}`, { headers: auth });
      expect(json.errors, url).toBeNull();
      return json.response;
    };
    expect((await sync('/configs')).globalConfiguration['platform.supported-languages']).toBe('eng,fra,ara');
    expect((await sync('/roles')).roles.map((r: any) => r.roleId)).toContain('REGISTRATION_OFFICER');
    // The centre's own staff, without passwords until an admin sets them; the admin works at no centre.
    expect((await sync('/userdetails/10001')).userDetails.map((u: any) => [u.userName, u.roles, u.userPassword])).toEqual([
      ['sample-officer', ['REGISTRATION_OFFICER'], null],
      ['sample-operator', ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'], null],
      ['sample-supervisor', ['REGISTRATION_SUPERVISOR'], null],
    ]);
    const keys = machineKeys();
    const { json: mapped } = await t.request('POST', '/v1/syncdata/tpm/publickey', { body: envelopeOf(tpmKeyRequest('10001', keys.publicKey)), headers: auth });
    const settings = await sync(`/clientsettings?keyindex=${encodeURIComponent(mapped.response.keyIndex)}`);
    const entities = Object.fromEntries(
      settings.dataToSync.map((entity: any) => [entity.entityName, decryptForMachine(keys.privateKey, entity.data) as any[]]),
    );
    expect(entities.Holiday.filter((h: any) => h.langCode === 'eng').map((h: any) => h.holidayName)).toContain('Throne Day');
    expect(entities.Machine.map((m: any) => m.id)).toContain('10001');
    expect(entities.RegistrationCenter.map((c: any) => c.id)).toContain('10001');
    const { json: unknown } = await t.request('GET', '/v1/syncdata/clientsettings?keyindex=00:11', { headers: auth });
    expect(unknown.errors[0].errorCode).toBe('KER-SNC-155');
  });

  it('gives centre 10001 its own registration staff, who log in once an admin sets their passwords', async () => {
    const prisma = t.platform.deps.prisma;
    const mapped = await prisma.registrationCenterUser.findMany({ where: { regCenterId: '10001' }, orderBy: { userId: 'asc' } });
    expect(mapped.map((row) => row.userId)).toEqual(['sample-officer', 'sample-operator', 'sample-supervisor']);
    const staff = await prisma.user.findMany({ where: { userId: { startsWith: 'sample-' } }, orderBy: { userId: 'asc' } });
    expect(staff.map((user) => [user.userId, user.passwordHash, user.appIds])).toEqual([
      ['sample-officer', null, ['registrationclient']],
      ['sample-operator', null, ['registrationclient']],
      ['sample-supervisor', null, ['registrationclient']],
    ]);
    const login = (password: string) =>
      t.graphql(
        'mutation($p: String!) { loginWithPassword(input: { userName: "sample-officer", password: $p, appId: "registrationclient" }) { passwordLogin { token } userErrors { field code message } } }',
        {
          p: password,
        },
      );
    expect((await login('')).data.loginWithPassword.passwordLogin).toBeNull();
    expect((await login('sample-officer')).data.loginWithPassword.passwordLogin).toBeNull();
    const admin = bearer(await t.adminToken());
    const reset = await t.graphql(
      'mutation { resetPassword(input: { userId: "sample-officer", password: "Officer-password-1" }) { user { userId } userErrors { field code message } } }',
      {},
      admin,
    );
    expect(reset.errors).toBeUndefined();
    const token = (await login('Officer-password-1')).data.loginWithPassword.passwordLogin.token as string;
    const { json } = await t.request('GET', '/v1/syncdata/userdetails/10001', { headers: bearer(token) });
    expect(json.response.userDetails.find((u: any) => u.userName === 'sample-officer').userPassword).toMatch(/^\S{20,}$/);
  });

  it('continues holiday ids after the loaded ones', async () => {
    const created = await t.request('POST', '/v1/masterdata/holidays', {
      body: envelopeOf({
        locationCode: 'RBTC',
        holidayDate: '2026-12-25',
        holidayMonth: '12',
        holidayYear: '2026',
        holidayName: 'Winter Day',
        holidayDesc: 'x',
        langCode: 'eng',
        isActive: true,
      }),
      headers: auth,
    });
    expect(created.json.errors).toBeNull();
    const row = await t.platform.deps.prisma.holiday.findFirst({ where: { holidayName: 'Winter Day' } });
    expect(row!.id).toBeGreaterThan(4);
  });

  it("imports an operator's files, reporting each rejected row by file and line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'country-'));
    writeFileSync(
      path.join(dir, '03-locations.csv'),
      'code,langCode,name,hierarchyLevel,hierarchyName,parentCode\nNEWC,eng,New City,3,City,KNT\nBAD,eng,,3,City,KNT\nTWO,eng,Two,three,City,KNT\n',
    );
    writeFileSync(
      path.join(dir, 'holidays.json'),
      JSON.stringify([
        { langCode: 'eng', locationCode: 'NEWC', holidayDate: '2027-03-03', holidayName: 'City Day' },
        { langCode: 'eng', locationCode: 'NEWC', holidayDate: 'March' },
      ]),
    );
    const messages: string[] = [];
    const report = await importMasterdata(t.platform.deps.prisma, dir, 'operator', t.clock.now(), (message) => messages.push(message));
    expect(report.loaded).toMatchObject({ locations: 1, holidays: 1 });
    expect(report.rejected.map((row) => [row.file, row.line])).toEqual([
      ['03-locations.csv', 3],
      ['03-locations.csv', 4],
      ['holidays.json', 2],
    ]);
    expect(report.rejected[0]!.reason).toMatch(/name/);
    expect(messages).toEqual(['03-locations.csv: 1 of 3 rows loaded', 'holidays.json: 1 of 2 rows loaded']);
    expect((await get('/locations/NEWC/eng')).locations[0]).toMatchObject({ name: 'New City' });
  });
});

describe('backward paging', () => {
  it('pages every root list from its end with last and before, the same rows as forward, and refuses both directions at once', async () => {
    const { SUPERGRAPH_FILE } = await import('../../gateway/compose.js');
    const { readFileSync } = await import('node:fs');
    const { buildSchema, getNamedType, isNonNullType } = await import('graphql');
    const schema = buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });
    const lists = Object.values(schema.getQueryType()!.getFields()).filter(
      (field) => getNamedType(field.type).name.endsWith('Connection') && !field.args.some((arg) => isNonNullType(arg.type)),
    );
    const page = '{ edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }';
    let checked = 0;
    let rows = 0;
    for (const { name } of lists) {
      const forward = await t.graphql(`{ list: ${name}(first: 100) ${page} }`, {}, auth);
      // Lists that need an argument the admin does not give (a centre's bookings) are another test's; the long ones are paged forward there.
      if (forward.errors) continue;
      const expected = (forward.data.list.edges as { cursor: string }[]).map((edge) => edge.cursor);
      if (forward.data.list.pageInfo.hasNextPage) continue;
      const seen: string[] = [];
      let before: string | null = null;
      for (let round = 0; round < 40; round++) {
        const { data, errors } = await t.graphql(`query($before: String) { list: ${name}(last: 7, before: $before) ${page} }`, { before }, auth);
        expect(errors, name).toBeUndefined();
        seen.unshift(...(data.list.edges as { cursor: string }[]).map((edge) => edge.cursor));
        expect(data.list.pageInfo.hasNextPage, name).toBe(before !== null);
        if (!data.list.pageInfo.hasPreviousPage) break;
        before = data.list.pageInfo.startCursor;
      }
      expect(seen, name).toEqual(expected);
      checked++;
      rows += expected.length;
    }
    expect(checked).toBeGreaterThanOrEqual(25);
    expect(rows).toBeGreaterThanOrEqual(100);
    // The sample country's locations: the last page holds the last seven, with a page before it.
    const locations = await t.graphql(`{ list: locations(last: 7) ${page} }`, {}, auth);
    expect(locations.data.list.edges).toHaveLength(7);
    expect(locations.data.list.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    // A list nested in each row of a page too.
    const nested = await t.graphql(
      '{ registrationCentres(first: 1) { edges { node { forward: holidays(first: 100) { edges { cursor } } backward: holidays(last: 3) { edges { cursor } pageInfo { hasPreviousPage } } } } } }',
      {},
      auth,
    );
    const centre = nested.data.registrationCentres.edges[0].node;
    const cursors = (edges: { cursor: string }[]) => edges.map((edge) => edge.cursor);
    expect(centre.forward.edges.length).toBeGreaterThan(3);
    expect(cursors(centre.backward.edges)).toEqual(cursors(centre.forward.edges).slice(-3));
    expect(centre.backward.pageInfo.hasPreviousPage).toBe(true);
    const both = await t.graphql('{ users(first: 2, last: 2) { totalCount } }', {}, auth);
    expect(both.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(both.errors[0].message).toContain('not both');
  });
});

describe('ordering', () => {
  it('lists every root list in the reverse of its own order with orderBy, paged forward and backward alike', async () => {
    const { SUPERGRAPH_FILE } = await import('../../gateway/compose.js');
    const { readFileSync } = await import('node:fs');
    const { buildSchema, getNamedType, isNonNullType } = await import('graphql');
    const schema = buildSchema(readFileSync(SUPERGRAPH_FILE, 'utf8'), { assumeValidSDL: true });
    const lists = Object.values(schema.getQueryType()!.getFields()).flatMap((field) => {
      const natural = /the order: ([A-Z_]+) (ASC|DESC) unless asked otherwise/.exec(field.args.find((arg) => arg.name === 'orderBy')?.description ?? '');
      const listed = getNamedType(field.type).name.endsWith('Connection') && !field.args.some((arg) => isNonNullType(arg.type));
      return listed && natural ? [{ name: field.name, field: natural[1]!, reverse: natural[2] === 'ASC' ? 'DESC' : 'ASC' }] : [];
    });
    expect(lists.length).toBeGreaterThanOrEqual(25);
    const page = '{ edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }';
    const cursors = (data: any) => (data.list.edges as { cursor: string }[]).map((edge) => edge.cursor);
    let checked = 0;
    for (const { name, field, reverse } of lists) {
      const forward = await t.graphql(`{ list: ${name}(first: 100) ${page} }`, {}, auth);
      if (forward.errors || forward.data.list.pageInfo.hasNextPage) continue;
      const expected = cursors(forward.data).reverse();
      const order = `orderBy: { field: ${field}, direction: ${reverse} }`;
      const reversed = await t.graphql(`{ list: ${name}(first: 100, ${order}) ${page} }`, {}, auth);
      expect(reversed.errors, name).toBeUndefined();
      expect(cursors(reversed.data), name).toEqual(expected);
      // In pages of 4, forward with after, and from the end with last and before.
      const paged: string[] = [];
      let after: string | null = null;
      for (let round = 0; round < 60; round++) {
        const { data } = await t.graphql(`query($after: String) { list: ${name}(first: 4, after: $after, ${order}) ${page} }`, { after }, auth);
        paged.push(...cursors(data));
        if (!data.list.pageInfo.hasNextPage) break;
        after = data.list.pageInfo.endCursor;
      }
      expect(paged, name).toEqual(expected);
      const tail = await t.graphql(`{ list: ${name}(last: 3, ${order}) ${page} }`, {}, auth);
      expect(cursors(tail.data), name).toEqual(expected.slice(-3));
      // Its own order named outright is the order it has without one.
      const own = await t.graphql(
        `{ list: ${name}(first: 100, orderBy: { field: ${field}, direction: ${reverse === 'ASC' ? 'DESC' : 'ASC'} }) ${page} }`,
        {},
        auth,
      );
      expect(cursors(own.data), name).toEqual([...expected].reverse());
      checked += expected.length ? 1 : 0;
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    // A nested list too: a centre's holidays, latest first.
    const nested = await t.graphql(
      `{ registrationCentres(first: 1) { edges { node {
        forward: holidays(first: 100) { edges { cursor } }
        reversed: holidays(first: 3, orderBy: { field: HOLIDAY_DATE, direction: DESC }) { edges { cursor } pageInfo { hasNextPage } } } } } }`,
      {},
      auth,
    );
    const centre = nested.data.registrationCentres.edges[0].node;
    expect(cursors({ list: centre.reversed })).toEqual(cursors({ list: centre.forward }).reverse().slice(0, 3));
    expect(centre.reversed.pageInfo.hasNextPage).toBe(true);
  });
});

describe('filter names', () => {
  it('takes the newer names (nameContains, centreId, createdAfter, readAfter, mispId) as the deprecated ones they replace', async () => {
    const same = async (query: string, newer: object, older: object, atLeast = 1) => {
      const [a, b] = await Promise.all([t.graphql(query, { filter: newer }, auth), t.graphql(query, { filter: older }, auth)]);
      expect(a.errors, query).toBeUndefined();
      expect(a.data, query).toEqual(b.data);
      expect(JSON.stringify(a.data).match(/"id"|"userId"|"registrationId"/g)?.length ?? 0, query).toBeGreaterThanOrEqual(atLeast);
      return a.data;
    };
    await same(
      'query($filter: UserFilter) { users(first: 50, filter: $filter) { edges { node { userId } } } }',
      { centreId: '10001' },
      { regCenterId: '10001' },
    );
    await same('query($filter: UserFilter) { users(first: 50, filter: $filter) { edges { node { userId } } } }', { nameContains: 'a' }, { name: 'a' });
    await same(
      'query($filter: MachineFilter) { machines(first: 50, filter: $filter) { edges { node { id } } } }',
      { centreId: '10001' },
      { regCenterId: '10001' },
    );
    await same(
      'query($filter: DeviceFilter) { devices(first: 50, filter: $filter) { edges { node { id } } } }',
      { centreId: '10001' },
      { regCenterId: '10001' },
    );
    const centres = await same(
      'query($filter: RegistrationCentreFilter) { registrationCentres(first: 50, filter: $filter) { edges { node { id name } } } }',
      { nameContains: 'e' },
      { name: 'e' },
    );
    expect(centres.registrationCentres.edges.every((edge: any) => /e/i.test(edge.node.name))).toBe(true);
    // No registration yet: the instants still reach the rule (a malformed one is refused either way).
    await same(
      'query($filter: RegistrationFilter) { registrations(first: 5, filter: $filter) { totalCount } }',
      { createdAfter: '2020-01-01T00:00:00.000Z' },
      { from: '2020-01-01T00:00:00.000Z' },
      0,
    );
    const bad = await t.graphql(
      'query($filter: RegistrationFilter) { registrations(filter: $filter) { totalCount } }',
      { filter: { createdAfter: 'yesterday' } },
      auth,
    );
    expect(bad.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
