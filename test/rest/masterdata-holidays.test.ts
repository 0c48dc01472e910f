import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const BASE = '/v1/masterdata';
let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const send = (method: string, path: string, body?: unknown) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers: auth });
const location = (code: string, hierarchyLevel: number, hierarchyName: string, parentLocCode: string | null, langCode = 'eng') =>
  send('POST', '/locations', { code, langCode, name: `${code} ${langCode}`, hierarchyLevel, hierarchyName, parentLocCode, isActive: true });
const holiday = (holidayName: string, holidayDate: string, extra: Record<string, unknown> = {}) =>
  send('POST', '/holidays', {
    locationCode: 'KTA',
    holidayDate,
    holidayMonth: holidayDate.slice(5, 7),
    holidayYear: holidayDate.slice(0, 4),
    holidayName,
    holidayDesc: `${holidayName} day`,
    langCode: 'eng',
    isActive: true,
    ...extra,
  });
let seeded = false;
async function seed() {
  if (seeded) return;
  seeded = true;
  for (const [code, level, name, parent] of [
    ['MOR', 0, 'Country', null],
    ['RSK', 1, 'Region', 'MOR'],
    ['KNT', 2, 'Province', 'RSK'],
    ['KTA', 3, 'City', 'KNT'],
  ] as const)
    expect((await location(code, level, name, parent)).json.errors).toBeNull();
}

describe('locations', () => {
  it('keeps a hierarchy: ancestors, children, languages; unknown codes give KER-MSD-026', async () => {
    await seed();
    const chain = (await send('GET', '/locations/KTA/eng')).json.response.locations;
    expect(chain.map((row: any) => [row.code, row.hierarchyLevel, row.hierarchyName])).toEqual([
      ['KTA', 3, 'City'],
      ['KNT', 2, 'Province'],
      ['RSK', 1, 'Region'],
      ['MOR', 0, 'Country'],
    ]);
    expect((await send('GET', '/locations/immediatechildren/RSK/eng')).json.response.locations.map((row: any) => row.code)).toEqual(['KNT']);
    expect((await send('GET', '/locations/eng')).json.response.locations).toHaveLength(4);
    await expectRejected(t, () => send('GET', '/locations/NOPE/eng'), 'KER-MSD-026');
    await expectRejected(t, () => location('XX', 2, 'Province', 'NOPE'), 'KER-MSD-026');
    await expectRejected(t, () => location('KTA', 3, 'City', 'KNT'), 'KER-MSD-064');
    await expectRejected(t, () => location('ORPHAN', 2, 'Province', null), 'KER-MSD-064');
  });

  it('answers KER-MSD-025 when the hierarchy cannot be read', async () => {
    await seed();
    await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_location RENAME TO md_location_away');
    try {
      expect((await send('GET', '/locations/eng')).json.errors[0].errorCode).toBe('KER-MSD-025');
    } finally {
      await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_location_away RENAME TO md_location');
    }
  });
});

