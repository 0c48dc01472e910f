// Global object identification: every entity a subgraph marks @node answers a nodeId, and
// node(id:)/nodes(ids:) refetch it through the gateway whichever subgraph owns it. The node door
// is never weaker than the entity's own: its lookup's role rule, then the owner's scope.
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeNodeId } from '../../lib/graph/nodes.js';
import { pmsCalls } from '../support/pms.js';
import { bearer, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';
import { type Login, userLogin } from '../support/users.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});
const { send, ok } = pmsCalls(() => t);

let admin: Record<string, string>;
let partnerA: Login;
let partnerB: Login;
beforeAll(async () => {
  admin = bearer(await t.adminToken());
  partnerA = await userLogin(t, 'node-partner-a', ['PARTNER']);
  partnerB = await userLogin(t, 'node-partner-b', ['PARTNER']);
  const registration = { contactNumber: '9876543210', emailId: 'node@example.org', address: '1 Node Lane', policyGroup: 'default' };
  await ok(send(partnerA.cookie, 'POST', '/partners', { partnerId: 'NODE-A', organizationName: 'Node Bank A', ...registration }));
  await ok(send(partnerB.cookie, 'POST', '/partners', { partnerId: 'NODE-B', organizationName: 'Node Bank B', ...registration }));
});

const nodeQuery = `query($id: ID!) {
  node(id: $id) {
    __typename nodeId
    ... on User { userId name }
    ... on RegistrationCentre { id langCode centreName: name }
    ... on Partner { id organizationName }
  }
}`;

describe('node(id:)', () => {
  it('refetches an entity by the nodeId it answered, whichever subgraph owns it', async () => {
    const listed = await t.graphql(
      '{ registrationCentres(first: 1) { edges { node { id langCode name nodeId } } } user(userId: "admin") { nodeId name } }',
      {},
      admin,
    );
    expect(listed.errors).toBeUndefined();
    const centre = listed.data.registrationCentres.edges[0].node;
    expect(centre.nodeId).toBe(encodeNodeId('RegistrationCentre', [centre.id, centre.langCode]));
    const again = await t.graphql(nodeQuery, { id: centre.nodeId }, admin);
    expect(again.errors).toBeUndefined();
    expect(again.data.node).toEqual({
      __typename: 'RegistrationCentre',
      nodeId: centre.nodeId,
      id: centre.id,
      langCode: centre.langCode,
      centreName: centre.name,
    });
    const user = await t.graphql(nodeQuery, { id: listed.data.user.nodeId }, admin);
    expect(user.data.node).toMatchObject({ __typename: 'User', userId: 'admin', name: listed.data.user.name });
  });

  it('answers nodes(ids:) in their order, a refusal or a malformed id nulling only its own entry', async () => {
    const partner = encodeNodeId('Partner', ['NODE-A']);
    const user = encodeNodeId('User', ['admin']);
    const answer = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename nodeId } }', { ids: [partner, 'not-an-id', user] }, admin);
    expect(answer.data.nodes).toEqual([{ __typename: 'Partner', nodeId: partner }, null, { __typename: 'User', nodeId: user }]);
    expect(answer.errors.map((error: { path: unknown[] }) => error.path)).toEqual([['nodes', 1]]);
    const tooMany = await t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', { ids: Array.from({ length: 101 }, () => user) }, admin);
    expect(refusalCode(tooMany)).toBe('BAD_USER_INPUT');
  });

  it('refuses an id it did not make, naming no driver and changing nothing', async () => {
    const forged = [
      'x'.repeat(1000),
      Buffer.from('Nothing:["a"]').toString('base64url'),
      Buffer.from('User:{"userId":"admin"}').toString('base64url'),
      Buffer.from('User:["admin","extra"]').toString('base64url'),
      Buffer.from('Holiday:["1","eng"]').toString('base64url'),
      Buffer.from('User:[""]').toString('base64url'),
      'a+b/c==',
    ];
    const before = await t.snapshot();
    for (const id of forged) {
      const answer = await t.graphql(nodeQuery, { id }, admin);
      expect(answer.data.node).toBeNull();
      expect(refusalCode(answer)).toBe('BAD_USER_INPUT');
      expect(answer.errors[0].message).toBe('id is not a global id this platform gave out');
    }
    expect(await t.snapshot()).toEqual(before);
  });

  it('answers null for the id of nothing', async () => {
    const answer = await t.graphql(nodeQuery, { id: encodeNodeId('User', ['nobody-at-all']) }, admin);
    expect(answer.data?.node ?? null).toBeNull();
  });
});

describe('the node door is never weaker than the entity’s own', () => {
  it('turns away a caller without a token', async () => {
    const answer = await t.graphql(nodeQuery, { id: encodeNodeId('User', ['admin']) }, {});
    expect(answer.data?.node ?? null).toBeNull();
    expect(refusalCode(answer)).toBe('KER-ATH-006');
  });

  it("applies the entity's lookup rule, not the looser rule of its references", async () => {
    // Any signed-in caller may follow a link to a User, but only an administrator looks one up.
    const answer = await t.graphql(nodeQuery, { id: encodeNodeId('User', ['admin']) }, partnerA.bearer);
    expect(answer.data.node).toBeNull();
    expect(refusalCode(answer)).toBe('KER-ATH-403');
    // Registration processing follows links to identities; looking one up is the ID repository's.
    const processor = await t.clientToken(['REGISTRATION_PROCESSOR']);
    const identity = await t.graphql(
      'query($id: ID!) { node(id: $id) { nodeId } }',
      { id: encodeNodeId('Identity', ['any-identity']) },
      bearer(processor.token),
    );
    expect(refusalCode(identity)).toBe('KER-ATH-403');
  });

  it("keeps a partner within its own records: another partner's id answers nothing of it", async () => {
    const own = await t.graphql(nodeQuery, { id: encodeNodeId('Partner', ['NODE-A']) }, partnerA.bearer);
    expect(own.data.node).toEqual({ __typename: 'Partner', nodeId: encodeNodeId('Partner', ['NODE-A']), id: 'NODE-A', organizationName: 'Node Bank A' });
    const other = await t.graphql(nodeQuery, { id: encodeNodeId('Partner', ['NODE-B']) }, partnerA.bearer);
    expect(other.data?.node ?? null).toBeNull();
    expect(JSON.stringify(other)).not.toContain('Node Bank B');
  });
});
