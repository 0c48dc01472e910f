// Hostile GraphQL documents are refused with a clear error before anything runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_ROUTES } from '../../gateway/components.js';
import { startSubgraphServer, type SubgraphServer } from '../../gateway/subgraph-server.js';
import { masterdata } from '../../subgraphs/masterdata/index.js';
import { cookieHeader, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform();
  admin = cookieHeader(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

const aliases = (count: number, field: string) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/** The request was refused as a whole: one error with this code, no data, and nothing signed or written. */
async function expectRefused(query: string, code: string, message: RegExp, headers: Record<string, string> = admin) {
  const before = await t.snapshot();
  const { status, json } = await t.request('POST', '/graphql', { body: { query }, headers });
  expect(status).toBe(400);
  expect(json.data).toBeUndefined();
  expect(json.errors).toHaveLength(1);
  expect(json.errors[0].extensions.code).toBe(code);
  expect(json.errors[0].message).toMatch(message);
  expect(await t.snapshot()).toEqual(before);
}

describe('GraphQL limits', () => {
  it('refuses 1,000 aliased sign calls and 2,000 aliased __schema fields before anything runs', async () => {
    for (const query of [
      `mutation ${aliases(1000, 'sign(input: { data: "x" }) { signatureResult { signature } }')}`,
      aliases(2000, '__schema { types { name } }'),
    ]) {
      const before = await t.snapshot();
      const { status, json } = await t.request('POST', '/graphql', { body: { query }, headers: admin });
      expect(status).toBe(400);
      expect(json.data).toBeUndefined();
      expect(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED']).toContain(json.errors[0].extensions.code);
      expect(await t.snapshot()).toEqual(before);
    }
  });

  it('refuses more aliases than PLATFORM_GRAPHQL_MAX_ALIASES (15)', async () => {
    await expectRefused(
      `mutation ${aliases(60, 'sign(input: { data: "x" }) { signatureResult { signature } }')}`,
      'GRAPHQL_VALIDATION_FAILED',
      /aliases limit of 15/i,
    );
    const fifteen = await t.graphql(aliases(15, 'licensePermissionValues'), {}, admin);
    expect(Object.keys(fifteen.data)).toHaveLength(15);
  });

  it('refuses a document deeper than PLATFORM_GRAPHQL_MAX_DEPTH (10), counting through fragments', async () => {
    const deep = (level: number): string => (level === 0 ? 'users(first: 1) { totalCount }' : `... on Query { ${deep(level - 1)} }`);
    expect((await t.graphql(`{ ${deep(3)} }`, {}, admin)).data.users.totalCount).toBeGreaterThan(0);
    await expectRefused(`{ ${deep(12)} }`, 'GRAPHQL_VALIDATION_FAILED', /depth limit of 10/i);
  });

  it('refuses a document of more than PLATFORM_GRAPHQL_MAX_TOKENS (2000) tokens at parse time', async () => {
    const query = `{ licensePermissionValues ${'__typename '.repeat(2500)}}`;
    await expectRefused(query, 'GRAPHQL_PARSE_FAILED', /2000 tokens/i);
  });

  it('refuses a document whose cost exceeds PLATFORM_GRAPHQL_MAX_COST (50,000)', async () => {
    // Few tokens, much work: fragments that spread each other twenty times over select 4,000 fields of each of ten users.
    const query = `{ users(first: 10) { edges { node { ...F2 } } } }
      fragment F0 on User { userId name mail mobile langCode roles appIds hasPassword isLocked rid }
      fragment F1 on User { ${'...F0 '.repeat(20)}}
      fragment F2 on User { ${'...F1 '.repeat(20)}}`;
    await expectRefused(query, 'GRAPHQL_VALIDATION_FAILED', /cost limit of 50000 exceeded/i);
  });

  /** The refusal of a request with variables: one error, the cost it found. */
  async function refusedCost(query: string, variables: Record<string, unknown>): Promise<number> {
    const before = await t.snapshot();
    const { status, json } = await t.request('POST', '/graphql', { body: { query, variables }, headers: admin });
    expect(status).toBe(400);
    expect(json.data).toBeUndefined();
    expect(json.errors).toHaveLength(1);
    expect(json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(await t.snapshot()).toEqual(before);
    return Number(/cost limit of 50000 exceeded, found (\d+)/i.exec(json.errors[0].message)?.[1]);
  }

  const SESSIONS = (users: string, sessions: string) =>
    `{ users(${users}) { edges { node { userId sessions(${sessions}) { totalCount edges { node { id appId clientAddress status subjectType user { userId name mail } } } } } } } }`;

  it('counts page sizes passed as variables, and absent ones as the default page (20), as literals', async () => {
    // 1,000 users, past the field's cap of 100: counted as asked, refused before the resolver would refuse the page.
    const literal = await refusedCost(SESSIONS('first: 1000', 'first: 100'), {});
    expect(literal).toBeGreaterThan(50000);
    const withVariables = SESSIONS('first: $users', 'first: $sessions').replace('{', 'query Sessions($users: Int, $sessions: Int) {');
    expect(await refusedCost(withVariables, { users: 1000, sessions: 100 })).toBe(literal);
    const withDefault = SESSIONS('first: $users', 'first: $sessions').replace('{', 'query Sessions($users: Int = 1000, $sessions: Int = 100) {');
    expect(await refusedCost(withDefault, {})).toBe(literal);
    // sessions without `first` return the default page: counted as first: 20.
    const absent = await refusedCost(SESSIONS('first: $users', 'filter: {status: ACTIVE}').replace('{', 'query Sessions($users: Int) {'), { users: 1000 });
    expect(absent).toBe(await refusedCost(SESSIONS('first: 1000', 'first: 20, filter: {status: ACTIVE}'), {}));
  });

  it('answers a portal screen of nested connections up to their largest page (100), with its page sizes as variables', async () => {
    const screen = `query CentreScreen($centres: Int, $machines: Int, $users: Int) {
      registrationCentres(first: $centres) {
        totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node {
          id langCode name centerTypeCode addressLine1 addressLine2 locationCode zoneCode isActive numberOfKiosks userCount
          workingHours timeZone createdBy { userId name } createdAt
          machines(first: $machines) { totalCount edges { node { id name serialNum isActive } } }
          users(first: $users) { totalCount edges { cursor } }
        } }
      }
    }`;
    const literal = (centres: number, machines: number, users: number) =>
      screen
        .replace('query CentreScreen($centres: Int, $machines: Int, $users: Int)', '')
        .replace('$centres', String(centres))
        .replace('$machines', String(machines))
        .replace('$users', String(users));
    const answers = [
      { query: literal(20, 20, 20), variables: {} },
      { query: literal(50, 20, 20), variables: {} },
      { query: screen, variables: { centres: 20 } },
      { query: screen, variables: { centres: 20, machines: 20, users: 20 } },
      { query: screen, variables: { centres: 50, machines: 20, users: 20 } },
      { query: screen, variables: { centres: 100, machines: 100, users: 100 } },
    ];
    for (const body of answers) {
      const { status, json } = await t.request('POST', '/graphql', { body, headers: admin });
      expect(json.errors, JSON.stringify(json.errors)).toBeUndefined();
      expect(status).toBe(200);
      expect(json.data.registrationCentres.totalCount).toBeGreaterThanOrEqual(0);
    }
    // A page past the cap, multiplied: refused by its cost before the resolver would refuse the page.
    expect(await refusedCost(screen, { centres: 100, machines: 1000, users: 0 })).toBeGreaterThan(50000);
  });

  it('refuses nested plain lists by their @listSize: candidates four deep under 100 registrations, and allMisps with 100 keys each', async () => {
    const deep = `{ registrations(first: 100) { edges { node {
      candidates { candidates { candidates { candidates { registrationId } } } }
      manualVerifications { matchedRegId }
      abisRequests { requestId }
    } } } }`;
    await expectRefused(deep, 'GRAPHQL_VALIDATION_FAILED', /^Refused: Query Cost limit of 50000 exceeded, found \d+\.$/);
    // 1,000 MISPs (allMisps' declared size), not one, each with a page of 100 keys.
    await expectRefused('{ allMisps { id licenseKeys(first: 100) { edges { node { licenseKey } } } } }', 'GRAPHQL_VALIDATION_FAILED', /found 127250\./);
    const within = await t.graphql('{ registrations(first: 2) { totalCount edges { node { registrationId candidates { registrationId } } } } }', {}, admin);
    expect(within.errors).toBeUndefined();
    expect(within.data.registrations.totalCount).toBeGreaterThanOrEqual(0);
  });

  it("answers the REST layer's call at its largest page; the same operation sent to /graphql is weighed and refused", async () => {
    // IdSchemaAll: its declared sizes (100 schemas of up to 500 fields) add up past the limit; the REST route still answers.
    const page = await t.request('GET', '/v1/masterdata/idschema/all?pageSize=100', { headers: admin });
    expect(page.json.errors).toBeNull();
    // Its exact text from the network is weighed: only the REST layer's in-process call is exempt.
    const { operation } = REST_ROUTES.find((route) => route.operation.name === 'IdSchemaAll')!;
    const before = await t.snapshot();
    const { status, json } = await t.request('POST', '/graphql', {
      body: { query: operation.query, operationName: operation.name, variables: { pageSize: 100 } },
      headers: admin,
    });
    expect(status).toBe(400);
    expect(json.errors[0].message).toMatch(/cost limit of 50000 exceeded/i);
    expect(await t.snapshot()).toEqual(before);
  });

  it('refuses more directives than PLATFORM_GRAPHQL_MAX_DIRECTIVES (20)', async () => {
    await expectRefused(`{ licensePermissionValues ${'__typename @include(if: true) '.repeat(30)}}`, 'GRAPHQL_VALIDATION_FAILED', /directives limit of 20/i);
  });

  it('answers introspection only with a valid token (KER-ATH-006 without one)', async () => {
    const anonymous = await t.request('POST', '/graphql', { body: { query: '{ __schema { queryType { name } } }' } });
    expect(anonymous.json.data).toBeUndefined();
    expect(anonymous.json.errors[0].extensions.code).toBe('KER-ATH-006');
    const nested = await t.request('POST', '/graphql', { body: { query: '{ licensePermissionValues __type(name: "Query") { name } }' } });
    expect(nested.json.errors[0].extensions.code).toBe('KER-ATH-006');
    const authenticated = await t.graphql('{ __schema { queryType { name } } }', {}, admin);
    expect(authenticated.data.__schema.queryType.name).toBe('Query');
  });
});

describe('the REST layer through the gateway, master data a remote subgraph', () => {
  let db: TestDatabase;
  let local: TestPlatform;
  let subgraph: SubgraphServer;
  let remote: TestPlatform;
  beforeAll(async () => {
    db = await freshDatabase();
    local = await startTestPlatform({}, { database: db.database });
    subgraph = await startSubgraphServer(await local.platform.buildSubgraph(masterdata), local.platform.deps, 0);
    remote = await startTestPlatform({ SUBGRAPH_MASTERDATA_URL: subgraph.url }, { database: db.database });
  });
  afterAll(async () => {
    await remote?.close();
    await subgraph?.close();
    await local?.close();
    await db?.drop();
  });

  it('answers a registered operation over its declared sizes (through the cost rule, exempt in-process); /graphql is refused it', async () => {
    const headers = cookieHeader(await remote.adminToken());
    const page = await remote.request('GET', '/v1/masterdata/idschema/all?pageSize=100', { headers });
    expect(page.json.errors).toBeNull();
    expect(page.json.response.totalItems).toBeGreaterThanOrEqual(0);
    const { operation } = REST_ROUTES.find((route) => route.operation.name === 'IdSchemaAll')!;
    const { status, json } = await remote.request('POST', '/graphql', {
      body: { query: operation.query, operationName: operation.name, variables: { pageSize: 100 } },
      headers,
    });
    expect(status).toBe(400);
    expect(json.errors[0].message).toMatch(/cost limit of 50000 exceeded/i);
  });
});

describe('PLATFORM_GRAPHQL_INTROSPECTION=public', () => {
  it('answers introspection without a token', async () => {
    const open = await startTestPlatform({ PLATFORM_GRAPHQL_INTROSPECTION: 'public' });
    try {
      const { json } = await open.request('POST', '/graphql', { body: { query: '{ __schema { queryType { name } } }' } });
      expect(json.data.__schema.queryType.name).toBe('Query');
    } finally {
      await open.close();
    }
  });
});

describe('health while a hostile document is refused', () => {
  it('keeps answering /health', async () => {
    const hostile = t.request('POST', '/graphql', {
      body: { query: aliases(2000, '__schema { types { name fields { name type { name } } } }') },
      headers: admin,
    });
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect((await hostile).status).toBe(400);
  });
});
