// A portal screen in one query: an identity with its VIDs, its authentication locks and its read
// trail, filtered and ordered, as the repository's operator (ID_REPOSITORY) who owns the screen.
import { beforeAll, describe, expect, it } from 'vitest';
import { idrepoCalls, newRid } from '../support/identities.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { refusalCode } from '../support/refusals.js';

let t: TestPlatform;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform) => {
  t = platform;
});

const { send, ok, vidCall, newUin, create } = idrepoCalls(() => t);
let processor: Record<string, string>;
let ida: Record<string, string>;
let idaClient: string;
let operator: Record<string, string>;
let uin: string;
let identityId: string;

const SCREEN = `query($uin: String, $reads: IdentityReadFilter, $order: IdentityReadOrder) {
  identity(uin: $uin) {
    id status registrationId
    vids(first: 10) { totalCount edges { node { id type status } } }
    authTypeLocks { authType authSubType isLocked }
    reads(first: 10, filter: $reads, orderBy: $order) { totalCount edges { node { readBy lookup parts readAt } } }
  }
}`;

beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  const idaLogin = await t.clientToken(['ID_AUTHENTICATION'], 'ida');
  ida = cookieHeader(idaLogin.token);
  idaClient = idaLogin.clientId;
  operator = cookieHeader((await t.clientToken(['ID_REPOSITORY'], 'admin')).token);
  uin = newUin();
  await ok(create(processor, uin, newRid()));
  identityId = (await t.platform.deps.services.identities.find({ uin })).id;
  await ok(vidCall(processor, 'POST', '', { vidType: 'Perpetual', UIN: uin }));
  await ok(vidCall(processor, 'POST', '', { vidType: 'Temporary', UIN: uin }));
  await t.platform.deps.prisma.authTypeLock.create({
    data: { identityId, authType: 'bio-Finger', locked: true, updatedBy: 'resident', updatedAt: new Date() },
  });
  // Reads by ID authentication: two by UIN, the second with biometrics; the clock moves between them.
  await ok(send(ida, 'GET', `/uin/${uin}`));
  t.clock.advance(60_000);
  await ok(send(ida, 'GET', `/uin/${uin}?type=bio`));
});

describe('the identity screen', () => {
  it('shows the identity, its VIDs, its locks and its read trail in one query, as the operator', async () => {
    const { data, errors } = await t.graphql(SCREEN, { uin }, operator);
    expect(errors).toBeUndefined();
    expect(data.identity).toMatchObject({ id: identityId, status: 'ACTIVATED' });
    expect(data.identity.vids.totalCount).toBe(2);
    expect(data.identity.vids.edges.map((edge: { node: { type: string } }) => edge.node.type).sort()).toEqual(['Perpetual', 'Temporary']);
    expect(data.identity.authTypeLocks).toEqual([{ authType: 'BIO', authSubType: 'FINGER', isLocked: true }]);
    const reads = data.identity.reads.edges.map((edge: { node: unknown }) => edge.node) as {
      readBy: string;
      lookup: string;
      parts: string[];
      readAt: string;
    }[];
    // Newest first by default; the operator's own look-ups are audited too.
    expect(reads.map((read) => read.readAt)).toEqual([...reads.map((read) => read.readAt)].sort().reverse());
    expect(reads.filter((read) => read.readBy === idaClient).map((read) => read.lookup)).toEqual(['UIN', 'UIN']);
  });

  it('links the identity to its registrations and each read to its reader', async () => {
    const { data, errors } = await t.graphql(
      `query($uin: String) { identity(uin: $uin) { registrationId registration { registrationId } registrations { registrationId }
        reads(first: 10) { edges { node { readBy reader { userId } } } } } }`,
      { uin },
      operator,
    );
    expect(errors).toBeUndefined();
    expect(data.identity.registration).toEqual({ registrationId: data.identity.registrationId });
    expect(data.identity.registrations).toEqual([{ registrationId: data.identity.registrationId }]);
    const readers = data.identity.reads.edges.map((edge: { node: { readBy: string; reader: { userId: string } } }) => edge.node);
    expect(readers.length).toBeGreaterThan(0);
    for (const read of readers) expect(read.reader).toEqual({ userId: read.readBy });
    expect(readers.map((read: { readBy: string }) => read.readBy)).toContain(idaClient);
  });

  it('finds the identity by exactly one of UIN, RID or VID (a OneOf input), refusing two at once before it runs', async () => {
    const find = (by: Record<string, unknown>) => t.graphql('query($by: IdentityLookupInput) { identity(by: $by) { id } }', { by }, operator);
    expect((await find({ uin })).data.identity).toEqual({ id: identityId });
    const rid = (await t.graphql('query($uin: String) { identity(uin: $uin) { registrationId } }', { uin }, operator)).data.identity.registrationId;
    expect((await find({ rid })).data.identity).toEqual({ id: identityId });
    const both = await find({ uin, rid });
    expect(both.data).toBeUndefined();
    expect(both.errors[0].message).toMatch(/exactly one/i);
    const inline = await t.graphql(`{ identity(by: { uin: "${uin}", vid: "1" }) { id } }`, {}, operator);
    expect(inline.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('filters the read trail by how, by what and when, and orders it oldest first', async () => {
    const byUin = (await t.graphql(SCREEN, { uin, reads: { readBy: idaClient, lookup: 'UIN' }, order: { field: 'READ_AT', direction: 'ASC' } }, operator)).data
      .identity.reads;
    expect(byUin.totalCount).toBe(2);
    expect(byUin.edges.map((edge: { node: { parts: string[] } }) => edge.node.parts.includes('biometrics'))).toEqual([false, true]);
    const bio = (await t.graphql(SCREEN, { uin, reads: { part: 'biometrics' } }, operator)).data.identity.reads;
    expect(bio.totalCount).toBe(1);
    const first = byUin.edges[0].node.readAt as string;
    const later = (await t.graphql(SCREEN, { uin, reads: { readBy: idaClient, from: new Date(new Date(first).getTime() + 1).toISOString() } }, operator)).data
      .identity.reads;
    expect(later.totalCount).toBe(1);
    // The newer name of the same bound.
    const after = new Date(new Date(first).getTime() + 1).toISOString();
    expect((await t.graphql(SCREEN, { uin, reads: { readBy: idaClient, readAfter: after } }, operator)).data.identity.reads.totalCount).toBe(1);
    const nobody = (await t.graphql(SCREEN, { uin, reads: { readBy: 'nobody' } }, operator)).data.identity.reads;
    expect(nobody).toEqual({ totalCount: 0, edges: [] });
  });

  it('refuses the screen to a caller who is not an operator (ID authentication)', async () => {
    const refused = await t.graphql(SCREEN, { uin }, ida);
    expect(refusalCode(refused)).toBe('KER-ATH-403');
  });
});
