// The portal graph: entities resolvable by their keys, Relay connections with
// filters, batched references (a page costs one query per subgraph), and access
// rules on entity fields whichever path reaches them.
import { graphql as execute } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { COMPONENTS } from '../../gateway/components.js';
import { cookieHeader, envelopeOf, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';
import { refusalOf, refusalCode } from '../support/refusals.js';

const queries: string[] = [];
let counting = false;
let db: TestDatabase;
let t: TestPlatform;
let admin: Record<string, string>;
let adminToken: string;

beforeAll(async () => {
  db = await freshDatabase({
    onQuery: (sql) => {
      if (counting) queries.push(sql);
    },
  });
  t = await startTestPlatform({}, { database: db.database });
  adminToken = await t.adminToken();
  admin = cookieHeader(adminToken);
  const prisma = t.platform.deps.prisma;
  await prisma.user.createMany({
    data: Array.from({ length: 60 }, (_, i) => ({
      userId: `portal-${String(i).padStart(2, '0')}`,
      name: `Portal ${i}`,
      mail: `p${i}@example.org`,
      roles: [i % 2 ? 'RESIDENT' : 'REGISTRATION_OFFICER'],
      appIds: ['resident'],
    })),
  });
  await prisma.licenseKey.createMany({
    data: Array.from({ length: 12 }, (_, i) => ({
      keyHash: `hash-${i}`,
      keyHint: `h${i}`,
      mispId: 'misp-portal',
      expiresAt: new Date(Date.now() + 86_400_000),
      status: 'ACTIVE',
      permissions: [],
      createdBy: `portal-${String(i % 4).padStart(2, '0')}`,
    })),
  });
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** The SQL statements one GraphQL request sends, by the table they read. */
async function queriesOf(query: string, headers = admin) {
  queries.length = 0;
  counting = true;
  const result = await t.graphql(query, {}, headers);
  counting = false;
  const on = (table: string) => queries.filter((sql) => sql.includes(`"${table}"`)).length;
  return { result, on };
}

describe('lists are Relay connections', () => {
  it('pages users with first/after, without overlap, and counts them', async () => {
    const page = async (after?: string) =>
      (
        await t.graphql(
          'query($after: String) { users(first: 25, after: $after, orderBy: {field: USER_ID, direction: ASC}) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { userId } } } }',
          { after },
          admin,
        )
      ).data.users;
    const first = await page();
    expect(first.edges).toHaveLength(25);
    expect(first.totalCount).toBe(61);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await page(first.pageInfo.endCursor);
    const third = await page(second.pageInfo.endCursor);
    expect(third.edges).toHaveLength(11);
    expect(third.pageInfo.hasNextPage).toBe(false);
    const ids = [...first.edges, ...second.edges, ...third.edges].map((e: any) => e.node.userId);
    expect(new Set(ids).size).toBe(61);
    expect(ids).toEqual([...ids].sort());
  });

  it('filters with typed inputs, orders both ways, and refuses more than 100 a page', async () => {
    const residents = await t.graphql('{ users(first: 100, filter: {role: RESIDENT, userId: "portal"}) { totalCount edges { node { roles } } } }', {}, admin);
    expect(residents.data.users.totalCount).toBe(30);
    expect(residents.data.users.edges.every((e: any) => e.node.roles.includes('RESIDENT'))).toBe(true);
    const newest = await t.graphql('{ users(first: 2, orderBy: {field: CREATED_AT, direction: DESC}) { edges { node { createdAt } } } }', {}, admin);
    const [a, b] = newest.data.users.edges.map((e: any) => Date.parse(e.node.createdAt));
    expect(a).toBeGreaterThanOrEqual(b);
    expect((await t.graphql('{ users(first: 101) { totalCount } }', {}, admin)).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await t.graphql('{ users(first: 5, after: "not-a-cursor!") { totalCount } }', {}, admin)).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a forged cursor of a composite key as the caller mistake it is, not as a failure', async () => {
    for (const code of ['portal-a', 'portal-b']) {
      await t.graphql(
        `mutation { saveNotificationTemplate(input: { code: "${code}", langCode: "eng", channel: EMAIL, body: "x" }) { notificationTemplate { code } userErrors { field code message } } }`,
        {},
        admin,
      );
    }
    const query = 'query($after: String) { notificationTemplates(first: 2, after: $after) { edges { cursor } } }';
    const page = await t.graphql(query, {}, admin);
    const real = page.data.notificationTemplates.edges[0].cursor;
    expect((await t.graphql(query, { after: real }, admin)).errors).toBeUndefined();
    for (const forged of ['not json', '["only one part"]', '[1, 2, 3]']) {
      const answer = await t.graphql(query, { after: Buffer.from(forged, 'utf8').toString('base64url') }, admin);
      expect(refusalOf(answer)!.code, forged).toBe('BAD_USER_INPUT');
    }
  });
});

describe('references are batched', () => {
  it('costs one query per subgraph for a page of 50 users with a field from another subgraph', async () => {
    const { result, on } = await queriesOf('{ users(first: 50, filter: {userId: "portal"}) { edges { node { userId name licenseKeysIssued } } } }');
    expect(result.errors).toBeUndefined();
    const nodes = result.data.users.edges.map((e: any) => e.node);
    expect(nodes).toHaveLength(50);
    expect(nodes.find((n: any) => n.userId === 'portal-01').licenseKeysIssued).toBe(3);
    expect(nodes.find((n: any) => n.userId === 'portal-30').licenseKeysIssued).toBe(0);
    expect(on('auth_user')).toBe(1);
    expect(on('license_key')).toBe(1);
  });

  it('resolves the creators of a page of license keys with one query to the auth subgraph', async () => {
    const { result, on } = await queriesOf(
      '{ licenseKeys(first: 12, filter: {MISPId: "misp-portal"}) { edges { node { keyHint createdBy { userId name } } } } }',
    );
    expect(result.data.licenseKeys.edges.map((e: any) => e.node.createdBy.name)).toContain('Portal 3');
    expect(on('license_key')).toBe(1);
    expect(on('auth_user')).toBe(1);
  });
});

describe('absence', () => {
  it('answers null for a record that does not exist, and the other root fields of the query stand', async () => {
    const { data, errors } = await t.graphql(
      `{
        registrationCentre(id: "99999", langCode: "eng") { id }
        machine(id: "99999", langCode: "eng") { id }
        device(id: "99999", langCode: "eng") { id }
        misp(mispId: "no-such-misp") { id }
        policy(policyId: "no-such-policy") { id }
        user(userId: "no-such-user") { userId }
        validateToken { userId }
      }`,
      {},
      admin,
    );
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      registrationCentre: null,
      machine: null,
      device: null,
      misp: null,
      policy: null,
      user: null,
      validateToken: { userId: 'admin' },
    });
  });
});

describe('entities', () => {
  it('each resolves by its key through _entities', async () => {
    const prisma = t.platform.deps.prisma;
    await t.request('POST', '/v1/smsnotifier/sms/send', { body: envelopeOf({ number: '9876543210', message: 'entity' }), headers: admin });
    await t.graphql(
      'mutation { saveNotificationTemplate(input: { code: "entity-test", langCode: "eng", channel: SMS, body: "x" }) { notificationTemplate { code } userErrors { field code message } } }',
      {},
      admin,
    );
    await t.request('GET', '/v1/keymanager/getCertificate?applicationId=IDA', { headers: admin });
    await t.request('POST', '/v1/syncdata/tpm/publickey', {
      body: envelopeOf({
        machineName: 'entity-machine',
        publicKey: (await import('node:crypto'))
          .generateKeyPairSync('rsa', { modulusLength: 2048 })
          .publicKey.export({ type: 'spki', format: 'der' })
          .toString('base64'),
      }),
      headers: admin,
    });
    const key = await prisma.keyStoreEntry.findFirstOrThrow({ where: { applicationId: 'IDA' } });
    const cases: Record<string, [string, Record<string, unknown>, string]> = {
      auth: ['User', { userId: 'portal-07' }, '... on User { userId name } ... on Client { clientId } ... on Session { id subject }'],
      license: ['LicenseKey', { id: (await prisma.licenseKey.findFirstOrThrow()).id }, '... on LicenseKey { id keyHint }'],
      notify: [
        'Notification',
        { id: (await prisma.notification.findFirstOrThrow()).id },
        '... on Notification { id channel } ... on NotificationTemplate { code body }',
      ],
      keys: [
        'Key',
        { id: key.id },
        '... on Key { id applicationId certificate { thumbprint } } ... on Certificate { thumbprint subject } ... on MachineKey { machineName keyIndex }',
      ],
    };
    const representations: Record<string, Record<string, unknown>[]> = {
      auth: [
        { __typename: 'User', userId: 'portal-07' },
        { __typename: 'Client', clientId: 'admin-client' },
        { __typename: 'Session', id: (await prisma.session.findFirstOrThrow()).id },
      ],
      license: [{ __typename: 'LicenseKey', ...cases.license![1] }],
      notify: [
        { __typename: 'Notification', ...cases.notify![1] },
        { __typename: 'NotificationTemplate', code: 'entity-test', langCode: 'eng', channel: 'SMS' },
      ],
      keys: [
        { __typename: 'Key', id: key.id },
        { __typename: 'Certificate', thumbprint: key.thumbprint },
        { __typename: 'MachineKey', machineName: 'entity-machine' },
      ],
    };
    for (const [name, reps] of Object.entries(representations)) {
      const component = COMPONENTS.find((c) => c.name === name)!;
      const schema = await t.platform.buildSubgraph(component);
      const contextValue = createRequestContext({ headers: { cookie: admin.cookie }, clientAddress: '127.0.0.1' }, t.platform.deps.tokens);
      const result = await execute({
        schema,
        source: `query($r: [_Any!]!) { _entities(representations: $r) { __typename ${cases[name]![2]} } }`,
        variableValues: { r: reps },
        contextValue,
      });
      expect(result.errors, name).toBeUndefined();
      const entities = result.data!._entities as Record<string, unknown>[];
      expect(
        entities.map((e) => e.__typename),
        name,
      ).toEqual(reps.map((r) => r.__typename));
      expect(
        entities.every((e) => Object.keys(e).length > 1),
        name,
      ).toBe(true);
    }
  });

  it('refuses _entities without a token, even on a subgraph reached directly', async () => {
    const schema = await t.platform.buildSubgraph(COMPONENTS.find((c) => c.name === 'auth')!);
    const contextValue = createRequestContext({ headers: {}, clientAddress: '127.0.0.1' }, t.platform.deps.tokens);
    const result = await execute({
      schema,
      source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { userId } } }',
      variableValues: { r: [{ __typename: 'User', userId: 'admin' }] },
      contextValue,
    });
    expect(refusalCode(result)).toBe('KER-ATH-006');
  });
});

