// The partner portal's screens, each one GraphQL query through the gateway: a partner manager's
// partners with their requests, keys and each key's policy; the MISP admin's MISPs with their
// license keys; `viewer` for any signed-in caller, with a partner's own record under it. Then what a
// partner must never reach of another partner, whichever path it takes, and the cost of the nested
// lists in SQL statements at 1 and 50 partners.
import { generateKeyPairSync } from 'node:crypto';
import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../../lib/crypto/certificates.js';
import { createRequestContext } from '../../lib/context.js';
import { partner as partnerComponent } from '../../subgraphs/partner/index.js';
import { pmsCalls } from '../support/pms.js';
import { bearer, cookieHeader, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';

const statements: string[] = [];
let counting = false;
let db: TestDatabase;
let t: TestPlatform;
let admin: Record<string, string>;
const { send, ok } = pmsCalls(() => t);

type Who = 'managerX' | 'managerY' | 'managerBulk' | 'partnerA' | 'partnerB' | 'partnerC' | 'newcomer' | 'partnerAdmin';
const as = {} as Record<Who, Login>;
const ids = { requestA1: '', requestA2: '', requestB: '', requestC: '', keyA: '', keyB: '', keyC: '', certificateA: '' };

const gql = (who: Login | Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
  t.graphql(query, variables, 'bearer' in who ? (who as Login).bearer : who);
const codes = (result: any): string[] => (result.errors ?? []).map((error: any) => error.extensions?.code);

const content = { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] };
const BULK = 50;

/** A self-signed partner certificate (RSA 2048, valid now). */
function partnerCertificatePem(): string {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  return issueCertificate({
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject: { commonName: 'screens.example.org', organization: 'Screens Bank', country: 'MA' },
    validFrom: new Date(now - 86_400_000),
    validTo: new Date(now + 365 * 86_400_000),
    ca: false,
    selfPrivateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
}

beforeAll(async () => {
  db = await freshDatabase({ onQuery: (sql) => void (counting && statements.push(sql)) });
  // No job runner: its polls would be counted with the request's statements.
  t = await startTestPlatform({ JOBS_RUN: 'false' }, { database: db.database });
  admin = cookieHeader(await t.adminToken());
  const prisma = t.platform.deps.prisma;
  const audit = { createdBy: 'seed', createdAt: t.clock.now() };
  for (const id of ['group-x', 'group-y', 'group-bulk']) await prisma.policyGroup.create({ data: { id, name: id, description: id, ...audit } });
  await prisma.policy.createMany({
    data: [
      { id: 'pol-x1', policyGroupId: 'group-x', name: 'Bank KYC', description: 'kyc for banks', policies: content, ...audit },
      { id: 'pol-x2', policyGroupId: 'group-x', name: 'Bank OTP', description: 'otp for banks', policies: content, ...audit },
      { id: 'pol-x3', policyGroupId: 'group-x', name: 'Unused', description: 'nobody asked', policies: content, ...audit },
      { id: 'pol-y1', policyGroupId: 'group-y', name: 'Telco OTP', description: 'otp for telcos', policies: content, ...audit },
    ],
  });
  as.managerX = await userLogin(t, 'screens-manager-x', ['PARTNERMANAGER']);
  as.managerY = await userLogin(t, 'screens-manager-y', ['PARTNERMANAGER']);
  as.managerBulk = await userLogin(t, 'screens-manager-bulk', ['PARTNERMANAGER']);
  as.partnerA = await userLogin(t, 'screens-partner-a', ['PARTNER']);
  as.partnerB = await userLogin(t, 'screens-partner-b', ['PARTNER']);
  as.partnerC = await userLogin(t, 'screens-partner-c', ['PARTNER']);
  as.newcomer = await userLogin(t, 'screens-newcomer', ['PARTNER']);
  as.partnerAdmin = await userLogin(t, 'screens-partner-admin', ['PARTNER_ADMIN']);
  await prisma.policyGroupManager.createMany({
    data: [
      { policyGroupId: 'group-x', userId: 'screens-manager-x', ...audit },
      { policyGroupId: 'group-y', userId: 'screens-manager-y', ...audit },
      { policyGroupId: 'group-bulk', userId: 'screens-manager-bulk', ...audit },
    ],
  });
  const registration = { contactNumber: '9876543210', emailId: 'screens@example.org', address: '1 Screen Street' };
  await ok(send(as.partnerA.cookie, 'POST', '/partners', { partnerId: 'PA', organizationName: 'Org A', policyGroup: 'group-x', ...registration }));
  await ok(send(as.partnerB.cookie, 'POST', '/partners', { partnerId: 'PB', organizationName: 'Org B', policyGroup: 'group-x', ...registration }));
  await ok(send(as.partnerC.cookie, 'POST', '/partners', { partnerId: 'PC', organizationName: 'Org C', policyGroup: 'group-y', ...registration }));

  const request = async (who: Login, partnerId: string, policyName: string) =>
    (await ok(send(who.cookie, 'PATCH', `/partners/${partnerId}/partnerAPIKeyRequests`, { policyName, useCaseDescription: 'screens' }))).apiRequestId as string;
  const approve = (who: Login, requestId: string) => ok(send(who.cookie, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${requestId}`, { status: 'Approved' }));
  ids.requestA1 = await request(as.partnerA, 'PA', 'Bank KYC');
  t.clock.advance(1000);
  ids.requestA2 = await request(as.partnerA, 'PA', 'Bank OTP');
  ids.requestB = await request(as.partnerB, 'PB', 'Bank OTP');
  ids.requestC = await request(as.partnerC, 'PC', 'Telco OTP');
  await approve(as.managerX, ids.requestA1);
  await approve(as.managerX, ids.requestB);
  await approve(as.managerY, ids.requestC);
  const keyOf = async (requestId: string) => (await prisma.partnerApiKey.findUniqueOrThrow({ where: { requestId } })).id;
  ids.keyA = await keyOf(ids.requestA1);
  ids.keyB = await keyOf(ids.requestB);
  ids.keyC = await keyOf(ids.requestC);
  ids.certificateA = (
    await ok(
      send(as.partnerA.cookie, 'POST', '/partners/certificate/upload', { partnerId: 'PA', certificateData: partnerCertificatePem(), partnerDomain: 'AUTH' }),
    )
  ).certificateId;

  // The bulk group: 50 partners with no login, newer than any other, 1 to 3 keys each on its 3 policies.
  const at = (i: number) => new Date(Date.UTC(2100, 0, 1, 0, 0, i));
  await prisma.policy.createMany({
    data: [0, 1, 2].map((k) => ({ id: `bulk-pol-${k}`, policyGroupId: 'group-bulk', name: `Bulk ${k}`, description: 'bulk', policies: content, ...audit })),
  });
  const bulk = Array.from({ length: BULK }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
  await prisma.partner.createMany({
    data: bulk.map((id, i) => ({
      id,
      organizationName: `Bulk ${i}`,
      emailId: `b${i}@example.org`,
      address: 'Bulk Street',
      policyGroupId: 'group-bulk',
      createdBy: 'seed',
      createdAt: at(i),
    })),
  });
  const keys = bulk.flatMap((partnerId, i) => Array.from({ length: 1 + (i % 3) }, (_, k) => ({ partnerId, k, i })));
  await prisma.apiKeyRequest.createMany({
    data: keys.map(({ partnerId, k, i }) => ({
      id: `${partnerId}-r${k}`,
      partnerId,
      policyId: `bulk-pol-${k}`,
      status: 'Approved',
      createdBy: 'seed',
      createdAt: at(1000 + i * 3 + k),
    })),
  });
  await prisma.partnerApiKey.createMany({
    data: keys.map(({ partnerId, k, i }) => ({
      keyHash: `hash-${partnerId}-${k}`,
      id: `${partnerId}-k${k}`,
      keyHint: `h${k}`.padEnd(4, '0'),
      partnerId,
      policyId: `bulk-pol-${k}`,
      requestId: `${partnerId}-r${k}`,
      status: 'Active',
      expiresAt: at(100_000),
      createdBy: 'seed',
      createdAt: at(1000 + i * 3 + k),
    })),
  });
});

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const MANAGER_SCREEN = `{
  partners(first: 50) {
    totalCount
    edges { node {
      id organizationName status
      apiKeyRequests(first: 10) { totalCount pageInfo { hasNextPage } edges { cursor node { id status policyId policy { id name } } } }
      apiKeys(first: 10) { totalCount pageInfo { hasNextPage } edges { cursor node { id keyHint status policyId requestId policy { id name } } } }
    } }
  }
}`;

const byId = (edges: any[]) => Object.fromEntries(edges.map((edge) => [edge.node.id, edge.node]));

describe("a partner manager's screen: partners with their requests, keys and each key's policy, in one query", () => {
  it("answers its groups' partners only, each with its own requests and keys and their policies", async () => {
    const result = await gql(as.managerX, MANAGER_SCREEN);
    expect(result.errors).toBeUndefined();
    const partners = result.data.partners;
    expect(partners.totalCount).toBe(2);
    const nodes = byId(partners.edges);
    expect(Object.keys(nodes).sort()).toEqual(['PA', 'PB']);

    const a = nodes.PA;
    expect(a).toMatchObject({ organizationName: 'Org A', status: 'ACTIVE' });
    expect(a.apiKeyRequests.totalCount).toBe(2);
    expect(a.apiKeyRequests.pageInfo).toEqual({ hasNextPage: false });
    // newest first
    expect(a.apiKeyRequests.edges.map((e: any) => e.node)).toEqual([
      { id: ids.requestA2, status: 'IN_PROGRESS', policyId: 'pol-x2', policy: { id: 'pol-x2', name: 'Bank OTP' } },
      { id: ids.requestA1, status: 'APPROVED', policyId: 'pol-x1', policy: { id: 'pol-x1', name: 'Bank KYC' } },
    ]);
    expect(a.apiKeys).toEqual({
      totalCount: 1,
      pageInfo: { hasNextPage: false },
      edges: [
        {
          cursor: expect.any(String),
          node: {
            id: ids.keyA,
            keyHint: expect.stringMatching(/^.{4}$/),
            status: 'ACTIVE',
            policyId: 'pol-x1',
            requestId: ids.requestA1,
            policy: { id: 'pol-x1', name: 'Bank KYC' },
          },
        },
      ],
    });
    const b = nodes.PB;
    expect(b.apiKeyRequests.edges.map((e: any) => e.node.id)).toEqual([ids.requestB]);
    expect(b.apiKeys.edges.map((e: any) => [e.node.id, e.node.policy])).toEqual([[ids.keyB, { id: 'pol-x2', name: 'Bank OTP' }]]);

    // Each partner's requests are those the root list gives for that partner alone.
    const alone = await gql(as.managerX, '{ apiKeyRequests(filter: {partnerId: "PA"}) { totalCount edges { node { id } } } }');
    expect(alone.data.apiKeyRequests.edges.map((e: any) => e.node.id)).toEqual(a.apiKeyRequests.edges.map((e: any) => e.node.id));

    // The other group's manager: its own partner, nothing of group-x.
    const y = await gql(as.managerY, MANAGER_SCREEN);
    expect(y.errors).toBeUndefined();
    expect(y.data.partners.edges.map((e: any) => e.node.id)).toEqual(['PC']);
    expect(y.data.partners.edges[0].node.apiKeys.edges.map((e: any) => [e.node.id, e.node.policy])).toEqual([[ids.keyC, { id: 'pol-y1', name: 'Telco OTP' }]]);

    // An admin sees every partner, bulk ones included.
    const all = await gql(admin, '{ partners(first: 1) { totalCount } }');
    expect(all.data.partners.totalCount).toBe(3 + BULK);
  });

  it('filters and pages the nested lists', async () => {
    const filtered = await gql(
      as.managerX,
      `{ partners(filter: {policyGroupId: "group-x"}) { edges { node { id
          pending: apiKeyRequests(filter: {status: IN_PROGRESS}) { totalCount edges { node { id status } } }
          onOtp: apiKeyRequests(filter: {policyId: "pol-x2"}) { totalCount }
          active: apiKeys(filter: {status: ACTIVE, policyId: "pol-x1"}) { totalCount edges { node { id } } }
          off: apiKeys(filter: {status: DE_ACTIVE}) { totalCount edges { node { id } } }
      } } } }`,
    );
    expect(filtered.errors).toBeUndefined();
    const nodes = byId(filtered.data.partners.edges);
    expect(nodes.PA.pending).toEqual({ totalCount: 1, edges: [{ node: { id: ids.requestA2, status: 'IN_PROGRESS' } }] });
    expect(nodes.PB.pending).toEqual({ totalCount: 0, edges: [] });
    expect(nodes.PA.onOtp.totalCount).toBe(1);
    expect(nodes.PB.onOtp.totalCount).toBe(1);
    expect(nodes.PA.active).toEqual({ totalCount: 1, edges: [{ node: { id: ids.keyA } }] });
    expect(nodes.PB.active).toEqual({ totalCount: 0, edges: [] });
    expect(nodes.PA.off).toEqual({ totalCount: 0, edges: [] });

    // A page of one, then the page after its cursor (paging into one partner's list).
    const first = await gql(
      as.managerX,
      '{ partners(filter: {policyGroupId: "group-x"}) { edges { node { id apiKeyRequests(first: 1) { pageInfo { hasNextPage endCursor } edges { node { id } } } } } } }',
    );
    const pa = byId(first.data.partners.edges).PA.apiKeyRequests;
    expect(pa.pageInfo.hasNextPage).toBe(true);
    expect(pa.edges.map((e: any) => e.node.id)).toEqual([ids.requestA2]);
    const next = await gql(
      as.managerX,
      'query($after: String) { partners(filter: {policyGroupId: "group-x"}) { edges { node { id apiKeyRequests(first: 1, after: $after) { pageInfo { hasNextPage } edges { node { id } } } } } } }',
      { after: pa.pageInfo.endCursor },
    );
    expect(next.errors).toBeUndefined();
    expect(byId(next.data.partners.edges).PA.apiKeyRequests).toEqual({ pageInfo: { hasNextPage: false }, edges: [{ node: { id: ids.requestA1 } }] });
  });

  it('the policy of a key: the whole policy for its managers', async () => {
    const result = await gql(
      as.managerX,
      '{ partners { edges { node { id apiKeys { edges { node { policy { id name description isActive policyGroup { id } } } } } } } } }',
    );
    expect(result.errors).toBeUndefined();
    expect(byId(result.data.partners.edges).PA.apiKeys.edges[0].node.policy).toEqual({
      id: 'pol-x1',
      name: 'Bank KYC',
      description: 'kyc for banks',
      isActive: true,
      policyGroup: { id: 'group-x' },
    });
  });
});

describe("the MISP admin's screen: MISPs with their license keys, in one query", () => {
  it('lists the MISPs with their license keys', async () => {
    const register = async (who: Record<string, string>, organizationName: string) =>
      (await ok(send(who, 'POST', '/misps', { organizationName, contactNumber: '+212 600 000 000', emailId: 'misp@example.org', address: '1 Main Street' })))
        .mispID as string;
    const approved = await register(as.partnerAdmin.cookie, 'Screens Telco');
    const pending = await register(as.partnerAdmin.cookie, 'Screens Waiting');
    const license = await ok(send(as.partnerAdmin.cookie, 'PATCH', `/misps/${approved}/status`, { mispStatus: 'Approved' }));
    t.clock.advance(1000);
    await ok(send(as.partnerAdmin.cookie, 'PUT', `/misps/${approved}/licenseKey`));

    const screen = `{ misps(first: 20) { totalCount edges { node { id organizationName status
      licenseKeys(first: 5) { totalCount edges { node { id keyHint status licenseExpiryTime } } }
      active: licenseKeys(filter: {status: ACTIVE}) { totalCount edges { node { keyHint } } }
    } } } }`;
    for (const who of [as.partnerAdmin.bearer, admin]) {
      const result = await t.graphql(screen, {}, who);
      expect(result.errors).toBeUndefined();
      const nodes = byId(result.data.misps.edges);
      expect(result.data.misps.totalCount).toBe(2);
      expect(nodes[approved]).toMatchObject({ organizationName: 'Screens Telco', status: 'APPROVED' });
      // The approval's key, blocked by the regeneration, and the new one: newest first.
      expect(nodes[approved].licenseKeys.totalCount).toBe(2);
      expect(nodes[approved].licenseKeys.edges.map((e: any) => e.node.status)).toEqual(['ACTIVE', 'BLOCKED']);
      expect(nodes[approved].licenseKeys.edges[1].node.keyHint).toBe(license.mispLicenseKey.slice(-4));
      expect(nodes[approved].active.totalCount).toBe(1);
      expect(nodes[pending]).toMatchObject({ status: 'ACTIVE', licenseKeys: { totalCount: 0, edges: [] } });
    }
    // A partner manager or a partner has no MISP desk.
    expect(codes(await gql(as.managerX, screen))).toContain('KER-ATH-403');
    expect(codes(await gql(as.partnerA, screen))).toContain('KER-ATH-403');
  });
});

const VIEWER = '{ viewer { id type name roles appId partner { id } } }';

describe('viewer: the signed-in caller', () => {
  it('an admin user: its id, name, roles and application; no partner record', async () => {
    const result = await gql(admin, VIEWER);
    expect(result.errors).toBeUndefined();
    expect(result.data.viewer).toMatchObject({ id: 'admin', type: 'USER', name: 'Platform administrator', appId: 'admin', partner: null });
    expect(result.data.viewer.roles).toEqual(expect.arrayContaining(['GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNER']));
    const manager = await gql(as.managerX, VIEWER);
    expect(manager.data.viewer).toEqual({
      id: 'screens-manager-x',
      type: 'USER',
      name: 'screens-manager-x',
      roles: ['PARTNERMANAGER'],
      appId: 'partnermanagement',
      partner: null,
    });
  });

  it('a client: its client id as its name', async () => {
    const client = await t.clientToken(['ID_AUTHENTICATION'], 'ida');
    const result = await gql(bearer(client.token), VIEWER);
    expect(result.errors).toBeUndefined();
    expect(result.data.viewer).toEqual({
      id: client.clientId,
      type: 'CLIENT',
      name: client.clientId,
      roles: ['ID_AUTHENTICATION'],
      appId: 'ida',
      partner: null,
    });
  });

  it('no token: refused', async () => {
    const result = await t.graphql(VIEWER);
    expect(result.data?.viewer ?? null).toBeNull();
    expect(codes(result)[0]).toMatch(/^KER-ATH-/);
  });

  it('a partner: its record, requests, keys, certificate and the names of its policies', async () => {
    const result = await gql(
      as.partnerA,
      `{ viewer { id type roles appId partner {
          id organizationName status policyGroupId login { userId }
          certificate { thumbprint }
          apiKeyRequests { totalCount edges { node { id status policy { id name } apiKey { id keyHint } } } }
          apiKeys { totalCount edges { node { id keyHint status expiresAt policy { id name } } } }
      } } }`,
    );
    expect(result.errors).toBeUndefined();
    const viewer = result.data.viewer;
    expect(viewer).toMatchObject({ id: 'screens-partner-a', type: 'USER', roles: ['PARTNER'], appId: 'partnermanagement' });
    expect(viewer.partner).toMatchObject({
      id: 'PA',
      organizationName: 'Org A',
      status: 'ACTIVE',
      policyGroupId: 'group-x',
      login: { userId: 'screens-partner-a' },
      certificate: { thumbprint: ids.certificateA },
    });
    expect(viewer.partner.apiKeyRequests.totalCount).toBe(2);
    expect(viewer.partner.apiKeyRequests.edges.map((e: any) => [e.node.id, e.node.status, e.node.policy, e.node.apiKey?.id ?? null])).toEqual([
      [ids.requestA2, 'IN_PROGRESS', { id: 'pol-x2', name: 'Bank OTP' }, null],
      [ids.requestA1, 'APPROVED', { id: 'pol-x1', name: 'Bank KYC' }, ids.keyA],
    ]);
    expect(viewer.partner.apiKeys).toEqual({
      totalCount: 1,
      edges: [
        { node: { id: ids.keyA, keyHint: expect.any(String), status: 'ACTIVE', expiresAt: expect.any(String), policy: { id: 'pol-x1', name: 'Bank KYC' } } },
      ],
    });
  });

  it("a partner reads its policies' id and name, nothing else of them", async () => {
    // Every other field of the policy: null, with an access error at its path; the id and name stay.
    for (const field of ['description', 'policies', 'isActive', 'policyGroup', 'createdBy', 'createdAt', 'updatedBy', 'updatedAt']) {
      const selection =
        {
          policies: 'policies { authPolicies { authType } }',
          policyGroup: 'policyGroup { id }',
          createdBy: 'createdBy { userId }',
          updatedBy: 'updatedBy { userId }',
        }[field] ?? field;
      const denied = await gql(as.partnerA, `{ viewer { partner { apiKeys { edges { node { id policy { id name ${selection} } } } } } } }`);
      expect(codes(denied), field).toEqual(['KER-ATH-403']);
      expect(denied.errors[0].path, field).toEqual(['viewer', 'partner', 'apiKeys', 'edges', 0, 'node', 'policy', field]);
      expect(denied.data.viewer.partner.apiKeys.edges[0].node, field).toEqual({ id: ids.keyA, policy: { id: 'pol-x1', name: 'Bank KYC', [field]: null } });
    }
    const requests = await gql(as.partnerA, '{ viewer { partner { apiKeyRequests { edges { node { policy { name description } } } } } } }');
    expect(codes(requests)).toEqual(['KER-ATH-403', 'KER-ATH-403']);
    expect(requests.data.viewer.partner.apiKeyRequests.edges.map((e: any) => e.node.policy)).toEqual([
      { name: 'Bank OTP', description: null },
      { name: 'Bank KYC', description: null },
    ]);
    // The root lists of policies are not the partner's either.
    expect(codes(await gql(as.partnerA, '{ policies { totalCount } }'))).toEqual(['KER-ATH-403']);
    expect(codes(await gql(as.partnerA, '{ policy(policyId: "pol-x1") { name } }'))).toEqual(['KER-ATH-403']);
  });

  it('a partner login with no record yet: no partner', async () => {
    const result = await gql(as.newcomer, VIEWER);
    expect(result.errors).toBeUndefined();
    expect(result.data.viewer).toMatchObject({ id: 'screens-newcomer', partner: null });
  });
});

describe("a partner never reaches another partner's records", () => {
  const subgraph = async (who: Login, source: string, variableValues: Record<string, unknown>) =>
    graphql({
      schema: await t.platform.buildSubgraph(partnerComponent),
      source,
      variableValues,
      contextValue: createRequestContext({ headers: who.cookie, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
    });
  const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) {
    ... on Partner { id apiKeyRequests { totalCount edges { node { id policy { name } } } } apiKeys { totalCount edges { node { id policy { name } } } } }
    ... on ApiKey { id policy { id name } }
    ... on ApiKeyRequest { id policy { id name } }
    ... on Viewer { viewerId: id partner { id apiKeys { totalCount } } }
  } }`;

  it('through the root lists: its own record, nothing of the others', async () => {
    const result = await gql(
      as.partnerB,
      `{ partners(first: 20) { totalCount edges { node { id apiKeyRequests(first: 5) { totalCount edges { node { id } } } apiKeys(first: 5) { totalCount edges { node { id policy { name } } } } } } }
         apiKeyRequests(filter: {partnerId: "PA"}) { totalCount edges { node { id } } } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.partners.totalCount).toBe(1);
    expect(result.data.partners.edges[0].node).toEqual({
      id: 'PB',
      apiKeyRequests: { totalCount: 1, edges: [{ node: { id: ids.requestB } }] },
      apiKeys: { totalCount: 1, edges: [{ node: { id: ids.keyB, policy: { name: 'Bank OTP' } } }] },
    });
    expect(result.data.apiKeyRequests).toEqual({ totalCount: 0, edges: [] });
    for (const group of ['group-x', 'group-y', 'group-bulk']) {
      const filtered = await gql(as.partnerB, `{ partners(filter: {policyGroupId: "${group}"}) { totalCount edges { node { id } } } }`);
      expect(
        filtered.data.partners.edges.every((e: any) => e.node.id === 'PB'),
        group,
      ).toBe(true);
    }
    // Another partner's request state and certificate: KER-ATH-403, as the REST paths answer.
    expect(codes(await gql(as.partnerB, `{ apiKeyRequestState(partnerId: "PA", apiKeyReqId: "${ids.requestA1}") { apikeyReqStatus } }`))).toEqual([
      'KER-ATH-403',
    ]);
    expect(codes(await gql(as.partnerB, '{ partnerCertificate(partnerId: "PA") { certificateId } }'))).toEqual(['KER-ATH-403']);
  });

  it('through references by key (_entities): nothing of another partner, its keys, requests or their policies', async () => {
    const others = [
      { __typename: 'Partner', id: 'PA' },
      { __typename: 'Partner', id: 'PC' },
      { __typename: 'ApiKey', id: ids.keyA },
      { __typename: 'ApiKeyRequest', id: ids.requestA1 },
      { __typename: 'ApiKey', id: ids.keyC },
      // another caller's viewer: the record under it is always the token's own, so nothing here
      { __typename: 'Viewer', id: 'screens-partner-a' },
    ];
    const forB = await subgraph(as.partnerB, ENTITIES, { r: others });
    expect(forB.errors).toBeUndefined();
    expect(forB.data!._entities).toEqual([null, null, null, null, null, { viewerId: 'screens-partner-a', partner: null }]);
    // The same paths answer the partner its own.
    const own = await subgraph(as.partnerB, ENTITIES, {
      r: [
        { __typename: 'Partner', id: 'PB' },
        { __typename: 'ApiKey', id: ids.keyB },
        { __typename: 'Viewer', id: 'screens-partner-b' },
      ],
    });
    expect(own.errors).toBeUndefined();
    expect(own.data!._entities).toEqual([
      {
        id: 'PB',
        apiKeyRequests: { totalCount: 1, edges: [{ node: { id: ids.requestB, policy: { name: 'Bank OTP' } } }] },
        apiKeys: { totalCount: 1, edges: [{ node: { id: ids.keyB, policy: { name: 'Bank OTP' } } }] },
      },
      { id: ids.keyB, policy: { id: 'pol-x2', name: 'Bank OTP' } },
      { viewerId: 'screens-partner-b', partner: { id: 'PB', apiKeys: { totalCount: 1 } } },
    ]);
    // A manager of another group: nothing of group-x through the same paths.
    const forY = await subgraph(as.managerY, ENTITIES, { r: others.slice(0, 5) });
    expect(forY.data!._entities).toEqual([null, { id: 'PC', apiKeyRequests: expect.anything(), apiKeys: expect.anything() }, null, null, expect.anything()]);
    // A policy by its key is its managers' only.
    const policy = await subgraph(as.partnerB, 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Policy { id name } } }', {
      r: [{ __typename: 'Policy', id: 'pol-x1' }],
    });
    expect(policy.errors?.map((error) => error.extensions?.code)).toEqual(['KER-ATH-403']);
  });

  it('the rules under the fields: the policies and nested lists of keys that are not its own give it nothing', async () => {
    const { partners, partnerApiKeys } = t.platform.deps.services;
    const scopeOfB = await partners.scope({ subject: 'screens-partner-b', roles: ['PARTNER'] });
    // ApiKey.policy / ApiKeyRequest.policy: B has a key and a request on pol-x2 only; pol-x1 is A's, pol-x3 nobody's, pol-y1 C's.
    const policies = await partnerApiKeys.policiesOfKeys(scopeOfB, ['pol-x1', 'pol-x2', 'pol-x3', 'pol-y1']);
    expect([...policies.keys()]).toEqual(['pol-x2']);
    const scopeOfY = await partners.scope({ subject: 'screens-manager-y', roles: ['PARTNERMANAGER'] });
    expect([...(await partnerApiKeys.policiesOfKeys(scopeOfY, ['pol-x1', 'pol-x2', 'pol-y1'])).keys()]).toEqual(['pol-y1']);
    // Partner.apiKeys / apiKeyRequests under another partner's record, were one ever reached: empty pages, no count.
    const keysOfA = partnerApiKeys.apiKeysOfPartners(scopeOfB);
    expect((await keysOfA.pages(['PA', 'PB'], 10)).get('PA')).toBeUndefined();
    expect((await keysOfA.counts(['PA', 'PB'])).get('PA')).toBeUndefined();
    expect(await keysOfA.after('PA', { take: 10 })).toEqual([]);
    const requestsOfA = partnerApiKeys.requestsOfPartners(scopeOfB);
    expect((await requestsOfA.pages(['PA'], 10)).size).toBe(0);
    expect(await requestsOfA.after('PA', { take: 10 })).toEqual([]);
    // Never a key's HMAC in the graph's rows.
    const [pb] = (await keysOfA.pages(['PB'], 10)).get('PB')!;
    expect(pb).toMatchObject({ id: ids.keyB, partnerId: 'PB' });
    expect(pb).not.toHaveProperty('keyHash');
  });
});

describe('the cost of the nested lists', () => {
  /** The statements one GraphQL request sends. */
  async function counted(who: Record<string, string>, query: string, variables: Record<string, unknown>) {
    statements.length = 0;
    counting = true;
    const result = await t.graphql(query, variables, who);
    counting = false;
    expect(result.errors).toBeUndefined();
    return { data: result.data, statements: statements.length };
  }
  const SCREEN = 'query($first: Int) { partners(first: $first) { edges { node { id apiKeys(first: 5) { edges { node { id policy { name } } } } } } } }';
  const FULL =
    'query($first: Int) { partners(first: $first) { totalCount edges { node { id apiKeyRequests(first: 5) { totalCount edges { node { id policy { id name } } } } apiKeys(first: 5) { totalCount edges { node { id policy { id name } } } } } } } }';

  for (const [who, caller] of [
    ['an admin', () => admin],
    ["the bulk group's manager", () => as.managerBulk.bearer],
  ] as const) {
    it(`partners { apiKeys { policy { name } } }: as many statements at 1 and 50 partners, for ${who}`, async () => {
      for (const query of [SCREEN, FULL]) {
        await counted(caller(), query, { first: 1 }); // once first: what a request loads once (the caller's session, its desk) is not the list's cost
        const one = await counted(caller(), query, { first: 1 });
        const fifty = await counted(caller(), query, { first: BULK });
        expect(fifty.statements, query).toBe(one.statements);
        // the caller's groups, the partners' page (and count), each list's window query (and grouped count), each list's
        // policies (a manager's: which of them its partners' keys and requests are on, then the policies)
        expect(one.statements).toBeLessThanOrEqual(query === SCREEN ? 5 : 11);
        const edges = fifty.data.partners.edges as any[];
        expect(edges).toHaveLength(BULK);
        for (const edge of edges) {
          const keys = edge.node.apiKeys.edges;
          const i = Number(edge.node.id.slice(-3));
          expect(keys.length, edge.node.id).toBe(1 + (i % 3));
          expect(keys.map((k: any) => k.node.policy.name).sort()).toEqual(keys.map((_: unknown, k: number) => `Bulk ${k}`));
        }
      }
    });
  }
});
