import { graphql } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { partner as partnerComponent } from '../../subgraphs/partner/index.js';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';
import { refusalCode as codeOf } from '../support/refusals.js';

const BASE = '/partnermanagement/v1/policies';
let t: TestPlatform;
useTestPlatform({}, (platform, adminCookie) => {
  t = platform;
  as.admin = { token: '', cookie: adminCookie, bearer: {} };
});

const as: Record<string, Login> = {};
const groups: Record<string, string> = {};

const createUser = (userId: string, roles: string[]) => userLogin(t, userId, roles);

const send = (who: Login, method: string, path: string, body?: unknown) =>
  t.request(method, BASE + path, { body: body === undefined ? undefined : envelopeOf(body), headers: who.cookie });
const ok = async (call: Promise<{ json: any }>) => {
  const { json } = await call;
  expect(json.errors, JSON.stringify(json.errors)).toEqual([]);
  return json.response;
};
const gql = (who: Login, query: string, variables: Record<string, unknown> = {}) => t.graphql(query, variables, who.bearer);

/** The same content in the graph's spelling. */
const graphOf = (wire: typeof content) => ({
  ...wire,
  authPolicies: wire.authPolicies.map((policy) => ({ ...policy, authType: policy.authType.toUpperCase(), authSubType: policy.authSubType ?? null })),
});
const content = {
  authPolicies: [
    { authType: 'otp', mandatory: true },
    { authType: 'bio', authSubType: 'FINGER', mandatory: false },
    { authType: 'kyc', mandatory: false },
  ],
  allowedKycAttributes: [
    { attributeName: 'fullName', required: true },
    { attributeName: 'photo', required: false },
  ],
};
const graphContent = graphOf(content);
const policyBody = (name: string, over: Record<string, unknown> = {}) => ({ name, desc: `${name} policy`, policies: content, ...over });
const create = (who: Login, name: string, over: Record<string, unknown> = {}) => send(who, 'POST', '', policyBody(name, over));
const created = async (who: Login, name: string, over: Record<string, unknown> = {}): Promise<any> => (await ok(create(who, name, over))).policies[0];
const rowOf = (id: string) => t.platform.deps.prisma.policy.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  as.admin!.bearer = bearer(await t.adminToken());
  for (const name of ['group-a', 'group-b']) groups[name] = (await ok(send(as.admin!, 'POST', '/group/new', { name, desc: `${name} desc` }))).id;
  as.pmA = await createUser('pm-a', ['POLICYMANAGER']);
  as.pmB = await createUser('pm-b', ['POLICYMANAGER']);
  as.pmTwo = await createUser('pm-two', ['POLICYMANAGER']);
  as.pmNone = await createUser('pm-none', ['POLICYMANAGER']);
  as.partnerManagerA = await createUser('ptm-a', ['PARTNERMANAGER']);
  as.partner = await createUser('partner-1', ['PARTNER']);
  as.resident = await createUser('resident-1', ['RESIDENT']);
  const map = (group: string, userId: string) => ok(send(as.admin!, 'POST', `/group/${groups[group]}/managers`, { userId }));
  await map('group-a', 'pm-a');
  await map('group-b', 'pm-b');
  await map('group-a', 'pm-two');
  await map('group-b', 'pm-two');
  await map('group-a', 'ptm-a');
});

