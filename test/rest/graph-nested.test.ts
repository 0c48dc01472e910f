// Nested lists of the portal graph are batched: a list under each row of a page costs one window
// query for the page of parents and, with totalCount, one grouped count, whatever the page size.
// Counted here in SQL statements at 1, 50 and 100 parents, with the content of each nested page
// checked against the same list asked for one parent alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';

const PARENTS = 100;
const SIZES = [1, 50, 100];
const statements: string[] = [];
let counting = false;
let db: TestDatabase;
let t: TestPlatform;
let admin: Record<string, string>;

beforeAll(async () => {
  db = await freshDatabase({ onQuery: (sql) => void (counting && statements.push(sql)) });
  // No job runner: its polls would be counted with the request's statements.
  t = await startTestPlatform({ JOBS_RUN: 'false' }, { database: db.database });
  admin = cookieHeader(await t.adminToken());
  const prisma = t.platform.deps.prisma;
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
  const misps = Array.from({ length: PARENTS }, (_, i) => `misp-${String(i).padStart(3, '0')}`);
  await prisma.misp.createMany({
    data: misps.map((id, i) => ({
      id,
      organizationName: `Nested ${i}`,
      nameKey: `nested ${i}`,
      emailId: `m${i}@example.org`,
      address: 'Street 1',
      status: 'Approved',
      createdBy: 'admin',
      createdAt: at(i),
    })),
  });
  // 1 to 7 keys each, some suspended: pages of 5 are full for some MISPs, short for others.
  await prisma.licenseKey.createMany({
    data: misps.flatMap((mispId, i) =>
      Array.from({ length: 1 + (i % 7) }, (_, k) => ({
        keyHash: `hash-${mispId}-${k}`,
        keyHint: `h${k}`,
        mispId,
        expiresAt: new Date(Date.now() + 86_400_000),
        status: k % 3 === 2 ? 'SUSPENDED' : 'ACTIVE',
        permissions: [],
        createdBy: 'admin',
        createdAt: at(1000 + k),
      })),
    ),
  });
  const users = Array.from({ length: PARENTS }, (_, i) => `nested-${String(i).padStart(3, '0')}`);
  await prisma.user.createMany({
    data: users.map((userId, i) => ({ userId, name: `Nested ${i}`, mail: `n${i}@example.org`, roles: ['REGISTRATION_OFFICER'], appIds: ['admin'] })),
  });
  // 0 to 4 logins each: active, expired and revoked ones.
  const soon = new Date(Date.now() + 3_600_000);
  const past = new Date(Date.now() - 3_600_000);
  await prisma.session.createMany({
    data: users.flatMap((subject, i) =>
      Array.from({ length: i % 5 }, (_, k) => ({
        subject,
        subjectType: 'user',
        appId: 'admin',
        createdAt: at(2000 + k),
        expiresAt: k === 1 ? past : soon,
        revokedAt: k === 3 ? past : null,
      })),
    ),
  });
  const groups = Array.from({ length: PARENTS }, (_, i) => `group-${String(i).padStart(3, '0')}`);
  await prisma.policyGroup.createMany({ data: groups.map((id, i) => ({ id, name: `nested group ${i}`, createdBy: 'admin', createdAt: at(i) })) });
  // 0 to 6 policies each; names with a literal underscore and percent sign, some inactive.
  await prisma.policy.createMany({
    data: groups.flatMap((policyGroupId, i) =>
      Array.from({ length: i % 7 }, (_, k) => ({
        id: `${policyGroupId}-p${k}`,
        policyGroupId,
        name: k % 2 ? `p_${k} 100%` : `px${k}`,
        description: 'nested',
        policies: { authPolicies: [], allowedKycAttributes: [] },
        isActive: k !== 3,
        createdBy: 'admin',
        createdAt: at(3000 + k),
      })),
    ),
  });
  // VIDs of identities (the list reached under `registrations { identity { vids } }`): 0 to 5 each, some revoked or expired.
  await prisma.vid.createMany({
    data: identities.flatMap((identityId, i) =>
      Array.from({ length: i % 6 }, (_, k) => ({
        id: `${identityId}-v${k}`,
        vidHash: `hash-${identityId}-${k}`,
        vidEncrypted: 'not read here',
        identityId,
        vidType: k % 2 ? 'Temporary' : 'Perpetual',
        status: k === 2 ? 'REVOKED' : 'ACTIVE',
        expiresAt: k === 4 ? new Date(Date.now() - 60_000) : null,
        createdBy: 'admin',
        createdAt: at(4000 + k),
      })),
    ),
  });
  await prisma.identityReadAudit.createMany({
    data: identities.flatMap((identityId, i) =>
      Array.from({ length: i % 4 }, (_, k) => ({
        id: `${identityId}-r${k}`,
        identityId,
        readBy: 'admin',
        roles: ['GLOBAL_ADMIN'],
        parts: ['identity'],
        lookup: 'UIN',
        readAt: at(5000 + k),
      })),
    ),
  });
  // Registrations with 0 to 8 transactions each (one per stage attempt).
  const rids = Array.from({ length: PARENTS }, (_, i) => `1000110001${String(i).padStart(5, '0')}20260101000000`);
  await prisma.registration.createMany({
    data: rids.map((rid) => ({
      rid,
      centreId: '10001',
      machineId: '10001',
      registrationType: 'NEW',
      packetHashValue: 'AB',
      packetSize: 1,
      supervisorStatus: 'APPROVED',
      langCode: 'eng',
      status: 'PROCESSING',
      syncedBy: 'admin',
      createdAt: at(6000),
      updatedAt: at(6000),
    })),
  });
  await prisma.registrationTransaction.createMany({
    data: rids.flatMap((rid, i) =>
      Array.from({ length: i % 9 }, (_, k) => ({
        id: `${rid}-t${k}`,
        rid,
        transactionTypeCode: 'UPLOAD_PACKET',
        statusCode: 'SUCCESS',
        langCode: 'eng',
        createdAt: at(7000 + k),
      })),
    ),
  });
});

