// Issue 19, attacked as a stranger would: another resident, a partner, a client
// token, parallel requests, aliases and fragments, a subgraph reached directly.
// A user's roles, lock state and application ids are for admins only; ID
// authentication marks VIDs USED and nothing else; every look-up of an identity
// is in its read trail; the outbox names no one to anyone but an admin.
import { graphql as execute } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { expectError } from '../support/assertions.js';
import { idrepoCalls, newRid } from '../support/identities.js';
import { lastMessage } from '../support/outbox.js';
import { bearer, cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { residentEmail, residentLogin } from '../support/residents.js';
import { type Login, userLogin } from '../support/users.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const identity = idrepoCalls(() => t);
const tokenOf = (credentials: Credentials) => (credentials.cookie ?? credentials.authorization ?? '').replace(/^Authorization=Platform-Token|^Bearer /, '');

let processor: Credentials;
let ida: Credentials;
let admin: Login;
let partner: Login;
let partnerAdmin: Login;
/** a resident, signed in, with its UIN and e-mail */
let resident: { login: Login; uin: string; email: string };
/** another resident */
let other: { login: Login; uin: string; email: string };

async function newResident(): Promise<{ login: Login; uin: string; email: string }> {
  const email = residentEmail();
  const uin = identity.newUin();
  await identity.ok(identity.create(processor, uin, newRid(), { email }));
  return { login: await residentLogin(t, uin, email), uin, email };
}

beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
  admin = await userLogin(t, 'scope-admin', ['GLOBAL_ADMIN'], 'admin');
  partner = await userLogin(t, 'scope-partner', ['PARTNER'], 'partnermanagement');
  partnerAdmin = await userLogin(t, 'scope-partner-admin', ['PARTNER_ADMIN', 'ZONAL_ADMIN'], 'partnermanagement');
  resident = await newResident();
  other = await newResident();
  // The published schema's author: a real user, whose roles and application ids a stranger must not learn.
  await userLogin(t, 'schema-author', ['MASTERDATA_ADMIN', 'GLOBAL_ADMIN'], 'admin');
  await t.platform.deps.prisma.idSchema.updateMany({ where: { status: 'PUBLISHED' }, data: { createdBy: 'schema-author' } });
  // Many logins: more than the default hook time on a loaded machine.
}, 180_000);

const { vidCall, ok } = identity;
const newVid = async (uin: string, vidType = 'Temporary'): Promise<string> => {
  t.clock.advance(1000);
  return (await ok(vidCall(processor, 'POST', '', { vidType, UIN: uin }))).VID;
};
const vidState = async (vid: string) => {
  const row = await t.platform.deps.prisma.vid.findUniqueOrThrow({ where: { vidHash: t.platform.deps.services.idrepoCipher.lookup(vid) } });
  return { status: row.status, updatedBy: row.updatedBy };
};