describe('access on entity fields', () => {
  it("shows a license admin who created a key, never that user's contact details, roles, lock state or application ids, whichever path reaches them", async () => {
    const partnerAdmin = cookieHeader((await t.clientToken(['PARTNER_ADMIN'], 'partnermanagement')).token);
    const names = await t.graphql(
      '{ licenseKeys(first: 1, filter: {MISPId: "misp-portal"}) { edges { node { createdBy { userId name } } } } }',
      {},
      partnerAdmin,
    );
    expect(names.errors).toBeUndefined();
    expect(names.data.licenseKeys.edges[0].node.createdBy.userId).toMatch(/^portal-/);
    for (const field of ['mail', 'mobile', 'sessions { totalCount }', 'roles', 'isLocked', 'appIds', 'langCode', 'createdAt']) {
      const contacts = await t.graphql(
        `{ licenseKeys(first: 1, filter: {MISPId: "misp-portal"}) { edges { node { createdBy { userId ${field} } } } } }`,
        {},
        partnerAdmin,
      );
      expect(
        contacts.errors.map((e: any) => [e.extensions.code, e.path.at(-1)]),
        field,
      ).toEqual([['KER-ATH-403', field.split(' ')[0]]]);
      // The refusal nulls the field only: the creator is still named.
      expect(contacts.data.licenseKeys.edges[0].node.createdBy, field).toEqual({ userId: expect.stringMatching(/^portal-/), [field.split(' ')[0]!]: null });
      expect(JSON.stringify(contacts.data)).not.toContain('@example.org');
    }
    // the admin sees them
    const asAdmin = await t.graphql(
      '{ licenseKeys(first: 1, filter: {MISPId: "misp-portal"}) { edges { node { createdBy { mail roles isLocked appIds } } } } }',
      {},
      admin,
    );
    expect(asAdmin.data.licenseKeys.edges[0].node.createdBy).toMatchObject({
      mail: expect.stringMatching(/@example\.org$/),
      roles: [expect.any(String)],
      isLocked: false,
      appIds: ['resident'],
    });
  });
});