describe('policy groups', () => {
  it('creates groups, lists them, maps and unmaps managers', async () => {
    const { json } = await send(as.admin!, 'POST', '/group/new', { name: 'group-c', desc: 'third' });
    expect(json.id).toBe('platform.partnermanagement.policy.group.create');
    expect(json.errors).toEqual([]);
    expect(json.response).toMatchObject({ name: 'group-c', desc: 'third', is_Active: true, cr_by: 'admin', up_by: null, upd_dtimes: null });
    expect(json.response.cr_dtimes).toMatch(TIMESTAMP);
    const all: any[] = await ok(send(as.admin!, 'GET', '/group/all'));
    expect(all.map((group) => group.name)).toEqual(expect.arrayContaining(['default', 'group-a', 'group-b', 'group-c']));

    const groupC = json.response.id as string;
    const mapped = await ok(send(as.admin!, 'POST', `/group/${groupC}/managers`, { userId: 'pm-none' }));
    expect(mapped).toMatchObject({ id: groupC, managers: ['pm-none'] });
    // Mapping again changes nothing.
    const before = await t.snapshot();
    expect((await ok(send(as.admin!, 'POST', `/group/${groupC}/managers`, { userId: 'pm-none' }))).managers).toEqual(['pm-none']);
    expect(await t.snapshot()).toEqual(before);
    const removed = await ok(send(as.admin!, 'DELETE', `/group/${groupC}/managers/pm-none`));
    expect(removed.managers).toEqual([]);

    await expectRejected(t, () => send(as.admin!, 'POST', '/group/new', { name: 'group-c' }), 'PMS_COR_002');
    await expectRejected(t, () => send(as.admin!, 'POST', '/group/new', { desc: 'no name' }), 'PMS_COR_001');
    await expectRejected(t, () => send(as.admin!, 'POST', `/group/${groupC}/managers`, { userId: 'nobody' }), 'PMS_POL_001');
    await expectRejected(t, () => send(as.admin!, 'POST', `/group/${groupC}/managers`, { userId: 'resident-1' }), 'PMS_POL_001');
    await expectRejected(t, () => send(as.admin!, 'POST', '/group/no-such-group/managers', { userId: 'pm-a' }), 'PMS_COR_002');
    await expectRejected(t, () => send(as.admin!, 'DELETE', `/group/${groupC}/managers/pm-a`), 'PMS_POL_001');
    // Groups and their managers are the admins' business.
    await expectRejected(t, () => send(as.pmA!, 'POST', '/group/new', { name: 'mine' }), 'KER-ATH-403');
    await expectRejected(t, () => send(as.pmA!, 'POST', `/group/${groupC}/managers`, { userId: 'pm-a' }), 'KER-ATH-403');
    await expectRejected(t, () => send(as.pmA!, 'GET', '/group/all'), 'KER-ATH-403');
  });
});