describe("a record's creator (User entities resolved by auth)", () => {
  const ADMIN_ONLY = ['langCode', 'roles', 'appIds', 'isLocked', 'hasPassword', 'createdAt', 'updatedAt'];
  const CREATOR = `{ latestIdSchema { createdBy { userId name ${ADMIN_ONLY.join(' ')} } } }`;

  it('shows a partner, a resident, a client token and a non-global admin only who created it (id and name); each other field null with KER-ATH-403 at its path', async () => {
    const asAdmin = await t.graphql(CREATOR, {}, admin.bearer);
    expect(asAdmin.errors).toBeUndefined();
    const creator = asAdmin.data.latestIdSchema.createdBy;
    expect(creator).toMatchObject({
      userId: 'schema-author',
      name: 'schema-author',
      roles: ['MASTERDATA_ADMIN', 'GLOBAL_ADMIN'],
      isLocked: false,
      appIds: ['admin'],
    });
    for (const field of ADMIN_ONLY) expect(creator[field], field).not.toBeNull();

    for (const [who, headers] of [
      ['partner', partner.bearer],
      ['resident', resident.login.cookie],
      ['ID authentication client', ida],
      ['partner and zonal admin', partnerAdmin.bearer],
    ] as const) {
      const seen = await t.graphql(CREATOR, {}, headers);
      expect(seen.data.latestIdSchema.createdBy, who).toEqual({
        userId: creator.userId,
        name: creator.name,
        ...Object.fromEntries(ADMIN_ONLY.map((field) => [field, null])),
      });
      expect(seen.errors.map((e: any) => [e.extensions.code, e.path.join('.')]).sort(), who).toEqual(
        ADMIN_ONLY.map((field) => ['KER-ATH-403', `latestIdSchema.createdBy.${field}`]).sort(),
      );
    }
  });

  it('gives nothing more through aliases, fragments or the auth subgraph reached directly (users and clients alike)', async () => {
    const tricks = await t.graphql(
      '{ latestIdSchema { createdBy { userId a: roles b: isLocked ... on User { appIds } ...F } } } fragment F on User { mail roles }',
      {},
      partner.bearer,
    );
    expect(tricks.data.latestIdSchema.createdBy).toEqual({ userId: 'schema-author', a: null, b: null, appIds: null, mail: null, roles: null });
    expect(new Set(tricks.errors.map((e: any) => e.extensions.code))).toEqual(new Set(['KER-ATH-403']));

    const schema = await t.platform.buildSubgraph(COMPONENTS.find((c) => c.name === 'auth')!);
    const direct = (token: string) =>
      execute({
        schema,
        source:
          'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { userId roles isLocked appIds } ... on Client { clientId roles appIds isActive } } }',
        variableValues: {
          r: [
            { __typename: 'User', userId: 'admin' },
            { __typename: 'Client', clientId: 'admin-client' },
          ],
        },
        contextValue: createRequestContext({ headers: { authorization: `Bearer ${token}` }, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
    for (const token of [partner.token, resident.login.token, tokenOf(ida)]) {
      const answer = await direct(token);
      expect(answer.data?._entities).toEqual([
        { userId: 'admin', roles: null, isLocked: null, appIds: null },
        { clientId: 'admin-client', roles: null, appIds: null, isActive: null },
      ]);
      expect(new Set(answer.errors?.map((e) => e.extensions?.code))).toEqual(new Set(['KER-ATH-403']));
    }
    const asAdmin = await direct(admin.token);
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data?._entities).toEqual([
      { userId: 'admin', roles: expect.arrayContaining(['GLOBAL_ADMIN']), isLocked: false, appIds: expect.any(Array) },
      { clientId: 'admin-client', roles: expect.arrayContaining(['GLOBAL_ADMIN']), appIds: expect.any(Array), isActive: true },
    ]);
  });
});

describe('VID status changes by caller', () => {
  it('refuses every REVOKED of parallel ID authentication calls, however they are sent, and lets one USED through', async () => {
    const vid = await newVid(resident.uin);
    const idaBearer = bearer(tokenOf(ida));
    const revokes = Array.from({ length: 5 }, () => vidCall(ida, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' }));
    const graphRevoke = t.graphql(
      'mutation($v: String!) { a: updateVidStatus(input: { vid: $v, vidStatus: REVOKED }) { vidStatusChange { vidStatus } userErrors { field code message } } b: updateVidStatus(input: { vid: $v, vidStatus: DEACTIVATED }) { vidStatusChange { vidStatus } userErrors { field code message } } }',
      { v: vid },
      idaBearer,
    );
    const used = vidCall(ida, 'PATCH', `/${vid}`, { vidStatus: 'USED' });
    const [answers, graph, usedAnswer] = await Promise.all([Promise.all(revokes), graphRevoke, used]);
    for (const { json } of answers) expectError(json, 'IDR-IDC-002', /vidStatus/);
    expect(graph.errors).toBeUndefined();
    for (const payload of [graph.data.a, graph.data.b]) {
      expect(payload.vidStatusChange).toBeNull();
      expect(payload.userErrors.map((e: any) => e.code)).toEqual(['IDR-IDC-002']);
    }
    expect(usedAnswer.json.response).toMatchObject({ vidStatus: 'USED' });
    expect(await vidState(vid)).toMatchObject({ status: 'USED' });
  });

  it('holds ID authentication to USED whatever other role its token carries, unless it is the repository operators or the processor', async () => {
    const vid = await newVid(resident.uin);
    for (const roles of [
      ['ID_AUTHENTICATION', 'GLOBAL_ADMIN'],
      ['ID_AUTHENTICATION', 'RESIDENT'],
      ['ID_AUTHENTICATION', 'PARTNER_ADMIN'],
    ]) {
      const token = cookieHeader((await t.clientToken(roles, 'ida')).token);
      expectError((await vidCall(token, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' })).json, 'IDR-IDC-002', /vidStatus/);
    }
    expect(await vidState(vid)).toEqual({ status: 'ACTIVE', updatedBy: null });
    const operator = cookieHeader((await t.clientToken(['ID_AUTHENTICATION', 'ID_REPOSITORY'], 'ida')).token);
    expect(await ok(vidCall(operator, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' }))).toMatchObject({ vidStatus: 'REVOKED' });
  });

  it("keeps another resident, a partner and a resident's own USED away from a resident's VID", async () => {
    const vid = await newVid(resident.uin);
    expectError((await vidCall(other.login.cookie, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' })).json, 'IDR-IDC-011');
    expectError((await vidCall(resident.login.cookie, 'PATCH', `/${vid}`, { vidStatus: 'USED' })).json, 'IDR-IDC-011');
    expectError((await vidCall(partner.cookie, 'PATCH', `/${vid}`, { vidStatus: 'USED' })).json, 'KER-ATH-403');
    expect(await vidState(vid)).toEqual({ status: 'ACTIVE', updatedBy: null });
    // The resident keeps its own revoke.
    expect(await ok(vidCall(resident.login.cookie, 'PATCH', `/${vid}`, { vidStatus: 'REVOKED' }))).toMatchObject({ vidStatus: 'REVOKED' });
  });
});

describe('the read trail', () => {
  it('records each of many parallel VID resolutions by ID authentication, and none a caller outside the role could make', async () => {
    const uin = identity.newUin();
    await identity.ok(identity.create(processor, uin));
    const prisma = t.platform.deps.prisma;
    const { id } = await prisma.identity.findUniqueOrThrow({ where: { uinHash: t.platform.deps.services.idrepoCipher.lookup(uin) } });
    const vids = [await newVid(uin), await newVid(uin), await newVid(uin)];
    const idaBearer = bearer(tokenOf(ida));
    const calls = vids.flatMap((vid) => [
      vidCall(ida, 'GET', `/${vid}`).then(({ json }) => json.response?.UIN),
      t.graphql('query($v: String!) { uinByVid(vid: $v) }', { v: vid }, idaBearer).then((answer) => answer.data?.uinByVid),
    ]);
    expect(await Promise.all(calls)).toEqual(Array(6).fill(uin));
    const reads = await prisma.identityReadAudit.findMany({ where: { identityId: id } });
    expect(reads).toHaveLength(6);
    for (const read of reads) expect(read).toMatchObject({ roles: ['ID_AUTHENTICATION'], parts: ['uin'], lookup: 'VID' });

    for (const headers of [resident.login.cookie, partner.cookie, admin.cookie]) {
      expectError((await vidCall(headers, 'GET', `/${vids[0]}`)).json, 'KER-ATH-403');
      const looked = await t.graphql('query($u: String) { identity(uin: $u) { id reads { totalCount } } }', { u: uin }, headers);
      if (headers === admin.cookie) expect(looked.data.identity.reads.totalCount).toBe(7);
      else expect(refusalOf(looked)!.code).toBe('KER-ATH-403');
    }
    // Only the admin's look-up was added.
    expect(await prisma.identityReadAudit.count({ where: { identityId: id } })).toBe(7);
  });
});

describe('the outbox', () => {
  it('is read by admins only, by whole address: a resident, a partner or a client token reach no one', async () => {
    const outbox = 'query($to: String) { outbox(to: $to) { to body } }';
    for (const headers of [resident.login.cookie, partner.bearer, ida, partnerAdmin.bearer]) {
      for (const [query, variables] of [
        [outbox, { to: resident.email }],
        ['query($to: String) { notifications(first: 5, filter: {to: $to}) { totalCount } }', { to: resident.email }],
      ] as const) {
        const answer = await t.graphql(query, variables, headers);
        expect(answer.data).toBeNull();
        expect(refusalOf(answer)!.code).toBe('KER-ATH-403');
      }
    }
    // The admin finds the resident's OTP by the whole address, in any case, and nothing by a part of it.
    expect((await lastMessage(t, resident.email.toUpperCase())).to).toBe(resident.email);
    const [local, domain] = resident.email.split('@') as [string, string];
    for (const part of [local, `@${domain}`, domain, resident.email.slice(0, -1)]) {
      expect((await t.graphql(outbox, { to: part }, admin.bearer)).data.outbox, part).toEqual([]);
    }
  });
});