describe('sessions', () => {
  it('lists a login with its address and status, and revokeSession ends it at once', async () => {
    await t.graphql(
      'mutation { resetPassword(input: { userId: "portal-05", password: "Portal-password-5" }) { user { userId } userErrors { field code message } } }',
      {},
      admin,
    );
    const login = await t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
      body: envelopeOf({ userName: 'portal-05', password: 'Portal-password-5', appId: 'resident' }),
    });
    const token = login.json.response.token as string;
    const listed = await t.graphql(
      '{ user(userId: "portal-05") { sessions(first: 5, filter: {status: ACTIVE}) { totalCount edges { node { id appId clientAddress status subjectType user { userId } } } } } }',
      {},
      admin,
    );
    const session = listed.data.user.sessions.edges[0].node;
    expect(listed.data.user.sessions.totalCount).toBe(1);
    expect(session).toMatchObject({ appId: 'resident', status: 'ACTIVE', subjectType: 'USER', user: { userId: 'portal-05' } });
    expect(session.clientAddress).toMatch(/127\.0\.0\.1/);
    const revoked = await t.graphql(
      'mutation($id: ID!) { revokeSession(input: { id: $id }) { session { status revokedAt } userErrors { field code message } } }',
      { id: session.id },
      admin,
    );
    expect(revoked.data.revokeSession.session.status).toBe('REVOKED');
    const refused = await t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });
    expect(refused.json.errors[0].errorCode).toBe('KER-ATH-008');
    expect(
      refusalCode(
        await t.graphql('mutation { revokeSession(input: { id: "no-such-session" }) { session { id } userErrors { field code message } } }', {}, admin),
      ),
    ).toBe('KER-ATH-003');
  });
});