describe('policies', () => {
  it('run their life cycle through REST: create, read, update, deactivate', async () => {
    const { json } = await create(as.pmA!, 'pol-life');
    expect(json.id).toBe('platform.partnermanagement.policy.create');
    expect(json.errors).toEqual([]);
    const [policy] = json.response.policies;
    expect(policy).toMatchObject({ name: 'pol-life', desc: 'pol-life policy', is_Active: true, cr_by: 'pm-a', up_by: null, upd_dtimes: null });
    expect(policy.cr_dtimes).toMatch(TIMESTAMP);
    expect(policy.policies).toEqual({
      authPolicies: [
        { authType: 'otp', authSubType: null, mandatory: true },
        { authType: 'bio', authSubType: 'FINGER', mandatory: false },
        { authType: 'kyc', authSubType: null, mandatory: false },
      ],
      allowedKycAttributes: content.allowedKycAttributes,
    });
    expect((await rowOf(policy.id)).policyGroupId).toBe(groups['group-a']);

    const listed = await ok(send(as.pmA!, 'GET', ''));
    expect(listed.policies.map((p: any) => p.id)).toContain(policy.id);
    expect(await ok(send(as.pmA!, 'GET', `/${policy.id}`))).toEqual(policy);

    const updated = await ok(
      send(as.pmA!, 'PUT', `/${policy.id}`, { name: 'pol-life-2', desc: 'renamed', policies: { authPolicies: [{ authType: 'demo', mandatory: true }] } }),
    );
    expect(updated).toMatchObject({ id: policy.id, name: 'pol-life-2', desc: 'renamed', is_Active: true, cr_by: 'pm-a', up_by: 'pm-a' });
    expect(updated.upd_dtimes).toMatch(TIMESTAMP);
    expect(updated).not.toHaveProperty('policies');
    const read = await ok(send(as.pmA!, 'GET', `/${policy.id}`));
    expect(read.policies).toEqual({ authPolicies: [{ authType: 'demo', authSubType: null, mandatory: true }], allowedKycAttributes: [] });

    const off = await send(as.pmA!, 'PATCH', `/${policy.id}`, { status: 'De-Active' });
    expect(off.json.id).toBe('platform.partnermanagement.policy.update.status');
    expect(off.json.response.message).toMatch(/De-Active/);
    expect((await ok(send(as.pmA!, 'GET', `/${policy.id}`))).is_Active).toBe(false);
    expect((await t.platform.deps.services.policies.policyInGroup(policy.id))?.isActive).toBe(false);
    await ok(send(as.pmA!, 'PATCH', `/${policy.id}`, { status: 'Active' }));
    expect((await rowOf(policy.id)).isActive).toBe(true);
    expect(await t.platform.deps.services.policies.policyInGroup('no-such-policy')).toBeNull();
  });

  it('go to the named group, the only group of the manager, or for an admin the default group', async () => {
    const own = await created(as.pmTwo!, 'pol-two-b', { policyGroupName: 'group-b' });
    expect((await rowOf(own.id)).policyGroupId).toBe(groups['group-b']);
    const byAdmin = await created(as.admin!, 'pol-admin');
    expect((await rowOf(byAdmin.id)).policyGroupId).toBe('default');
    const named = await created(as.admin!, 'pol-admin', { policyGroupName: 'group-b' });
    expect((await rowOf(named.id)).policyGroupId).toBe(groups['group-b']);
    // The same name in another group is another policy.
    const again = await created(as.pmA!, 'pol-two-b');
    expect(again.id).not.toBe(own.id);
    // A manager of several groups names one.
    await expectRejected(t, () => create(as.pmTwo!, 'pol-unnamed'), 'PMS_COR_001');
    await expectRejected(t, () => create(as.admin!, 'pol-nowhere', { policyGroupName: 'no-such-group' }), 'PMS_COR_002');
  });

  it('are the portal graph: Policy and PolicyGroup entities, connections with filters', async () => {
    const made = await gql(
      as.pmA!,
      'mutation($p: PolicyContentInput!) { createPolicy(input: { name: "pol-graph", desc: "graph", policyGroupName: "group-a", policies: $p }) { policy { id name isActive createdBy { userId } policyGroup { name } policies { authPolicies { authType authSubType } } } userErrors { field code message } } }',
      { p: graphContent },
    );
    expect(made.errors).toBeUndefined();
    expect(made.data.createPolicy.policy.policies.authPolicies).toEqual([
      { authType: 'OTP', authSubType: null },
      { authType: 'BIO', authSubType: 'FINGER' },
      { authType: 'KYC', authSubType: null },
    ]);
    const id: string = made.data.createPolicy.policy.id;
    expect(made.data.createPolicy.policy).toMatchObject({ name: 'pol-graph', isActive: true, createdBy: { userId: 'pm-a' }, policyGroup: { name: 'group-a' } });
    await created(as.pmA!, 'pol-graph-off');
    const offId = (await t.platform.deps.prisma.policy.findFirstOrThrow({ where: { name: 'pol-graph-off' } })).id;
    expect(
      (
        await gql(
          as.pmA!,
          `mutation { setPolicyActive(input: { policyId: "${offId}", isActive: false }) { policy { isActive updatedBy { userId } } userErrors { field code message } } }`,
        )
      ).data.setPolicyActive.policy,
    ).toEqual({
      isActive: false,
      updatedBy: { userId: 'pm-a' },
    });
    const renamed = await gql(
      as.pmA!,
      `mutation { updatePolicy(input: { policyId: "${id}", desc: "graph, described" }) { policy { description name } userErrors { field code message } } }`,
    );
    expect(renamed.data.updatePolicy.policy).toEqual({ description: 'graph, described', name: 'pol-graph' });

    const filtered = await gql(as.admin!, '{ policies(filter: {nameContains: "POL-GRAPH", isActive: true}) { totalCount edges { node { id name } } } }');
    expect(filtered.data.policies).toEqual({ totalCount: 1, edges: [{ node: { id, name: 'pol-graph' } }] });
    const byGroup = await gql(as.admin!, '{ policies(filter: {policyGroupId: "default"}) { edges { node { name } } } }');
    expect(byGroup.data.policies.edges.map((e: any) => e.node.name)).toEqual(['pol-admin']);

    // Pages by cursor.
    const names: string[] = [];
    let after: string | null = null;
    do {
      const page: any = await gql(
        as.pmA!,
        'query($after: String) { policies(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } } }',
        {
          after,
        },
      );
      names.push(...page.data.policies.edges.map((e: any) => e.node.name));
      after = page.data.policies.pageInfo.hasNextPage ? page.data.policies.pageInfo.endCursor : null;
    } while (after);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe((await gql(as.pmA!, '{ policies { totalCount } }')).data.policies.totalCount);
    expect(names).toEqual(expect.arrayContaining(['pol-graph', 'pol-graph-off']));

    const grouped = await gql(
      as.admin!,
      '{ policyGroups(filter: {nameContains: "group-a"}) { totalCount edges { node { name managers { userId } policies(filter: {isActive: false}) { edges { node { name } } } } } } }',
    );
    expect(grouped.data.policyGroups.totalCount).toBe(1);
    const node = grouped.data.policyGroups.edges[0].node;
    expect(node.managers.map((m: any) => m.userId).sort()).toEqual(['pm-a', 'pm-two', 'ptm-a']);
    expect(node.policies.edges.map((e: any) => e.node.name)).toEqual(['pol-graph-off']);
  });

  it('stay inside their groups: a manager of group B neither reads nor changes group A policies, on any path', async () => {
    const policy = await created(as.pmA!, 'pol-private');
    const before = await rowOf(policy.id);
    await expectRejected(t, () => send(as.pmB!, 'GET', `/${policy.id}`), 'PMS_POL_010');
    await expectRejected(t, () => send(as.pmB!, 'PUT', `/${policy.id}`, { name: 'stolen' }), 'PMS_POL_010');
    await expectRejected(t, () => send(as.pmB!, 'PATCH', `/${policy.id}`, { status: 'De-Active' }), 'PMS_POL_010');
    expect(await rowOf(policy.id)).toEqual(before);
    expect((await ok(send(as.pmB!, 'GET', ''))).policies.map((p: any) => p.id)).not.toContain(policy.id);
    expect(codeOf(await gql(as.pmB!, `{ policy(policyId: "${policy.id}") { id } }`))).toBe('PMS_POL_010');
    expect(
      codeOf(
        await gql(
          as.pmB!,
          `mutation { setPolicyActive(input: { policyId: "${policy.id}", isActive: false }) { policy { id } userErrors { field code message } } }`,
        ),
      ),
    ).toBe('PMS_POL_010');

    // Connections: B's manager sees group B only, with its policies only.
    const seen = (await gql(as.pmB!, '{ policies(first: 100) { totalCount edges { node { id policyGroup { name } } } } }')).data.policies;
    expect(seen.edges.length).toBe(seen.totalCount);
    expect(seen.edges.every((e: any) => e.node.policyGroup.name === 'group-b')).toBe(true);
    const leaked = (await gql(as.pmB!, `{ policies(filter: {policyGroupId: "${groups['group-a']}"}) { totalCount edges { node { id } } } }`)).data.policies;
    expect(leaked).toEqual({ totalCount: 0, edges: [] });
    const ownGroups = (await gql(as.pmB!, '{ policyGroups { edges { node { name } } } }')).data.policyGroups.edges.map((e: any) => e.node.name);
    expect(ownGroups).toEqual(['group-b']);

    // References by key, as the gateway fetches entities.
    const schema = await t.platform.buildSubgraph(partnerComponent);
    const entities = async (who: Login) =>
      graphql({
        schema,
        source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Policy { id name } ... on PolicyGroup { id name } } }',
        variableValues: {
          r: [
            { __typename: 'Policy', id: policy.id },
            { __typename: 'PolicyGroup', id: groups['group-a'] },
          ],
        },
        contextValue: createRequestContext({ headers: who.cookie, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
    const forA = await entities(as.pmA!);
    expect(forA.errors).toBeUndefined();
    expect(forA.data!._entities).toEqual([
      { id: policy.id, name: 'pol-private' },
      { id: groups['group-a'], name: 'group-a' },
    ]);
    const forB = await entities(as.pmB!);
    expect(forB.errors).toBeUndefined();
    expect(forB.data!._entities).toEqual([null, null]);

    // A partner manager of group A reads its policies but writes none.
    expect((await ok(send(as.partnerManagerA!, 'GET', `/${policy.id}`))).id).toBe(policy.id);
    await expectRejected(t, () => send(as.partnerManagerA!, 'PUT', `/${policy.id}`, { name: 'pm-renamed' }), 'KER-ATH-403');
    await expectRejected(t, () => create(as.partnerManagerA!, 'pol-by-partner-manager'), 'KER-ATH-403');
  });

  it('give every PMS_POL code and change nothing', async () => {
    const policy = await created(as.pmA!, 'pol-codes');
    await created(as.pmA!, 'pol-codes-other');
    const before = await rowOf(policy.id);
    // PMS_POL_001: the caller manages no policy group.
    await expectRejected(t, () => create(as.pmNone!, 'pol-none'), 'PMS_POL_001');
    await expectRejected(t, () => send(as.pmNone!, 'PUT', `/${policy.id}`, { name: 'x' }), 'PMS_POL_001');
    await expectRejected(t, () => send(as.pmNone!, 'GET', ''), 'PMS_POL_001');
    // PMS_POL_002: a group the caller does not manage (or none of that name).
    await expectRejected(t, () => create(as.pmA!, 'pol-elsewhere', { policyGroupName: 'group-b' }), 'PMS_POL_002');
    await expectRejected(t, () => create(as.pmA!, 'pol-elsewhere', { policyGroupName: 'no-such-group' }), 'PMS_POL_002');
    // PMS_POL_004: the name is taken in the group.
    await expectRejected(t, () => create(as.pmA!, 'pol-codes'), 'PMS_POL_004');
    await expectRejected(t, () => send(as.pmA!, 'PUT', `/${policy.id}`, { name: 'pol-codes-other' }), 'PMS_POL_004');
    // PMS_POL_005: a KYC attribute Document 1 does not list.
    const badKyc = { ...content, allowedKycAttributes: [{ attributeName: 'shoeSize', required: true }] };
    await expectRejected(t, () => create(as.pmA!, 'pol-005', { policies: badKyc }), 'PMS_POL_005');
    await expectRejected(t, () => send(as.pmA!, 'PUT', `/${policy.id}`, { policies: badKyc }), 'PMS_POL_005');
    // PMS_POL_006: an auth type or bio sub-type Document 1 does not list, or a sub-type on a non-bio type.
    for (const authPolicy of [
      { authType: 'sms', mandatory: true },
      { authType: 'bio', authSubType: 'PALM', mandatory: true },
      { authType: 'bio', mandatory: true },
      { authType: 'otp', authSubType: 'FINGER', mandatory: true },
    ]) {
      await expectRejected(t, () => create(as.pmA!, 'pol-006', { policies: { authPolicies: [authPolicy] } }), 'PMS_POL_006');
      await expectRejected(t, () => send(as.pmA!, 'PUT', `/${policy.id}`, { policies: { authPolicies: [authPolicy] } }), 'PMS_POL_006');
    }
    // PMS_POL_007: a kyc auth policy without attributes.
    const kycOnly = { authPolicies: [{ authType: 'kyc', mandatory: true }] };
    await expectRejected(t, () => create(as.pmA!, 'pol-007', { policies: kycOnly }), 'PMS_POL_007');
    await expectRejected(t, () => create(as.pmA!, 'pol-007', { policies: { ...kycOnly, allowedKycAttributes: [] } }), 'PMS_POL_007');
    await expectRejected(t, () => send(as.pmA!, 'PUT', `/${policy.id}`, { policies: kycOnly }), 'PMS_POL_007');
    // PMS_POL_008: no such policy.
    await expectRejected(t, () => send(as.pmA!, 'PUT', '/no-such-policy', { name: 'x' }), 'PMS_POL_008');
    await expectRejected(t, () => send(as.pmA!, 'PATCH', '/no-such-policy', { status: 'Active' }), 'PMS_POL_008');
    await expectRejected(t, () => send(as.pmA!, 'GET', '/no-such-policy'), 'PMS_POL_008');
    // PMS_POL_009: nothing to update.
    await expectRejected(t, () => send(as.pmA!, 'PUT', `/${policy.id}`, {}), 'PMS_POL_009');
    // PMS_POL_010: another group's policy.
    await expectRejected(t, () => send(as.pmB!, 'PUT', `/${policy.id}`, { desc: 'x' }), 'PMS_POL_010');
    // Missing and malformed fields.
    await expectRejected(t, () => send(as.pmA!, 'POST', '', { desc: 'no name', policies: content }), 'PMS_COR_001');
    await expectRejected(t, () => create(as.pmA!, 'pol-no-policies', { policies: undefined }), 'PMS_COR_001');
    await expectRejected(t, () => create(as.pmA!, 'pol-empty', { policies: { authPolicies: [] } }), 'PMS_COR_002');
    await expectRejected(t, () => create(as.pmA!, 'x'.repeat(200)), 'PMS_COR_002');
    await expectRejected(t, () => send(as.pmA!, 'PATCH', `/${policy.id}`, { status: 'Paused' }), 'PMS_COR_002');
    await expectRejected(t, () => send(as.pmA!, 'PATCH', `/${policy.id}`, {}), 'PMS_COR_001');
    expect(await rowOf(policy.id)).toEqual(before);
    // GraphQL gives the same codes.
    expect(
      codeOf(await gql(as.pmA!, `mutation { updatePolicy(input: { policyId: "${policy.id}" }) { policy { id } userErrors { field code message } } }`)),
    ).toBe('PMS_POL_009');
    const createG6 = async (authPolicy: Record<string, unknown>) =>
      codeOf(
        await gql(
          as.pmA!,
          'mutation($p: PolicyContentInput!) { createPolicy(input: { name: "pol-g6", desc: "d", policies: $p }) { policy { id } userErrors { field code message } } }',
          { p: { authPolicies: [authPolicy] } },
        ),
      );
    // A type the graph has no value for is refused by its enum; a modality on a type that takes none is PMS_POL_006.
    expect(await createG6({ authType: 'FLY', mandatory: true })).toBe('BAD_USER_INPUT');
    expect(await createG6({ authType: 'OTP', authSubType: 'FINGER', mandatory: true })).toBe('PMS_POL_006');
    expect(await createG6({ authType: 'BIO', mandatory: true })).toBe('PMS_POL_006');
  });

  it('are refused to partners and residents (KER-ATH-403), REST and GraphQL', async () => {
    const policy = await created(as.pmA!, 'pol-roles');
    for (const who of [as.partner!, as.resident!]) {
      await expectRejected(t, () => create(who, 'pol-intruder'), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'GET', ''), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'GET', `/${policy.id}`), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'PUT', `/${policy.id}`, { name: 'x' }), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'PATCH', `/${policy.id}`, { status: 'De-Active' }), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'POST', '/group/new', { name: 'intruders' }), 'KER-ATH-403');
      await expectRejected(t, () => send(who, 'GET', '/group/all'), 'KER-ATH-403');
      expect(codeOf(await gql(who, '{ policies { totalCount } }'))).toBe('KER-ATH-403');
      expect(codeOf(await gql(who, '{ policyGroups { totalCount } }'))).toBe('KER-ATH-403');
    }
    await expectRejected(t, () => t.request('GET', BASE, {}), 'KER-ATH-006');
  });

  it('have unique names per group under parallel creates: exactly one wins', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(as.pmA!, 'pol-race')));
    const codes = answers.map(({ json }) => (json.errors.length ? json.errors[0].errorCode : 'OK'));
    expect(codes.filter((code) => code === 'OK')).toHaveLength(1);
    expect(codes.filter((code) => code === 'PMS_POL_004')).toHaveLength(5);
    expect(await t.platform.deps.prisma.policy.count({ where: { name: 'pol-race' } })).toBe(1);
  });
});
