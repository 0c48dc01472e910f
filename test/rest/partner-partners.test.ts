import { graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { partner as partnerComponent } from '../../subgraphs/partner/index.js';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';
import { refusalCode as codeOf } from '../support/refusals.js';

const BASE = '/partnermanagement/v1';
let t: TestPlatform;
useTestPlatform({}, (platform) => {
  t = platform;
});

type Who = 'managerX' | 'managerY' | 'managerEmpty' | 'partnerA' | 'partnerB' | 'partnerC' | 'resident';
const as = {} as Record<Who, Login>;

const createUser = (userId: string, roles: string[]) => userLogin(t, userId, roles);

const send = (who: Login, method: string, path: string, body?: unknown) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers: who.cookie });
const ok = async (call: Promise<{ json: any }>) => {
  const { json } = await call;
  expect(json.errors, JSON.stringify(json.errors)).toEqual([]);
  return json.response;
};
const gql = (who: Login, query: string, variables: Record<string, unknown> = {}) => t.graphql(query, variables, who.bearer);

const registration = (over: Record<string, unknown> = {}) => ({
  organizationName: 'Org',
  contactNumber: '9876543210',
  emailId: 'org@example.org',
  address: '1 Partner Street',
  policyGroup: 'group-x',
  ...over,
});
const register = (who: Login, over: Record<string, unknown> = {}) => ok(send(who, 'POST', '/partners', registration(over)));
const requestKey = (who: Login, partnerId: string, policyName = 'pol-a') =>
  send(who, 'PATCH', `/partners/${partnerId}/partnerAPIKeyRequests`, { policyName, useCaseDescription: 'authentication' });