describe('what the caller may do', () => {
  it("tells each caller the operations its roles open (viewer.permissions), as the gateway's role table decides them", async () => {
    const permissionsOf = async (headers: Record<string, string>) =>
      (await t.graphql('{ viewer { roles permissions } }', {}, headers)).data.viewer as { roles: string[]; permissions: string[] };
    const everything = await permissionsOf(admin);
    expect(everything.permissions).toEqual([...everything.permissions].sort());
    expect(everything.permissions).toEqual(expect.arrayContaining(['Query.registrationCounts', 'Mutation.createUser', 'Query.viewer']));

    const authenticator = await permissionsOf(cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token));
    expect(authenticator.roles).toEqual(['ID_AUTHENTICATION']);
    // open and any-token operations, and those its role opens; not the operators' dashboard, not user management
    expect(authenticator.permissions).toEqual(expect.arrayContaining(['Query.viewer', 'Mutation.loginWithPassword']));
    expect(authenticator.permissions).not.toContain('Query.registrationCounts');
    expect(authenticator.permissions).not.toContain('Mutation.createUser');
    expect(authenticator.permissions.length).toBeLessThan(everything.permissions.length);
    // each permission it is told of is one the gateway lets it through: a dashboard root it lacks is refused
    expect(refusalCode(await t.graphql('{ registrationCounts { stage } }', {}, cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token)))).toBe(
      'KER-ATH-403',
    );
  });
});

describe("a role's dashboard in one query", () => {
  it('answers the fields the caller may see and nulls only the one it may not, with its error', async () => {
    const processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
    const dashboard = '{ registrationCounts { stage } stuckRegistrations(first: 5) { totalCount } abisSystems { name } uinPool { unused } }';
    const answer = await t.graphql(dashboard, {}, processor);
    expect(answer.data).toEqual({
      registrationCounts: expect.any(Array),
      stuckRegistrations: { totalCount: expect.any(Number) },
      abisSystems: expect.any(Array),
      uinPool: null,
    });
    expect(answer.errors).toEqual([expect.objectContaining({ path: ['uinPool'], extensions: expect.objectContaining({ code: 'KER-ATH-403' }) })]);
    // what viewer.permissions told it beforehand
    const { permissions } = (await t.graphql('{ viewer { permissions } }', {}, processor)).data.viewer as { permissions: string[] };
    expect(permissions).toEqual(expect.arrayContaining(['Query.registrationCounts', 'Query.stuckRegistrations', 'Query.abisSystems']));
    expect(permissions).not.toContain('Query.uinPool');
    // the admin sees all four
    const whole = await t.graphql(dashboard, {}, admin);
    expect(whole.errors).toBeUndefined();
    expect(whole.data.uinPool).toEqual({ unused: expect.any(Number) });
  });
});
