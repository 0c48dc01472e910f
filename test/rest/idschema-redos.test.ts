// Issue 19: an ID schema validator must not stall the platform, and a deeply nested identity is invalid input, not an internal error.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { identityOf, idrepoCalls, newRid } from '../support/identities.js';
import { cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

const { create, newUin } = idrepoCalls(() => t);
let processor: Record<string, string>;
beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
});

const CATASTROPHIC = ['^([0-9a-z]+)+$', '(a|a)*$', '(a*)*b'];
/** What the attacker sends: 30 letters then a character the pattern cannot match (6 s per identity before the fix, doubling per letter). */
const HOSTILE_POSTAL_CODE = `${'a'.repeat(30)}!`;

const schemaWith = (validator: string) => [
  { id: 'fullName', type: 'simpleType', required: true },
  { id: 'postalCode', type: 'string', validators: [{ type: 'regex', validator, arguments: [] }] },
];
const draft = (schema: unknown) => ({ title: 'Hostile', description: 'issue 19', effectiveFrom: t.clock.now().toISOString(), schemaVersion: 1, schema });
const send = (method: string, path: string, body?: unknown) =>
  t.request(method, `/v1/masterdata/idschema${path}`, { body: body === undefined ? undefined : envelopeOf(body), headers: admin });

/** A row as it was stored before the gate existed: written straight through Prisma, skipping every check. */
async function storedBeforeTheGate(status: 'DRAFT' | 'PUBLISHED', fields: unknown, idVersion = 0) {
  const now = t.clock.now();
  return t.platform.deps.prisma.idSchema.create({
    data: {
      title: 'Stored before the fix',
      description: 'issue 19',
      schemaVersion: 1,
      schema: fields as object,
      schemaJson: '{}',
      effectiveFrom: now,
      status,
      idVersion,
      createdBy: 'admin',
      createdAt: now,
      changedAt: now,
    },
  });
}

