// User text reaching LIKE: `%`, `_` and `\` in a filter match only themselves, by every filter
// outside master data's search and partner management (tested with them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestPlatform, type TestPlatform } from '../support/platform.js';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }); // languages for the document categories
  admin = bearer(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

describe('filters on user text', () => {
  it('users and clients: a part of an id with % or _ matches that text only, never every row', async () => {
    for (const userId of ['like_a1', 'likeXa1', 'like.b1']) {
      const created = await t.graphql(
        'mutation($u: ID!) { createUser(input: {userId: $u, roles: [RESIDENT], appIds: ["resident"]}) { user { userId } userErrors { field code message } } }',
        { u: userId },
        admin,
      );
      expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    }
    for (const clientId of ['client_a1', 'clientXa1']) {
      const created = await t.graphql(
        'mutation($c: ID!) { createClient(input: {clientId: $c, roles: [RESIDENT]}) { clientCredentials { clientId } userErrors { field code message } } }',
        { c: clientId },
        admin,
      );
      expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    }
    const users = async (part: string) =>
      (await t.graphql('query($p: String!) { users(first: 50, filter: {userId: $p}) { edges { node { userId } } } }', { p: part }, admin)).data.users.edges.map(
        (edge: { node: { userId: string } }) => edge.node.userId,
      );
    expect(await users('like_')).toEqual(['like_a1']);
    const everyRow = await t.graphql('query { users(first: 50, filter: {userId: "%"}) { edges { node { userId } } } }', {}, admin);
    expect(everyRow.data?.users.edges ?? []).toEqual([]);
    const clients = (
      await t.graphql('query { clients(first: 50, filter: {clientId: "client_"}) { edges { node { clientId } } } }', {}, admin)
    ).data.clients.edges.map((edge: { node: { clientId: string } }) => edge.node.clientId);
    expect(clients).toEqual(['client_a1']);
  });

  it('document categories: nameContains with % or _ matches that text only', async () => {
    for (const [code, name] of [
      ['LK1', 'Proof 100% sure'],
      ['LK2', 'Proof 100 sure'],
      ['LK3', 'Proof_of_stay'],
      ['LK4', 'ProofXofXstay'],
    ]) {
      const created = await t.graphql(
        'mutation($c: String!, $n: String!) { createDocumentCategory(input: {code: $c, langCode: "eng", name: $n, isActive: true}) { documentCategory { code } userErrors { field code message } } }',
        { c: code, n: name },
        admin,
      );
      expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    }
    const named = async (part: string) =>
      (
        await t.graphql('query($p: String!) { documentCategories(first: 50, filter: {nameContains: $p}) { edges { node { code } } } }', { p: part }, admin)
      ).data.documentCategories.edges
        .map((edge: { node: { code: string } }) => edge.node.code)
        .sort();
    expect(await named('0%')).toEqual(['LK1']);
    expect(await named('f_of')).toEqual(['LK3']);
  });
});