const identities = Array.from({ length: PARENTS }, (_, i) => `identity-${String(i).padStart(3, '0')}`);

afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** The statements one GraphQL request sends, and its answer. */
async function counted(query: string, variables: Record<string, unknown> = {}) {
  statements.length = 0;
  counting = true;
  const result = await t.graphql(query, variables, admin);
  counting = false;
  expect(result.errors).toBeUndefined();
  return { data: result.data, statements: statements.length };
}

/** For each page size of parents, how many statements the request costs; equal for every size. */
async function flatAcrossSizes(query: string, ceiling: number): Promise<Record<number, number>> {
  const costs: Record<number, number> = {};
  await counted(query, { first: 1 }); // once first: what a request loads once (caches, the caller's session) is not the list's cost
  for (const first of SIZES) costs[first] = (await counted(query, { first })).statements;
  expect(new Set(Object.values(costs)).size, JSON.stringify(costs)).toBe(1);
  expect(costs[1]).toBeLessThanOrEqual(ceiling);
  return costs;
}

describe('a list nested under a page of parents', () => {
  const MISP_KEYS =
    'query($first: Int) { misps(first: $first) { edges { node { id licenseKeys(first: 5, filter: {status: ACTIVE}) { totalCount pageInfo { hasNextPage } edges { node { id status } } } } } } }';

  it('misps { licenseKeys }: the same number of statements for 1, 50 and 100 MISPs', async () => {
    // the MISPs' page, the keys' window query, their grouped count
    await flatAcrossSizes(MISP_KEYS, 3);
  });

  it('misps { licenseKeys }: each MISP its own page, filtered and counted, as asked for that MISP alone', async () => {
    const { data } = await counted(MISP_KEYS, { first: 100 });
    const edges = data.misps.edges as { node: { id: string; licenseKeys: unknown } }[];
    expect(edges).toHaveLength(PARENTS);
    for (const edge of edges.filter((_, i) => i % 13 === 0)) {
      const alone = await t.graphql(
        'query($id: String!) { licenseKeys(first: 5, filter: {MISPId: $id, status: ACTIVE}) { totalCount pageInfo { hasNextPage } edges { node { id status } } } }',
        { id: edge.node.id },
        admin,
      );
      expect(edge.node.licenseKeys).toEqual(alone.data.licenseKeys);
    }
    const sizes = edges.map((edge) => (edge.node.licenseKeys as { edges: unknown[]; totalCount: number }).edges.length);
    expect(Math.max(...sizes)).toBe(5);
    expect(Math.min(...sizes)).toBe(1);
  });

  const USER_SESSIONS =
    'query($first: Int) { users(first: $first, filter: {userId: "nested-"}) { edges { node { userId sessions(first: 2, filter: {status: ACTIVE}) { totalCount pageInfo { hasNextPage } edges { node { id status } } } } } } }';

  it('users { sessions }: the same number of statements for 1, 50 and 100 users', async () => {
    // the users' page, the sessions' window query, their grouped count
    await flatAcrossSizes(USER_SESSIONS, 3);
  });

  it('users { sessions }: each user its own logins, filtered and counted, as asked for that user alone', async () => {
    const { data } = await counted(USER_SESSIONS, { first: 100 });
    const edges = data.users.edges as { node: { userId: string; sessions: { totalCount: number } } }[];
    expect(edges).toHaveLength(PARENTS);
    for (const edge of edges.filter((_, i) => i % 11 === 0 || i % 5 === 4)) {
      const alone = await t.graphql(
        'query($id: String) { sessions(first: 2, filter: {subject: $id, subjectType: USER, status: ACTIVE}) { totalCount pageInfo { hasNextPage } edges { node { id status } } } }',
        { id: edge.node.userId },
        admin,
      );
      expect(edge.node.sessions).toEqual(alone.data.sessions);
    }
    expect(Math.max(...edges.map((edge) => edge.node.sessions.totalCount))).toBe(2);
  });

  const GROUP_POLICIES =
    'query($first: Int) { policyGroups(first: $first, filter: {nameContains: "nested group"}) { edges { node { id policies(first: 2, filter: {isActive: true, nameContains: "p_"}) { totalCount pageInfo { hasNextPage } edges { node { id name } } } } } } }';

  it('policyGroups { policies }: the same number of statements for 1, 50 and 100 groups', async () => {
    // the caller's groups, the groups' page, the policies' window query, their grouped count
    await flatAcrossSizes(GROUP_POLICIES, 4);
  });

  it('policyGroups { policies }: each group its own policies, filtered (a literal "_") and counted, as asked for that group alone', async () => {
    const { data } = await counted(GROUP_POLICIES, { first: 100 });
    const edges = data.policyGroups.edges as { node: { id: string; policies: { totalCount: number; edges: { node: { name: string } }[] } } }[];
    expect(edges).toHaveLength(PARENTS);
    for (const edge of edges.filter((_, i) => i % 7 === 6 || i % 17 === 0)) {
      const alone = await t.graphql(
        'query($id: ID) { policies(first: 2, filter: {policyGroupId: $id, isActive: true, nameContains: "p_"}) { totalCount pageInfo { hasNextPage } edges { node { id name } } } }',
        { id: edge.node.id },
        admin,
      );
      expect(edge.node.policies).toEqual(alone.data.policies);
    }
    // "p_" is literal: "px0", "px2" and "px4" are not matched, "p_1 100%" and "p_5 100%" are ("p_3 100%" is inactive).
    expect(Math.max(...edges.map((edge) => edge.node.policies.totalCount))).toBe(2);
    expect(edges.flatMap((edge) => edge.node.policies.edges.map((policy) => policy.node.name)).every((name) => name.startsWith('p_'))).toBe(true);
  });

  const REGISTRATION_TRANSACTIONS =
    'query($first: Int) { registrations(first: $first, filter: {centreId: "10001"}) { edges { node { registrationId transactions(first: 3) { totalCount pageInfo { hasNextPage } edges { node { id } } } } } } }';

  it('registrations { transactions }: the same number of statements for 1, 50 and 100 registrations', async () => {
    // the registrations' page, the transactions' window query, their grouped count
    await flatAcrossSizes(REGISTRATION_TRANSACTIONS, 3);
  });

  it('registrations { transactions }: each registration its own transactions, oldest first, counted', async () => {
    const { data } = await counted(REGISTRATION_TRANSACTIONS, { first: 100 });
    const edges = data.registrations.edges as { node: { registrationId: string; transactions: { totalCount: number; edges: { node: { id: string } }[] } } }[];
    expect(edges).toHaveLength(PARENTS);
    for (const { node } of edges) {
      const n = Number(node.registrationId.slice(10, 15)) % 9;
      expect(node.transactions.totalCount).toBe(n);
      expect(node.transactions.edges.map((edge) => edge.node.id)).toEqual(Array.from({ length: Math.min(3, n) }, (_, k) => `${node.registrationId}-t${k}`));
    }
  });

  it('pages into one parent after its cursor', async () => {
    const first = await t.graphql(
      '{ misps(first: 100) { edges { node { id licenseKeys(first: 2) { pageInfo { endCursor } edges { node { id } } } } } } }',
      {},
      admin,
    );
    const crowded = (
      first.data.misps.edges as { node: { id: string; licenseKeys: { pageInfo: { endCursor: string }; edges: { node: { id: string } }[] } } }[]
    ).find((edge) => edge.node.id === 'misp-006')!;
    const next = await t.graphql(
      'query($after: String) { misps(first: 100) { edges { node { id licenseKeys(first: 10, after: $after) { edges { node { id } } } } } } }',
      { after: crowded.node.licenseKeys.pageInfo.endCursor },
      admin,
    );
    const following = (next.data.misps.edges as { node: { id: string; licenseKeys: { edges: { node: { id: string } }[] } } }[]).find(
      (edge) => edge.node.id === 'misp-006',
    )!;
    const all = await t.graphql('{ licenseKeys(first: 100, filter: {MISPId: "misp-006"}) { edges { node { id } } } }', {}, admin);
    // The filter's newer name answers the same.
    const renamed = await t.graphql('{ licenseKeys(first: 100, filter: {mispId: "misp-006"}) { edges { node { id } } } }', {}, admin);
    expect(renamed.data).toEqual(all.data);
    expect([...crowded.node.licenseKeys.edges, ...following.node.licenseKeys.edges].map((edge) => edge.node.id)).toEqual(
      all.data.licenseKeys.edges.map((edge: { node: { id: string } }) => edge.node.id),
    );
  });
});