describe('ID schema validators that backtrack catastrophically', () => {
  it.each(CATASTROPHIC)('refuses %s when a draft is created (KER-SCH-005) or rewritten (KER-SCH-006)', async (pattern) => {
    await expectRejected(t, () => send('POST', '', draft(schemaWith(pattern))), 'KER-SCH-005', /schema\.1\.validators\.0\.validator: .*bounded time/);
    const safe = (await send('POST', '', draft(schemaWith('^[0-9a-z]{5}$')))).json.response;
    await expectRejected(t, () => send('PUT', `?id=${safe.id}`, draft(schemaWith(pattern))), 'KER-SCH-006', /bounded time/);
  });

  it.each(CATASTROPHIC)('refuses to publish a draft stored before the check that holds %s (KER-SCH-006)', async (pattern) => {
    const row = await storedBeforeTheGate('DRAFT', schemaWith(pattern));
    await expectRejected(t, () => send('PUT', '/publish', { id: row.id, effectiveFrom: t.clock.now().toISOString() }), 'KER-SCH-006', /bounded time/);
    expect((await t.platform.deps.prisma.idSchema.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('DRAFT');
  });

  it('does not run the pattern of a superseded version stored before the fix: the identity is refused (IDR-IDS-005), /health answers meanwhile', async () => {
    const sample = await t.platform.deps.prisma.idSchema.findFirstOrThrow({ where: { status: 'PUBLISHED', idVersion: 1 } });
    const fields = (sample.schema as { id: string; validators?: unknown[] }[]).map((field) =>
      field.id === 'postalCode' ? { ...field, validators: [{ type: 'regex', validator: '^([0-9a-z]+)+$', arguments: [] }] } : field,
    );
    const latest = await t.platform.deps.prisma.idSchema.aggregate({ where: { status: 'PUBLISHED' }, _max: { idVersion: true } });
    const old = await storedBeforeTheGate('PUBLISHED', fields, (latest._max.idVersion ?? 1) + 1);
    // A later, safe version supersedes it; identities may still name the old one.
    const next = (await send('POST', '', draft(sample.schema))).json.response;
    expect((await send('PUT', '/publish', { id: next.id, effectiveFrom: t.clock.now().toISOString() })).json.response.idVersion).toBe(old.idVersion + 1);

    const before = await t.snapshot();
    const hostile = create(processor, newUin(), newRid(), { IDSchemaVersion: old.idVersion, postalCode: HOSTILE_POSTAL_CODE });
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    const { json } = await hostile;
    expect(json.response).toBeNull();
    expect(json.errors[0].errorCode).toBe('IDR-IDS-005');
    expect(json.errors[0].message).toMatch(/postalCode cannot be checked: the ID schema's validator \^\(\[0-9a-z\]\+\)\+\$ is refused/);
    expect(await t.snapshot()).toEqual(before);

    // The validator fails closed: an innocent value is refused too, until an identity names a corrected version.
    await expectRejected(t, () => create(processor, newUin(), newRid(), { IDSchemaVersion: old.idVersion }), 'IDR-IDS-005', /postalCode cannot be checked/);
    const fine = await create(processor, newUin(), newRid(), { IDSchemaVersion: old.idVersion + 1 });
    expect(fine.json.errors, JSON.stringify(fine.json.errors)).toBeOneOf([null, []]);
  });

  it('refuses a value longer than the validators run on, before any pattern sees it (IDR-IDS-005)', async () => {
    await expectRejected(t, () => create(processor, newUin(), newRid(), { postalCode: '1'.repeat(5000) }), 'IDR-IDS-005', /postalCode is longer than 1024/);
  });
});

describe('an identity nested 5,000 deep', () => {
  it('is invalid input (IDR-IDC-002), answered at the edge; /health answers meanwhile', async () => {
    const depth = 5000;
    const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const identity = JSON.stringify(identityOf(newUin())).replace(/}$/, `,"nested":${nested}}`);
    const body = `{"id":"platform.id.create","version":"v1","requesttime":"${t.clock.now().toISOString()}","request":{"registrationId":"${newRid()}","identity":${identity}}}`;
    const before = await t.snapshot();
    const refused = t.request('POST', '/idrepository/v1/identity/', { raw: body, headers: { ...processor, 'content-type': 'application/json' } });
    expect((await t.request('GET', '/health')).status).toBe(200);
    const { status, json } = await refused;
    expect(status).toBe(200);
    expect(json.response).toBeNull();
    expect(json.errors).toEqual([{ errorCode: 'IDR-IDC-002', message: 'request body nests deeper than 64 levels' }]);
    expect(await t.snapshot()).toEqual(before);
  });

  it('is refused through GraphQL too (BAD_USER_INPUT), before anything runs', async () => {
    const depth = 5000;
    const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const identity = JSON.stringify(identityOf(newUin())).replace(/}$/, `,"nested":${nested}}`);
    const query =
      'mutation($rid: ID!, $identity: JSON!) { createIdentity(input: { registrationId: $rid, identity: $identity }) { identityStored { status } userErrors { field code message } } }';
    const raw = `{"query":${JSON.stringify(query)},"variables":{"rid":"${newRid()}","identity":${identity}}}`;
    const before = await t.snapshot();
    const { json } = await t.request('POST', '/graphql', { raw, headers: { ...processor, 'content-type': 'application/json' } });
    expect(refusalCode(json)).toBe('BAD_USER_INPUT');
    expect(json.errors?.[0]?.message).toBe('Refused: variables nest deeper than 64 levels');
    expect(await t.snapshot()).toEqual(before);
  });

  it('still accepts an ordinary identity with a few levels of nesting', async () => {
    const created = await create(processor, newUin(), newRid());
    expect(created.json.errors, JSON.stringify(created.json.errors)).toBeOneOf([null, []]);
  });
});