const decide = (who: Login, requestId: string, status = 'Approved') => send(who, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${requestId}`, { status });
/** A request of partner A, approved by manager X: the clear key. */
async function approvedKey(policyName = 'pol-a'): Promise<{ requestId: string; key: string }> {
  const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA', policyName));
  const { partnerAPIKey } = await ok(decide(as.managerX, apiRequestId));
  return { requestId: apiRequestId, key: partnerAPIKey };
}

const policies = { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] };

beforeAll(async () => {
  const prisma = t.platform.deps.prisma;
  const audit = { createdBy: 'seed', createdAt: t.clock.now() };
  for (const id of ['group-x', 'group-y', 'group-empty']) await prisma.policyGroup.create({ data: { id, name: id, description: id, ...audit } });
  await prisma.policy.createMany({
    data: [
      { id: 'pol-a', policyGroupId: 'group-x', name: 'pol-a', description: 'a', policies, ...audit },
      { id: 'pol-b', policyGroupId: 'group-x', name: 'pol-b', description: 'b', policies, ...audit },
      { id: 'pol-off', policyGroupId: 'group-x', name: 'pol-off', description: 'off', policies, isActive: false, ...audit },
      { id: 'pol-y', policyGroupId: 'group-y', name: 'pol-y', description: 'y', policies, ...audit },
    ],
  });
  as.managerX = await createUser('manager-x', ['PARTNERMANAGER']);
  as.managerY = await createUser('manager-y', ['PARTNERMANAGER']);
  as.managerEmpty = await createUser('manager-empty', ['PARTNERMANAGER']);
  as.partnerA = await createUser('partner-a', ['PARTNER']);
  as.partnerB = await createUser('partner-b', ['PARTNER']);
  as.partnerC = await createUser('partner-c', ['PARTNER']);
  as.resident = await createUser('resident-1', ['RESIDENT']);
  await prisma.policyGroupManager.createMany({
    data: [
      { policyGroupId: 'group-x', userId: 'manager-x', ...audit },
      { policyGroupId: 'group-y', userId: 'manager-y', ...audit },
      { policyGroupId: 'group-empty', userId: 'manager-empty', ...audit },
    ],
  });
  await register(as.partnerA, { partnerId: 'PA', organizationName: 'Org A' });
  await register(as.partnerB, { partnerId: 'PB', organizationName: 'Org B' });
  await register(as.partnerC, { partnerId: 'PC', organizationName: 'Org C', policyGroup: 'group-y' });
});

describe('partners: registration', () => {
  it("registers the caller's login once, with a generated id when none is given", async () => {
    const fresh = await createUser('partner-fresh', ['PARTNER']);
    const answer = await register(fresh, { organizationName: 'Fresh' });
    expect(answer).toEqual({ partnerId: expect.any(String), status: 'Active' });
    const row = await t.platform.deps.prisma.partner.findUniqueOrThrow({ where: { id: answer.partnerId } });
    expect(row).toMatchObject({ userId: 'partner-fresh', policyGroupId: 'group-x', status: 'Active', createdBy: 'partner-fresh' });
    await expectRejected(t, () => send(fresh, 'POST', '/partners', registration({ organizationName: 'Again' })), 'PMS_COR_002');
    // The graph links the partner to its policy group, for a manager of the group; the partner itself reads no group.
    const linked = async (who: Login) => {
      const { data } = await gql(who, '{ partners(first: 100) { edges { node { id policyGroupId policyGroup { id name } } } } }');
      return (data.partners.edges as { node: { id: string } }[]).find((edge) => edge.node.id === answer.partnerId)?.node;
    };
    expect(await linked(as.managerX)).toEqual({ id: answer.partnerId, policyGroupId: 'group-x', policyGroup: { id: 'group-x', name: 'group-x' } });
    expect(await linked(fresh)).toEqual({ id: answer.partnerId, policyGroupId: 'group-x', policyGroup: null });
  });

  it('registers one partner when one login registers twice at once', async () => {
    const racer = await createUser('partner-racer', ['PARTNER']);
    const answers = await Promise.all([1, 2, 3].map((i) => send(racer, 'POST', '/partners', registration({ organizationName: `Racer ${i}` }))));
    const codes = answers.map((a) => (a.json.errors.length ? a.json.errors[0].errorCode : 'ok')).sort();
    expect(codes).toEqual(['PMS_COR_002', 'PMS_COR_002', 'ok']);
    expect(await t.platform.deps.prisma.partner.count({ where: { userId: 'partner-racer' } })).toBe(1);
  });

  it('refuses an unknown group, bad input, a taken id and a caller without the PARTNER role', async () => {
    const other = await createUser('partner-other', ['PARTNER']);
    await expectRejected(t, () => send(other, 'POST', '/partners', registration({ policyGroup: 'no-such-group' })), 'PMS_COR_002');
    await expectRejected(t, () => send(other, 'POST', '/partners', registration({ organizationName: undefined })), 'PMS_COR_001');
    await expectRejected(t, () => send(other, 'POST', '/partners', registration({ emailId: 'not-a-mail' })), 'PMS_COR_002');
    await expectRejected(t, () => send(other, 'POST', '/partners', registration({ partnerId: 'PA' })), 'PMS_COR_002');
    await expectRejected(t, () => send(as.resident, 'POST', '/partners', registration()), 'KER-ATH-403');
    await expectRejected(t, () => send(as.managerX, 'POST', '/partners', registration()), 'KER-ATH-403');
  });
});

describe('partners: the API key life cycle', () => {
  it('register → request → approve → key active → deactivate → status', async () => {
    const { apiRequestId, message } = await ok(requestKey(as.partnerA, 'PA'));
    expect(message).toMatch(/submitted/);
    const pending = await ok(send(as.partnerA, 'GET', `/partners/PA/partnerAPIKeyRequests/${apiRequestId}`));
    expect(pending).toEqual({ apiRequestId, apikeyReqStatus: 'in-progress', partnerApiKeyHint: null, validityTill: null });

    const approved = await ok(decide(as.managerX, apiRequestId));
    expect(approved.message).toMatch(/approved/);
    const key: string = approved.partnerAPIKey;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const status = await t.request('GET', `${BASE}/partners/PA/partnerAPIKeyRequests/${apiRequestId}`, { headers: as.partnerA.cookie });
    expect(status.json.id).toBe('platform.partnermanagement.partners.apikey.status');
    expect(status.json.errors).toEqual([]);
    expect(status.json.response).toEqual({
      apiRequestId,
      apikeyReqStatus: 'Approved',
      partnerApiKeyHint: key.slice(-4),
      validityTill: expect.stringMatching(TIMESTAMP),
    });
    expect(new Date(status.json.response.validityTill).getTime() - t.clock.now().getTime()).toBe(365 * 86_400_000);

    // Only the HMAC is stored; the service finds the row by the clear key.
    const rows = await t.platform.deps.prisma.partnerApiKey.findMany();
    expect(JSON.stringify(rows)).not.toContain(key);
    const found = await t.platform.deps.services.partners.findApiKey(key);
    expect(found).toMatchObject({ partnerId: 'PA', policyId: 'pol-a', requestId: apiRequestId, status: 'Active' });
    expect(await t.platform.deps.services.partners.findApiKey(key.slice(1) + 'x')).toBeNull();

    expect((await ok(send(as.managerX, 'PATCH', `/pmpartners/PA/${key}`, { status: 'De-Active' }))).message).toMatch(/de-activated/);
    expect((await t.platform.deps.services.partners.findApiKey(key))?.status).toBe('De-Active');
    expect((await ok(send(as.managerX, 'PATCH', `/pmpartners/PA/${key}`, { status: 'Active' }))).message).toMatch(/activated/);

    expect((await ok(send(as.managerX, 'PATCH', '/pmpartners/PB', { status: 'De-Active' }))).message).toMatch(/de-activated/);
    expect((await t.platform.deps.prisma.partner.findUniqueOrThrow({ where: { id: 'PB' } })).status).toBe('De-Active');
    await ok(send(as.managerX, 'PATCH', '/pmpartners/PB', { status: 'Active' }));

    const listed = await ok(send(as.managerX, 'GET', '/pmpartners'));
    expect(listed.partners.map((p: any) => p.partnerID)).toEqual(expect.arrayContaining(['PA', 'PB']));
    expect(listed.partners.map((p: any) => p.partnerID)).not.toContain('PC');
    expect(listed.partners.find((p: any) => p.partnerID === 'PA')).toEqual({
      partnerID: 'PA',
      organizationName: 'Org A',
      contactNumber: '9876543210',
      emailId: 'org@example.org',
      address: '1 Partner Street',
      policyGroupId: 'group-x',
      status: 'Active',
    });
  });

  it('a rejected request makes no key', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    expect(await ok(decide(as.managerX, apiRequestId, 'Rejected'))).toEqual({ message: expect.stringMatching(/rejected/), partnerAPIKey: null });
    expect(await t.platform.deps.prisma.partnerApiKey.count({ where: { requestId: apiRequestId } })).toBe(0);
    expect((await ok(send(as.partnerA, 'GET', `/partners/PA/partnerAPIKeyRequests/${apiRequestId}`))).apikeyReqStatus).toBe('Rejected');
  });

  it('answers the approved key as partnerApiKey in the graph (partnerAPIKey deprecated, the same key)', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    const decided = await gql(
      as.managerX,
      `mutation { decideApiKeyRequest(input: { apiKeyReqId: "${apiRequestId}", status: APPROVED }) { apiKeyDecision { partnerApiKey partnerAPIKey apiKey { id status } } userErrors { code } } }`,
    );
    const decision = decided.data.decideApiKeyRequest.apiKeyDecision;
    expect(decision.partnerApiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(decision.partnerAPIKey).toBe(decision.partnerApiKey);
    expect(decision.apiKey.status).toBe('ACTIVE');
  });

  it('moves a key to another policy of the group', async () => {
    const { key } = await approvedKey();
    const moved = await ok(send(as.managerX, 'POST', `/pmpartners/PA/${key}`, { oldPolicyID: 'pol-a', newPolicyID: 'pol-b' }));
    expect(moved.message).toMatch(/new policy/);
    expect((await t.platform.deps.services.partners.findApiKey(key))?.policyId).toBe('pol-b');
    // Through the graph, under its names: back to pol-a, the payload carrying the key as it now stands.
    const back = await gql(
      as.managerX,
      'mutation($k: String!) { changePartnerApiKeyPolicy(input: { partnerId: "PA", partnerApiKey: $k, oldPolicyId: "pol-b", newPolicyId: "pol-a" }) { partnerMessage { message apiKey { policy { id } } } userErrors { field code } } }',
      { k: key },
    );
    expect(back.data.changePartnerApiKeyPolicy).toEqual({
      partnerMessage: { message: expect.stringMatching(/new policy/), apiKey: { policy: { id: 'pol-a' } } },
      userErrors: [],
    });
    const neither = await gql(
      as.managerX,
      'mutation($k: String!) { changePartnerApiKeyPolicy(input: { partnerId: "PA", partnerApiKey: $k }) { userErrors { field code } } }',
      {
        k: key,
      },
    );
    expect(neither.data.changePartnerApiKeyPolicy.userErrors).toEqual([
      { field: ['input', 'oldPolicyId'], code: 'PMS_COR_001' },
      { field: ['input', 'newPolicyId'], code: 'PMS_COR_001' },
    ]);
  });

  it('approves a request once when two approvals race: exactly one key', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    const answers = await Promise.all([decide(as.managerX, apiRequestId), decide(as.managerX, apiRequestId), decide(as.managerX, apiRequestId)]);
    const codes = answers.map((a) => (a.json.errors.length ? a.json.errors[0].errorCode : 'ok')).sort();
    expect(codes).toEqual(['PMS_PMP_012', 'PMS_PMP_012', 'ok']);
    expect(await t.platform.deps.prisma.partnerApiKey.count({ where: { requestId: apiRequestId } })).toBe(1);
  });

  it("shares the platform's certificate", async () => {
    const answer = await ok(send(as.partnerA, 'GET', '/partners/digitalcertificate'));
    expect(answer.platformCertificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });
});

describe('partners: every code, nothing changed', () => {
  it('PMS_PMP_005 / 006: partner status', async () => {
    await expectRejected(t, () => send(as.managerX, 'PATCH', '/pmpartners/NO-SUCH', { status: 'De-Active' }), 'PMS_PMP_005');
    await expectRejected(t, () => send(as.managerY, 'PATCH', '/pmpartners/PA', { status: 'De-Active' }), 'PMS_PMP_006');
    await expectRejected(t, () => send(as.managerX, 'PATCH', '/pmpartners/PA', { status: 'Sleeping' }), 'PMS_COR_002');
    await expectRejected(t, () => send(as.managerX, 'PATCH', '/pmpartners/PA', {}), 'PMS_COR_001');
    await expectRejected(t, () => send(as.partnerA, 'PATCH', '/pmpartners/PA', { status: 'De-Active' }), 'KER-ATH-403');
    expect((await t.platform.deps.prisma.partner.findUniqueOrThrow({ where: { id: 'PA' } })).status).toBe('Active');
  });

  it('PMS_PMP_014 / 010 / PMS_PRT_005: API key request', async () => {
    await expectRejected(t, () => requestKey(as.partnerA, 'PA', 'no-such-policy'), 'PMS_PMP_014');
    await expectRejected(t, () => requestKey(as.partnerA, 'PA', 'pol-off'), 'PMS_PMP_014');
    await expectRejected(t, () => requestKey(as.partnerA, 'PA', 'pol-y'), 'PMS_PMP_010');
    await expectRejected(t, () => requestKey(as.partnerA, 'NO-SUCH'), 'PMS_PRT_005');
    await expectRejected(t, () => send(as.partnerA, 'PATCH', '/partners/PA/partnerAPIKeyRequests', { useCaseDescription: 'x' }), 'PMS_COR_001');
    // A deactivated partner asks for no keys until its manager activates it again.
    await ok(send(as.managerX, 'PATCH', '/pmpartners/PA', { status: 'De-Active' }));
    await expectRejected(t, () => requestKey(as.partnerA, 'PA'), 'PMS_PMP_016');
    await ok(send(as.managerX, 'PATCH', '/pmpartners/PA', { status: 'Active' }));
    expect((await ok(requestKey(as.partnerA, 'PA'))).apiRequestId).toBeTruthy();
  });

  it('PMS_PRT_005 / 006: request status', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    await expectRejected(t, () => send(as.partnerA, 'GET', `/partners/NO-SUCH/partnerAPIKeyRequests/${apiRequestId}`), 'PMS_PRT_005');
    await expectRejected(t, () => send(as.partnerA, 'GET', '/partners/PA/partnerAPIKeyRequests/no-such-request'), 'PMS_PRT_006');
  });

  it('PMS_PMP_011 / 012: approval', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    await expectRejected(t, () => decide(as.managerX, 'no-such-request'), 'PMS_PMP_011');
    await expectRejected(t, () => decide(as.managerY, apiRequestId), 'PMS_PMP_012');
    await expectRejected(t, () => decide(as.managerX, apiRequestId, 'Maybe'), 'PMS_COR_002');
    await expectRejected(t, () => decide(as.partnerA, apiRequestId), 'KER-ATH-403');
    expect((await t.platform.deps.prisma.apiKeyRequest.findUniqueOrThrow({ where: { id: apiRequestId } })).status).toBe('in-progress');
    await ok(decide(as.managerX, apiRequestId));
    await expectRejected(t, () => decide(as.managerX, apiRequestId, 'Rejected'), 'PMS_PMP_012');
    expect((await t.platform.deps.prisma.apiKeyRequest.findUniqueOrThrow({ where: { id: apiRequestId } })).status).toBe('Approved');
  });

  it('PMS_PMP_005 / 006 / 007: API key status', async () => {
    const { key } = await approvedKey();
    await expectRejected(t, () => send(as.managerX, 'PATCH', `/pmpartners/NO-SUCH/${key}`, { status: 'De-Active' }), 'PMS_PMP_005');
    await expectRejected(t, () => send(as.managerY, 'PATCH', `/pmpartners/PA/${key}`, { status: 'De-Active' }), 'PMS_PMP_006');
    await expectRejected(t, () => send(as.managerX, 'PATCH', '/pmpartners/PA/NotAKeyOfAnyone0000000000000000', { status: 'De-Active' }), 'PMS_PMP_007');
    // The key of another partner, even in the same group, is not this partner's key.
    await expectRejected(t, () => send(as.managerX, 'PATCH', `/pmpartners/PB/${key}`, { status: 'De-Active' }), 'PMS_PMP_007');
    expect((await t.platform.deps.services.partners.findApiKey(key))?.status).toBe('Active');
  });

  it('PMS_PMP_008 / 009 / 010 / 014: policy mapping', async () => {
    const { key } = await approvedKey();
    const move = (who: Login, partnerId: string, oldPolicyID: string, newPolicyID: string) =>
      send(who, 'POST', `/pmpartners/${partnerId}/${key}`, { oldPolicyID, newPolicyID });
    await expectRejected(t, () => move(as.managerX, 'PA', 'pol-b', 'pol-b'), 'PMS_PMP_008');
    await expectRejected(t, () => move(as.managerY, 'PA', 'pol-a', 'pol-y'), 'PMS_PMP_009');
    await expectRejected(t, () => move(as.managerX, 'PA', 'pol-a', 'pol-y'), 'PMS_PMP_010');
    await expectRejected(t, () => move(as.managerX, 'PA', 'pol-a', 'no-such-policy'), 'PMS_PMP_014');
    await expectRejected(t, () => move(as.managerX, 'NO-SUCH', 'pol-a', 'pol-b'), 'PMS_PMP_005');
    await expectRejected(t, () => send(as.managerX, 'POST', `/pmpartners/PA/${key}`, { oldPolicyID: 'pol-a' }), 'PMS_COR_001');
    expect((await t.platform.deps.services.partners.findApiKey(key))?.policyId).toBe('pol-a');
  });

  it('PMS_PMP_004: a manager whose groups have no partners', async () => {
    await expectRejected(t, () => send(as.managerEmpty, 'GET', '/pmpartners'), 'PMS_PMP_004');
    await expectRejected(t, () => send(as.partnerA, 'GET', '/pmpartners'), 'KER-ATH-403');
  });
});

describe("partners: nobody reaches another's records", () => {
  it("partner B cannot read or use partner A's request over REST", async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    await expectRejected(t, () => send(as.partnerB, 'GET', `/partners/PA/partnerAPIKeyRequests/${apiRequestId}`), 'KER-ATH-403');
    await expectRejected(t, () => send(as.partnerB, 'GET', `/partners/PB/partnerAPIKeyRequests/${apiRequestId}`), 'PMS_PRT_006');
    await expectRejected(t, () => requestKey(as.partnerB, 'PA'), 'KER-ATH-403');
    // A manager of another group neither.
    await expectRejected(t, () => send(as.managerY, 'GET', `/partners/PA/partnerAPIKeyRequests/${apiRequestId}`), 'KER-ATH-403');
  });

  it('the portal graph shows a partner only its own records, a manager only its groups', async () => {
    const { requestId } = await approvedKey();
    await ok(requestKey(as.partnerB, 'PB'));
    const list =
      '{ partners { totalCount edges { node { id status login { userId } } } } apiKeyRequests { totalCount edges { node { id partnerId status partner { id } apiKey { id keyHint partner { id } } } } } }';
    const byB = (await gql(as.partnerB, list)).data;
    expect(byB.partners.edges.map((e: any) => e.node.id)).toEqual(['PB']);
    expect(byB.apiKeyRequests.edges.every((e: any) => e.node.partnerId === 'PB' && e.node.partner.id === 'PB')).toBe(true);
    expect(byB.apiKeyRequests.totalCount).toBe(byB.apiKeyRequests.edges.length);
    const byA = (await gql(as.partnerA, list)).data;
    expect(byA.partners.edges.map((e: any) => e.node)).toEqual([{ id: 'PA', status: 'ACTIVE', login: { userId: 'partner-a' } }]);
    const approvedA = byA.apiKeyRequests.edges.find((e: any) => e.node.id === requestId).node;
    expect(approvedA.apiKey).toEqual({ id: expect.any(String), keyHint: expect.stringMatching(/^.{4}$/), partner: { id: 'PA' } });

    const byY = (await gql(as.managerY, list)).data;
    expect(byY.partners.edges.map((e: any) => e.node.id)).toEqual(['PC']);
    expect(byY.apiKeyRequests.totalCount).toBe(0);
    const byX = (await gql(as.managerX, '{ partners(filter: {policyGroupId: "group-x"}) { edges { node { id } } } }')).data;
    expect(byX.partners.edges.map((e: any) => e.node.id).sort()).toEqual(expect.arrayContaining(['PA', 'PB']));
    expect(byX.partners.edges.map((e: any) => e.node.id)).not.toContain('PC');

    // Filters: pending review, by partner.
    const pending = (await gql(as.managerX, '{ apiKeyRequests(filter: {status: IN_PROGRESS, partnerId: "PB"}) { edges { node { partnerId status } } } }')).data;
    expect(pending.apiKeyRequests.edges.length).toBeGreaterThan(0);
    expect(pending.apiKeyRequests.edges.every((e: any) => e.node.partnerId === 'PB' && e.node.status === 'IN_PROGRESS')).toBe(true);
    const leaked = (await gql(as.partnerB, '{ apiKeyRequests(filter: {partnerId: "PA"}) { totalCount edges { node { id } } } }')).data;
    expect(leaked.apiKeyRequests).toEqual({ totalCount: 0, edges: [] });

    // References by key: A's request, key and partner resolve for A, not for B.
    const keyId = approvedA.apiKey.id;
    const schema = await t.platform.buildSubgraph(partnerComponent);
    const entities = async (who: Login) =>
      graphql({
        schema,
        source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Partner { id } ... on ApiKeyRequest { id } ... on ApiKey { id keyHint } } }',
        variableValues: {
          r: [
            { __typename: 'Partner', id: 'PA' },
            { __typename: 'ApiKeyRequest', id: requestId },
            { __typename: 'ApiKey', id: keyId },
          ],
        },
        contextValue: createRequestContext({ headers: who.cookie, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
    const forA = await entities(as.partnerA);
    expect(forA.errors).toBeUndefined();
    expect(forA.data!._entities).toEqual([{ id: 'PA' }, { id: requestId }, { id: keyId, keyHint: expect.any(String) }]);
    const forB = await entities(as.partnerB);
    expect(forB.errors).toBeUndefined();
    expect(forB.data!._entities).toEqual([null, null, null]);
    expect((await entities(as.managerY)).data!._entities).toEqual([null, null, null]);
  });

  it('partner B cannot change or read partner A through GraphQL mutations and queries', async () => {
    const { apiRequestId } = await ok(requestKey(as.partnerA, 'PA'));
    expect(
      codeOf(
        await gql(
          as.partnerB,
          'mutation { requestPartnerApiKey(input: { partnerId: "PA", policyName: "pol-a" }) { apiKeyRequestSubmitted { apiRequestId } userErrors { field code message } } }',
        ),
      ),
    ).toBe('KER-ATH-403');
    expect(codeOf(await gql(as.partnerB, `{ apiKeyRequestState(partnerId: "PA", apiKeyReqId: "${apiRequestId}") { apikeyReqStatus } }`))).toBe('KER-ATH-403');
    expect(
      codeOf(
        await gql(
          as.partnerB,
          `mutation { decideApiKeyRequest(input: { apiKeyReqId: "${apiRequestId}", status: APPROVED }) { apiKeyDecision { partnerAPIKey } userErrors { field code message } } }`,
        ),
      ),
    ).toBe('KER-ATH-403');
    expect(
      codeOf(
        await gql(
          as.managerY,
          `mutation { decideApiKeyRequest(input: { apiKeyReqId: "${apiRequestId}", status: APPROVED }) { apiKeyDecision { partnerAPIKey } userErrors { field code message } } }`,
        ),
      ),
    ).toBe('PMS_PMP_012');
    expect(
      codeOf(
        await gql(
          as.managerY,
          'mutation { updatePartnerStatus(input: { partnerId: "PA", status: DE_ACTIVE }) { partnerMessage { message } userErrors { field code message } } }',
        ),
      ),
    ).toBe('PMS_PMP_006');
    expect(codeOf(await gql(as.resident, '{ partners { totalCount } }'))).toBe('KER-ATH-403');
  });
});