describe('holidays', () => {
  it('creates, reads, translates, updates and deletes holidays with the documented shapes', async () => {
    await seed();
    const created = (await holiday('New Year', '2027-01-01')).json.response;
    expect(created).toEqual({ holidayDate: '2027-01-01', holidayName: 'New Year', langCode: 'eng', locationCode: 'KTA' });
    const [row] = (await send('GET', '/holidays')).json.response.holidays.filter((h: any) => h.holidayName === 'New Year');
    expect(row).toMatchObject({
      locationCode: 'KTA',
      holidayDate: '2027-01-01',
      holidayDay: '1',
      holidayMonth: '1',
      holidayYear: '2027',
      holidayDesc: 'New Year day',
      isActive: true,
    });
    expect(Number.isInteger(row.id)).toBe(true);

    await holiday('Nouvel An', '2027-01-01', { langCode: 'fra', id: row.id });
    const both = (await send('GET', `/holidays/${row.id}`)).json.response.holidays;
    expect(both.map((h: any) => h.langCode).sort()).toEqual(['eng', 'fra']);
    expect((await send('GET', `/holidays/${row.id}/fra`)).json.response.holidays).toEqual([expect.objectContaining({ holidayName: 'Nouvel An', id: row.id })]);

    const updated = await send('PUT', '/holidays', {
      id: row.id,
      locationCode: 'KTA',
      holidayDate: '2027-01-01',
      holidayName: 'New Year',
      holidayDesc: 'x',
      langCode: 'eng',
      isActive: true,
      newHolidayName: "New Year's Day",
      newHolidayDate: '2027-01-02',
      newHolidayDesc: 'moved',
    });
    expect(updated.json.response).toEqual({ holidayDate: '2027-01-02', holidayName: "New Year's Day", langCode: 'eng', locationCode: 'KTA' });

    expect((await send('DELETE', '/holidays', { holidayDate: '2027-01-02', holidayName: "New Year's Day", locationCode: 'KTA' })).json.response).toEqual({
      holidayDate: '2027-01-02',
      holidayName: "New Year's Day",
      locationCode: 'KTA',
    });
    const stored = await t.platform.deps.prisma.holiday.findFirst({ where: { id: row.id, langCode: 'eng' } });
    expect(stored).toMatchObject({ isDeleted: true, updatedBy: 'admin' });
    expect(stored?.deletedAt).toBeInstanceOf(Date);
    expect((await send('GET', `/holidays/${row.id}`)).json.response.holidays.map((h: any) => h.langCode)).toEqual(['fra']);
  });

  it('gives each documented code and changes nothing', async () => {
    await seed();
    await holiday('Labour Day', '2027-05-01');
    await expectRejected(t, () => holiday('Ghost', '2027-02-02', { locationCode: 'NOWHERE' }), 'KER-MSD-026');
    await expectRejected(t, () => holiday('Labour Day', '2027-05-01'), 'KER-MSD-065');
    await expectRejected(t, () => holiday('Bad date', '2027-02-30'), 'KER-MSD-065');
    await expectRejected(t, () => holiday('No year', '2027-02-03', { holidayYear: undefined }), 'KER-MSD-065');
    const change = {
      id: 999999,
      locationCode: 'KTA',
      holidayDate: '2027-05-01',
      holidayName: 'Labour Day',
      holidayDesc: 'x',
      langCode: 'eng',
      isActive: true,
      newHolidayName: 'May Day',
      newHolidayDate: '2027-05-01',
      newHolidayDesc: 'y',
    };
    await expectRejected(t, () => send('PUT', '/holidays', change), 'KER-MSD-020');
    await expectRejected(t, () => send('PUT', '/holidays', { ...change, newHolidayDate: 'soon' }), 'KER-MSD-099');
    await expectRejected(t, () => send('PUT', '/holidays', { ...change, newHolidayName: undefined }), 'KER-MSD-099');
    await expectRejected(t, () => send('DELETE', '/holidays', { holidayDate: '2027-05-09', holidayName: 'Labour Day', locationCode: 'KTA' }), 'KER-MSD-020');
    await expectRejected(t, () => send('DELETE', '/holidays', { holidayName: 'Labour Day', locationCode: 'KTA' }), 'KER-MSD-100');
    await expectRejected(t, () => send('GET', '/holidays/424242'), 'KER-MSD-020');
    await expectRejected(t, () => send('GET', '/holidays/all?pageSize=-1'), 'KER-MSD-316');
    await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_holiday RENAME TO md_holiday_away');
    try {
      expect((await send('GET', '/holidays')).json.errors[0].errorCode).toBe('KER-MSD-019');
    } finally {
      await t.platform.deps.prisma.$executeRawUnsafe('ALTER TABLE md_holiday_away RENAME TO md_holiday');
    }
  });

  it('lets one of two racing inserts of a holiday win, the other gets KER-MSD-065', async () => {
    await seed();
    const answers = await Promise.all([holiday('Race Day', '2027-07-07'), holiday('Race Day', '2027-07-07'), holiday('Race Day', '2027-07-07')]);
    const codes = answers.map((answer) => answer.json.errors?.[0]?.errorCode ?? 'ok').sort();
    expect(codes).toEqual(['KER-MSD-065', 'KER-MSD-065', 'ok']);
    expect(await t.platform.deps.prisma.holiday.count({ where: { holidayName: 'Race Day' } })).toBe(1);
  });

  it('lists holidays paged with Document 1 defaults', async () => {
    await seed();
    for (let day = 10; day < 22; day++) await holiday(`Paged ${day}`, `2028-03-${day}`);
    const page = (await send('GET', '/holidays/all')).json.response;
    expect(page).toMatchObject({ pageNo: 0 });
    expect(page.data).toHaveLength(10);
    expect(page.totalPages).toBe(Math.ceil(page.totalItems / 10));
    const created = page.data.map((row: any) => row.createdDateTime);
    expect([...created].sort().reverse()).toEqual(created);
    expect(page.data[0]).toMatchObject({ createdBy: 'admin', isDeleted: false, holidayId: page.data[0].id, name: page.data[0].holidayName });
    const second = (await send('GET', '/holidays/all?pageNumber=1&pageSize=5&sortBy=holidayDate&orderBy=asc')).json.response;
    expect(second.pageNo).toBe(1);
    const dates = second.data.map((row: any) => row.holidayDate);
    expect([...dates].sort()).toEqual(dates);
  });

  it('searches with contains, equals, startsWith and between, sorts and pages; filter values unique and all', async () => {
    await seed();
    for (const [name, date] of [
      ['Harvest Feast', '2029-09-01'],
      ['Harvest Moon', '2029-09-15'],
      ['Spring Feast', '2029-04-01'],
    ])
      await holiday(name!, date!);
    const search = async (filters: unknown[], sort?: unknown[], pagination?: unknown) =>
      (await send('POST', '/holidays/search', { filters, sort, pagination, languageCode: 'eng' })).json.response;
    const contains = await search([{ columnName: 'holidayName', type: 'contains', value: 'feast' }], [{ sortfield: 'holidayDate', sorttype: 'DESC' }]);
    expect(contains.holidays.map((h: any) => h.holidayName)).toEqual(['Harvest Feast', 'Spring Feast']);
    expect(contains).toMatchObject({ fromRecord: 0, toRecord: 2, totalRecord: 2 });
    expect((await search([{ columnName: 'holidayName', type: 'startsWith', value: 'Harvest' }])).totalRecord).toBe(2);
    expect((await search([{ columnName: 'holidayName', type: 'equals', value: 'harvest moon' }])).holidays.map((h: any) => h.holidayName)).toEqual([
      'Harvest Moon',
    ]);
    const between = await search(
      [{ columnName: 'holidayDate', type: 'between', fromValue: '2029-09-01', toValue: '2029-09-30' }],
      [{ sortfield: 'holidayName', sorttype: 'ASC' }],
    );
    expect(between.holidays.map((h: any) => h.holidayName)).toEqual(['Harvest Feast', 'Harvest Moon']);
    const paged = await search([{ columnName: 'isActive', type: 'equals', value: 'true' }], undefined, { pageStart: 1, pageFetch: 2 });
    expect(paged.holidays).toHaveLength(2);
    expect(paged).toMatchObject({ fromRecord: 2, toRecord: 4 });
    const byDefault = await search([]);
    expect(byDefault.holidays.length).toBeLessThanOrEqual(10);
    const modified = byDefault.holidays.map((h: any) => h.updatedDateTime ?? '');
    expect([...modified].sort()).toEqual(modified);

    await expectRejected(
      t,
      () => send('POST', '/holidays/search', { filters: [{ columnName: 'secret', type: 'equals', value: 'x' }], languageCode: 'eng' }),
      'KER-MSD-317',
    );
    await expectRejected(
      t,
      () => send('POST', '/holidays/search', { filters: [{ columnName: 'holidayDate', type: 'between', fromValue: '2029-01-01' }], languageCode: 'eng' }),
      'KER-MSD-317',
    );
    await expectRejected(t, () => send('POST', '/holidays/search', { sort: [{ sortfield: 'password' }], languageCode: 'eng' }), 'KER-MSD-313');
    await expectRejected(t, () => send('POST', '/holidays/search', { pagination: { pageStart: -1, pageFetch: 10 }, languageCode: 'eng' }), 'KER-MSD-316');

    const unique = (
      await send('POST', '/holidays/filtervalues', { filters: [{ columnName: 'holidayName', type: 'unique', text: 'harvest' }], languageCode: 'eng' })
    ).json.response;
    expect(unique.filters).toEqual([
      { fieldID: 'holidayName', fieldValue: 'Harvest Feast' },
      { fieldID: 'holidayName', fieldValue: 'Harvest Moon' },
    ]);
    const all = (await send('POST', '/holidays/filtervalues', { filters: [{ columnName: 'isActive', type: 'all' }], languageCode: 'eng' })).json.response;
    const distinct = (await send('POST', '/holidays/filtervalues', { filters: [{ columnName: 'isActive', type: 'unique' }], languageCode: 'eng' })).json
      .response;
    expect(all.filters.length).toBeGreaterThan(distinct.filters.length);
    expect(distinct.filters).toEqual([{ fieldID: 'isActive', fieldValue: 'true' }]);
    await expectRejected(t, () => send('POST', '/holidays/filtervalues', { filters: [{ columnName: 'holidayName', type: 'unique' }] }), 'KER-MSD-019');
  });

  it('shows holidays to the portal as a connection, with their location and creator', async () => {
    await seed();
    await holiday('Graph Day', '2030-01-05');
    const answer = await t.graphql(
      '{ holidays(first: 5, filter: {from: "2030-01-01", to: "2030-12-31", langCode: "eng"}) { totalCount edges { node { holidayName holidayDate location { name hierarchyName parent { code } } createdBy { userId roles } } } } }',
      {},
      bearer(await t.adminToken()),
    );
    expect(answer.data.holidays.totalCount).toBe(1);
    expect(answer.data.holidays.edges[0].node).toEqual({
      holidayName: 'Graph Day',
      holidayDate: '2030-01-05',
      location: { name: 'KTA eng', hierarchyName: 'City', parent: { code: 'KNT' } },
      createdBy: { userId: 'admin', roles: expect.arrayContaining(['GLOBAL_ADMIN']) },
    });
    const { token } = await t.clientToken(['REGISTRATION_OFFICER']);
    const refused = await t.graphql(
      'mutation { deleteHoliday(input: { holidayDate: "2030-01-05", holidayName: "Graph Day", locationCode: "KTA" }) { holidayKey { holidayName } userErrors { field code message } } }',
      {},
      bearer(token),
    );
    expect(refusalOf(refused)!.code).toBe('KER-ATH-403');
  });
});
