import { describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

const BASE = '/v1/masterdata/idschema';
let t: TestPlatform;
let auth: Record<string, string>;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  auth = adminCookie;
});

const FIELDS = [
  {
    id: 'fullName',
    type: 'simpleType',
    fieldCategory: 'kyc',
    required: true,
    label: { eng: 'Full name' },
    validators: [{ type: 'regex', validator: '^[A-Za-z ]{1,50}$' }],
  },
  {
    id: 'dateOfBirth',
    type: 'string',
    required: true,
    format: 'yyyy/MM/dd',
    validators: [{ type: 'regex', validator: '^\\d{4}/\\d{2}/\\d{2}$', arguments: [] }],
  },
  { id: 'email', type: 'string', required: false },
  { id: 'individualBiometrics', type: 'biometricsType', bioAttributes: ['face', 'leftEye'] },
];
const draft = (title = 'Sample schema', schema: unknown = FIELDS) => ({
  title,
  description: 'for tests',
  effectiveFrom: t.clock.now().toISOString(),
  schemaVersion: 1,
  schema,
});
const send = (method: string, path: string, body?: unknown) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers: auth });

describe('ID schema', () => {
  it('creates a draft, rewrites and publishes it; idVersion goes up; latest answers with it', async () => {
    const created = (await send('POST', '', draft())).json.response;
    expect(created).toMatchObject({ idVersion: 0, status: 'DRAFT', title: 'Sample schema', schemaVersion: 1, createdBy: 'admin', updatedBy: null });
    expect(created.schema[0]).toMatchObject(FIELDS[0]!);
    const json = JSON.parse(created.schemaJson);
    expect(json.properties.identity.required).toEqual(['IDSchemaVersion', 'fullName', 'dateOfBirth']);
    expect(json.properties.identity.properties.fullName.$ref).toBe('#/definitions/simpleType');

    const rewritten = (await send('PUT', `?id=${created.id}`, draft('Renamed'))).json.response;
    expect(rewritten).toMatchObject({ id: created.id, title: 'Renamed', updatedBy: 'admin', status: 'DRAFT' });

    const first = (await send('PUT', '/publish', { id: created.id, effectiveFrom: t.clock.now().toISOString() })).json.response;
    expect(first).toMatchObject({ status: 'PUBLISHED', idVersion: 1 });
    const second = (await send('POST', '', draft('Second'))).json.response;
    expect((await send('PUT', '/publish', { id: second.id, effectiveFrom: t.clock.now().toISOString() })).json.response.idVersion).toBe(2);

    expect((await send('GET', '/latest')).json.response).toMatchObject({ id: second.id, idVersion: 2 });
    expect((await send('GET', '/latest?schemaVersion=1')).json.response).toMatchObject({ id: created.id, idVersion: 1 });
    await expectRejected(t, () => send('GET', '/latest?schemaVersion=9'), 'KER-SCH-007');
  });

  it('changes and deletes only drafts (KER-SCH-006), and a deleted draft is gone (KER-SCH-007)', async () => {
    const published = (await send('POST', '', draft('Fixed'))).json.response;
    await send('PUT', '/publish', { id: published.id, effectiveFrom: t.clock.now().toISOString() });
    await expectRejected(t, () => send('PUT', `?id=${published.id}`, draft('Changed')), 'KER-SCH-006');
    await expectRejected(t, () => send('DELETE', `?id=${published.id}`), 'KER-SCH-006');
    await expectRejected(t, () => send('PUT', '/publish', { id: published.id, effectiveFrom: t.clock.now().toISOString() }), 'KER-SCH-006');
    const doomed = (await send('POST', '', draft('Doomed'))).json.response;
    expect((await send('DELETE', `?id=${doomed.id}`)).json.response).toBe(doomed.id);
    await expectRejected(t, () => send('PUT', `?id=${doomed.id}`, draft('Back')), 'KER-SCH-007');
    await expectRejected(t, () => send('PUT', '/publish', { id: 'no-such-id', effectiveFrom: t.clock.now().toISOString() }), 'KER-SCH-007');
  });

  it('validates the fields: types, required, validators (KER-SCH-005), and refuses writers without the role', async () => {
    await expectRejected(t, () => send('POST', '', draft('Bad', [{ id: 'x', type: 'blob' }])), 'KER-SCH-005');
    await expectRejected(
      t,
      () => send('POST', '', draft('Bad', [{ id: 'x', type: 'string', validators: [{ type: 'regex', validator: '([' }] }])),
      'KER-SCH-005',
    );
    await expectRejected(t, () => send('POST', '', draft('Bad', [{ id: 'bio', type: 'biometricsType' }])), 'KER-SCH-005');
    await expectRejected(t, () => send('POST', '', draft('Bad', [FIELDS[2], FIELDS[2]])), 'KER-SCH-005');
    await expectRejected(t, () => send('POST', '', draft('Bad', [])), 'KER-SCH-005');
    await expectRejected(t, () => send('POST', '', { ...draft(), title: undefined }), 'KER-SCH-005');
    await expectRejected(t, () => send('POST', '', { ...draft(), effectiveFrom: 'tomorrow' }), 'KER-SCH-005');
    const { token } = await t.clientToken(['REGISTRATION_OFFICER']);
    const refused = await t.graphql('mutation { deleteIdSchema(input: { id: "x" }) { result userErrors { field code message } } }', {}, bearer(token));
    expect(refusalOf(refused)!.code).toBe('KER-ATH-403');
  });

  it('lists schemas paged with the defaults, and as a connection', async () => {
    for (const title of ['P1', 'P2', 'P3']) await send('POST', '', draft(title));
    const page = (await send('GET', '/all?pageSize=2&sortBy=title&orderBy=asc')).json.response;
    expect(page.pageNo).toBe(0);
    expect(page.data).toHaveLength(2);
    expect(page.totalItems).toBeGreaterThanOrEqual(3);
    expect(page.totalPages).toBe(Math.ceil(page.totalItems / 2));
    const titles = page.data.map((row: any) => row.title);
    expect([...titles].sort()).toEqual(titles);
    const byDefault = (await send('GET', '/all')).json.response;
    expect(byDefault.data.length).toBeLessThanOrEqual(10);
    const created = byDefault.data.map((row: any) => row.createdOn);
    expect([...created].sort().reverse()).toEqual(created);
    await expectRejected(t, () => send('GET', '/all?sortBy=nonsense'), 'KER-MSD-313');
    const graph = await t.graphql(
      '{ idSchemas(first: 2, filter: {status: DRAFT}) { totalCount edges { node { title status createdBy { userId } } } } }',
      {},
      bearer(await t.adminToken()),
    );
    expect(graph.data.idSchemas.edges).toHaveLength(2);
    expect(graph.data.idSchemas.edges[0].node).toMatchObject({ status: 'DRAFT', createdBy: { userId: 'admin' } });
  });

  it('validates identities against the published schema (the service the ID repository calls)', async () => {
    const row = (await send('POST', '', draft('Validator'))).json.response;
    await send('PUT', '/publish', { id: row.id, effectiveFrom: t.clock.now().toISOString() });
    const service = t.platform.deps.services.idSchemas;
    const good = await service.validateIdentity({ fullName: [{ language: 'eng', value: 'Ada Lovelace' }], dateOfBirth: '1815/12/10' });
    expect(good.problems).toEqual([]);
    const bad = await service.validateIdentity({ fullName: [{ language: 'eng', value: 'R2-D2!' }], nickname: 'x' });
    expect(bad.problems.map((p) => p.field).sort()).toEqual(['dateOfBirth', 'fullName', 'nickname']);
    expect(bad.problems.find((p) => p.field === 'dateOfBirth')?.missing).toBe(true);
  });
});