describe('a nested list as its storage serves it', () => {
  it("Identity.vids: one window query and one grouped count for 1, 50 or 100 identities, each page the identity's own", async () => {
    const list = t.platform.deps.services.vids.ofIdentities({ status: 'ACTIVE' });
    for (const size of SIZES) {
      const ids = identities.slice(0, size);
      statements.length = 0;
      counting = true;
      const [pages, counts] = await Promise.all([list.pages(ids, 3), list.counts(ids)]);
      counting = false;
      expect(statements).toHaveLength(2);
      for (const id of ids.filter((_, i) => i % 7 === 5 || i < 6)) {
        const alone = await list.after(id, { take: 3 });
        expect((pages.get(id) ?? []).map((row) => row.id)).toEqual(alone.map((row) => row.id));
        expect(counts.get(id) ?? 0).toBe((await list.after(id, { take: 100 })).length);
      }
    }
    // Five VIDs: the revoked and the expired one are not ACTIVE.
    expect((await list.counts(['identity-005'])).get('identity-005')).toBe(3);
  });

  it("Identity.reads: one window query and one grouped count for 1, 50 or 100 identities, each page the identity's own", async () => {
    const list = t.platform.deps.services.identities.readsOfIdentities();
    for (const size of SIZES) {
      const ids = identities.slice(0, size);
      statements.length = 0;
      counting = true;
      const [pages, counts] = await Promise.all([list.pages(ids, 2), list.counts(ids)]);
      counting = false;
      expect(statements).toHaveLength(2);
      for (const id of ids.slice(0, 8)) {
        expect((pages.get(id) ?? []).map((row) => row.id)).toEqual((await list.after(id, { take: 2 })).map((row) => row.id));
        expect(counts.get(id) ?? 0).toBe(Number(id.slice(-3)) % 4);
      }
    }
  });
});
