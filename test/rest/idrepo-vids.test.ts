import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateNumber, uinRules, vidRules, violations } from '../../lib/numbers.js';
import { DEFAULT_VID_POLICY, loadVidPolicy, VidPolicies } from '../../subgraphs/idrepo/vids/policy.js';
import { VidService } from '../../subgraphs/idrepo/vids/service.js';
import { expectError, expectRejected, TIMESTAMP } from '../support/assertions.js';
import { idrepoCalls, newRid } from '../support/identities.js';
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

let processor: Credentials;
let ida: Credentials;
/** the repository's operators (ID_REPOSITORY), as a bearer for the portal graph */
let operator: Credentials;
/** an admin with that role alone */
let admin: Login;

beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
  operator = bearer((await t.clientToken(['ID_REPOSITORY'], 'admin')).token);
  admin = await userLogin(t, 'vid-admin', ['GLOBAL_ADMIN'], 'admin');
});

const MINUTE = 60_000;

const { vidCall, ok } = identity;

/** A new ACTIVATED identity (with this e-mail, for its resident's login); its UIN. */
async function newIdentity(email?: string): Promise<string> {
  const uin = identity.newUin();
  await identity.ok(identity.create(processor, uin, newRid(), email ? { email } : {}));
  return uin;
}
/** A second apart: lists are ordered by creation time, and the test clock stands still otherwise. */
const create = (headers: Credentials, uin: string | number, vidType = 'Temporary') => {
  t.clock.advance(1000);
  return vidCall(headers, 'POST', '', { vidType, UIN: uin });
};
const newVid = async (uin: string, vidType = 'Temporary', headers = processor): Promise<string> => (await ok(create(headers, uin, vidType))).VID;
const uinOf = (vid: string, headers = ida) => vidCall(headers, 'GET', `/${vid}`);
const patch = (vid: string, vidStatus: unknown, headers = processor) => vidCall(headers, 'PATCH', `/${vid}`, { vidStatus });
const regenerate = (vid: string, headers = processor) => vidCall(headers, 'POST', `/${vid}/regenerate`);
const list = (uin: string, headers = processor) => vidCall(headers, 'GET', `/uin/${uin}`);
const vidRows = () => t.platform.deps.prisma.vid.findMany();
const rulesOfVids = () => vidRules(t.platform.deps.globalConfiguration);
const generateVid = () => generateNumber(rulesOfVids());

describe('ID repository VIDs', () => {
  it('creates perpetual and temporary VIDs, resolves them to the UIN and lists them as MOSIP does', async () => {
    const uin = await newIdentity();
    const perpetual = await ok(create(processor, uin, 'Perpetual'));
    expect(perpetual).toEqual({ VID: expect.any(String), vidStatus: 'ACTIVE', restoredVid: null, UIN: null });
    expect(violations(perpetual.VID, rulesOfVids())).toEqual([]);
    expect(await ok(uinOf(perpetual.VID))).toEqual({ VID: null, vidStatus: null, restoredVid: null, UIN: uin });

    // The type in any case, the UIN as a JSON number (MOSIP's example request).
    const temporary = await ok(create(processor, Number(uin), 'temporary'));
    expect(temporary.vidStatus).toBe('ACTIVE');
    const { json } = await list(uin);
    expect(json.id).toBe('platform.vid.read');
    const createdAt = new Date(json.response[1].genratedOnTimestamp);
    expect(json.response).toEqual([
      {
        vid: perpetual.VID,
        vidType: 'Perpetual',
        expiryTimestamp: null,
        genratedOnTimestamp: expect.stringMatching(TIMESTAMP),
        transactionLimit: null,
        transactionsLeftCount: null,
      },
      {
        vid: temporary.VID,
        vidType: 'Temporary',
        expiryTimestamp: new Date(createdAt.getTime() + 30 * MINUTE).toISOString(),
        genratedOnTimestamp: expect.stringMatching(TIMESTAMP),
        transactionLimit: 1,
        transactionsLeftCount: 1,
      },
    ]);
  });

  it('holds a UIN to the policy: five temporary VIDs, one perpetual restored in place of the last', async () => {
    const uin = await newIdentity();
    for (let i = 0; i < 5; i++) await newVid(uin);
    await expectRejected(t, () => create(processor, uin), 'IDR-VID-003', /at most 5 Temporary/);

    const first = await newVid(uin, 'Perpetual');
    // Perpetual allows one instance and auto-restores: the old one is REVOKED, a new one made.
    const second = await newVid(uin, 'Perpetual');
    expect(second).not.toBe(first);
    await expectRejected(t, () => uinOf(first), 'IDR-VID-001', /VID is REVOKED/);
    expect((await ok(uinOf(second))).UIN).toBe(uin);
    const listed = await ok(list(uin));
    expect(listed.filter((info: any) => info.vidType === 'Perpetual').map((info: any) => info.vid)).toEqual([second]);
    expect(listed).toHaveLength(6);
  });

  it('expires temporary VIDs after 30 minutes, on read, and frees their instances', async () => {
    const uin = await newIdentity();
    const vids = [];
    for (let i = 0; i < 5; i++) vids.push(await newVid(uin));
    const expired = vids[0]!;
    t.clock.advance(30 * MINUTE + 1000);
    try {
      await expectRejected(t, () => uinOf(expired), 'IDR-VID-001', /VID is EXPIRED/);
      await expectRejected(t, () => patch(expired, 'REVOKED'), 'IDR-VID-001', /EXPIRED/);
      expect(await ok(list(uin))).toEqual([]);
      // Expired VIDs no longer count against the five.
      const fresh = await newVid(uin);
      expect((await ok(list(uin))).map((info: any) => info.vid)).toEqual([fresh]);
      // MOSIP regenerates an EXPIRED VID: the old one INVALIDATED, a new one made.
      const regenerated = await ok(regenerate(expired));
      expect(regenerated).toEqual({ VID: expect.any(String), vidStatus: 'ACTIVE', restoredVid: null, UIN: null });
      expect((await ok(uinOf(regenerated.VID))).UIN).toBe(uin);
      await expectRejected(t, () => uinOf(expired), 'IDR-VID-001', /VID is INVALIDATED/);
    } finally {
      t.clock.advance(-(30 * MINUTE + 1000));
    }
  });

  it('revokes: a perpetual VID is restored with a new one, a temporary one is not; USED as the policy says', async () => {
    const uin = await newIdentity();
    const perpetual = await newVid(uin, 'Perpetual');
    const revoked = await ok(patch(perpetual, 'REVOKED'));
    expect(revoked).toEqual({
      VID: null,
      vidStatus: 'REVOKED',
      UIN: null,
      restoredVid: { VID: expect.any(String), vidStatus: 'ACTIVE', UIN: null, restoredVid: null },
    });
    const restored = revoked.restoredVid.VID;
    expect(restored).not.toBe(perpetual);
    expect((await ok(uinOf(restored))).UIN).toBe(uin);
    await expectRejected(t, () => uinOf(perpetual), 'IDR-VID-001', /REVOKED/);
    await expectRejected(t, () => patch(perpetual, 'ACTIVE'), 'IDR-VID-001', /VID is REVOKED/);

    // USED on a VID of unlimited transactions changes nothing (MOSIP's unlimited-txn-status).
    expect(await ok(patch(restored, 'USED', ida))).toMatchObject({ vidStatus: 'ACTIVE', restoredVid: null });
    expect((await ok(uinOf(restored))).UIN).toBe(uin);

    const temporary = await newVid(uin);
    expect(await ok(patch(temporary, 'USED', ida))).toMatchObject({ vidStatus: 'USED', restoredVid: null });
    await expectRejected(t, () => uinOf(temporary), 'IDR-VID-001', /VID is USED/);
    const other = await newVid(uin);
    expect(await ok(patch(other, 'REVOKED'))).toMatchObject({ vidStatus: 'REVOKED', restoredVid: null });
    expect((await ok(list(uin))).map((info: any) => info.vid)).toEqual([restored]);
  });

  it('regenerates a temporary VID (the old one INVALIDATED), never a perpetual one', async () => {
    const uin = await newIdentity();
    const old = await newVid(uin);
    const { json } = await regenerate(old);
    expect(json.id).toBe('platform.vid.regenerate');
    const fresh = json.response.VID;
    expect(fresh).not.toBe(old);
    await expectRejected(t, () => uinOf(old), 'IDR-VID-001', /VID is INVALIDATED/);
    await expectRejected(t, () => regenerate(old), 'IDR-VID-001', /VID is INVALIDATED/);
    expect((await ok(list(uin))).map((info: any) => info.vid)).toEqual([fresh]);
    // A REVOKED temporary VID may be regenerated too (mosip.idrepo.vid.regenerate.allowed-status).
    await ok(patch(fresh, 'REVOKED'));
    expect((await ok(regenerate(fresh))).vidStatus).toBe('ACTIVE');

    const perpetual = await newVid(uin, 'Perpetual');
    await expectRejected(t, () => regenerate(perpetual), 'IDR-VID-003', /Perpetual VID is restored, not regenerated/);
  });

  it('deactivates and reactivates every VID of a UIN', async () => {
    const uin = await newIdentity();
    const [a, b] = [await newVid(uin, 'Perpetual'), await newVid(uin)];
    const revoked = await newVid(uin);
    await ok(patch(revoked, 'REVOKED'));
    const { json } = await vidCall(processor, 'POST', '/deactivate', { UIN: uin });
    expect(json.id).toBe('platform.vid.deactivate');
    expect(json.response).toEqual({ VID: null, vidStatus: 'DEACTIVATED', UIN: null, restoredVid: null });
    for (const vid of [a, b]) await expectRejected(t, () => uinOf(vid), 'IDR-VID-001', /VID is DEACTIVATED/);
    await expectRejected(t, () => vidCall(processor, 'POST', '/deactivate', { UIN: uin }), 'IDR-IDC-007');

    expect(await ok(vidCall(processor, 'POST', '/reactivate', { UIN: uin }))).toMatchObject({ vidStatus: 'ACTIVE' });
    for (const vid of [a, b]) expect((await ok(uinOf(vid))).UIN).toBe(uin);
    await expectRejected(t, () => uinOf(revoked), 'IDR-VID-001', /REVOKED/);
    await expectRejected(t, () => vidCall(processor, 'POST', '/reactivate', { UIN: uin }), 'IDR-IDC-007');
    const withoutVids = await newIdentity();
    await expectRejected(t, () => vidCall(processor, 'POST', '/deactivate', { UIN: withoutVids }), 'IDR-IDC-007');
  });

  it('gives no VID to an identity that is not ACTIVATED, and resolves none of its VIDs', async () => {
    const uin = await newIdentity();
    const vid = await newVid(uin);
    const perpetual = await newVid(uin, 'Perpetual');
    await identity.ok(identity.send(processor, 'PATCH', '/', { registrationId: newRid(), identity: { UIN: uin }, status: 'BLOCKED' }));
    await expectRejected(t, () => create(processor, uin), 'IDR-VID-004', /BLOCKED UIN/);
    await expectRejected(t, () => uinOf(vid), 'IDR-VID-004', /BLOCKED UIN/);
    // Revoking a perpetual VID restores one, which a BLOCKED identity cannot get: nothing changes (MOSIP's one transaction).
    await expectRejected(t, () => patch(perpetual, 'REVOKED'), 'IDR-VID-004');
    await expectRejected(t, () => regenerate(vid), 'IDR-VID-004');
  });

  it('refuses bad input with the ID repository codes, changing nothing', async () => {
    const uin = await newIdentity();
    const vid = await newVid(uin);
    await expectRejected(t, () => vidCall(processor, 'POST', '', { UIN: uin }), 'IDR-IDC-001', /vidType/);
    await expectRejected(t, () => vidCall(processor, 'POST', '', { vidType: 'Temporary' }), 'IDR-IDC-001', /UIN/);
    await expectRejected(t, () => create(processor, uin, 'Forever'), 'IDR-IDC-002', /vidType.*Perpetual, Temporary/);
    await expectRejected(t, () => create(processor, '1234567890'), 'IDR-IDC-002', /UIN/);
    await expectRejected(t, () => create(processor, ''), 'IDR-IDC-002', /UIN/);
    await expectRejected(t, () => create(processor, identity.newUin()), 'IDR-IDC-007');
    await expectRejected(t, () => uinOf('1234'), 'IDR-IDC-002', /VID/);
    await expectRejected(t, () => uinOf(vid.slice(0, -1) + String((Number(vid.at(-1)) + 1) % 10)), 'IDR-IDC-002', /Verhoeff/);
    const unknown = (await ok(create(processor, await newIdentity()))).VID as string;
    await t.platform.deps.prisma.vid.deleteMany({ where: { vidHash: t.platform.deps.services.idrepoCipher.lookup(unknown) } });
    await expectRejected(t, () => uinOf(unknown), 'IDR-IDC-007');
    await expectRejected(t, () => patch(unknown, 'REVOKED'), 'IDR-IDC-007');
    await expectRejected(t, () => regenerate(unknown), 'IDR-IDC-007');
    await expectRejected(t, () => patch(vid, undefined), 'IDR-IDC-001', /vidStatus/);
    await expectRejected(t, () => patch(vid, 'GONE'), 'IDR-IDC-002', /vidStatus/);
    await expectRejected(t, () => patch(vid, 'revoked'), 'IDR-IDC-002', /vidStatus/);
    await expectRejected(t, () => list('12'), 'IDR-IDC-002', /UIN/);
    await expectRejected(t, () => list(identity.newUin()), 'IDR-IDC-007');
    await expectRejected(t, () => vidCall(processor, 'POST', '/deactivate', {}), 'IDR-IDC-001', /UIN/);
    await expectRejected(t, () => vidCall(processor, 'POST', '/reactivate', { UIN: 'abc' }), 'IDR-IDC-002', /UIN/);
  });

  it('lets a resident act on its own VIDs only, and each role do what MOSIP lets it', async () => {
    const email = residentEmail();
    const uin = await newIdentity(email);
    const otherUin = await newIdentity();
    const resident = (await residentLogin(t, uin, email)).cookie;
    const mine = await newVid(uin, 'Temporary', resident);
    const perpetual = await newVid(uin, 'Perpetual');
    expect((await ok(list(uin, resident))).map((info: any) => info.vid)).toEqual([mine, perpetual]);
    const theirs = await newVid(otherUin);
    const theirPerpetual = await newVid(otherUin, 'Perpetual');

    await expectRejected(t, () => create(resident, otherUin), 'IDR-IDC-011');
    await expectRejected(t, () => create(resident, identity.newUin()), 'IDR-IDC-011');
    await expectRejected(t, () => list(otherUin, resident), 'IDR-IDC-011');
    await expectRejected(t, () => patch(theirs, 'REVOKED', resident), 'IDR-IDC-011');
    await expectRejected(t, () => patch(theirPerpetual, 'REVOKED', resident), 'IDR-IDC-011');
    await expectRejected(t, () => regenerate(theirs, resident), 'IDR-IDC-011');
    // Only revoking is a resident's: marking USED is ID authentication's.
    await expectRejected(t, () => patch(mine, 'USED', resident), 'IDR-IDC-011');
    // Resolving a VID, and deactivating all, are not the resident's calls.
    await expectRejected(t, () => uinOf(mine, resident), 'KER-ATH-403');
    await expectRejected(t, () => vidCall(resident, 'POST', '/deactivate', { UIN: uin }), 'KER-ATH-403');

    const regenerated = (await ok(regenerate(mine, resident))).VID as string;
    expect((await ok(patch(regenerated, 'REVOKED', resident))).vidStatus).toBe('REVOKED');
    const restored = (await ok(patch(perpetual, 'REVOKED', resident))).restoredVid.VID as string;
    // A resident signed in with one of its VIDs acts for its UIN too.
    const byVid = (await residentLogin(t, restored, email)).cookie;
    expect((await ok(list(uin, byVid))).map((info: any) => info.vid)).toEqual([restored]);
    await expectRejected(t, () => list(otherUin, byVid), 'IDR-IDC-011');

    // Callers outside the VID roles.
    await expectRejected(t, () => create(ida, uin), 'KER-ATH-403');
    await expectRejected(t, () => create(admin.cookie, uin), 'KER-ATH-403');
    await expectRejected(t, () => list(uin, ida), 'KER-ATH-403');
    await expectRejected(t, () => regenerate(theirs, ida), 'KER-ATH-403');
    await expectRejected(t, () => vidCall(ida, 'POST', '/deactivate', { UIN: uin }), 'KER-ATH-403');
    await expectRejected(t, () => uinOf(theirs, admin.cookie), 'KER-ATH-403');
    // The repository's operators act on any.
    expect((await ok(uinOf(theirs, operator))).UIN).toBe(otherUin);
  });

  it('lets ID authentication mark a VID USED, never revoke it nor set another status (IDR-IDC-002, nothing changed), through REST and GraphQL', async () => {
    const uin = await newIdentity();
    const perpetual = await newVid(uin, 'Perpetual');
    const temporary = await newVid(uin);
    const idaBearer = bearer(ida.cookie!.replace('Authorization=Platform-Token', ''));
    const statuses = async () => (await vidRows()).map(({ id, status, updatedBy }) => ({ id, status, updatedBy })).sort((a, b) => a.id.localeCompare(b.id));
    const before = await statuses();

    for (const vid of [perpetual, temporary]) {
      for (const status of ['REVOKED', 'ACTIVE', 'EXPIRED', 'INVALIDATED', 'DEACTIVATED']) {
        await expectRejected(t, () => patch(vid, status, ida), 'IDR-IDC-002', /vidStatus/);
      }
      const snapshot = await t.snapshot();
      const refused = await t.graphql(
        'mutation($v: String!) { updateVidStatus(input: { vid: $v, vidStatus: REVOKED }) { vidStatusChange { vidStatus restoredVid { vid } } userErrors { field code message } } }',
        { v: vid },
        idaBearer,
      );
      expect(refused.data.updateVidStatus.vidStatusChange).toBeNull();
      expect(refused.data.updateVidStatus.userErrors.map((e: any) => e.code)).toEqual(['IDR-IDC-002']);
      expect(await t.snapshot()).toEqual(snapshot);
    }
    // The same answer whether the VID exists or not: the refusal tells nothing of it.
    await expectRejected(t, () => patch(generateVid(), 'REVOKED', ida), 'IDR-IDC-002', /vidStatus/);
    expect(await statuses()).toEqual(before);
    expect((await ok(uinOf(perpetual))).UIN).toBe(uin);
    expect((await ok(uinOf(temporary))).UIN).toBe(uin);

    // USED is ID authentication's, through both doors.
    expect(await ok(patch(temporary, 'USED', ida))).toMatchObject({ vidStatus: 'USED', restoredVid: null });
    await expectRejected(t, () => uinOf(temporary), 'IDR-VID-001', /VID is USED/);
    const second = await newVid(uin);
    const used = await t.graphql(
      'mutation($v: String!) { updateVidStatus(input: { vid: $v, vidStatus: USED }) { vidStatusChange { vidStatus restoredVid { vid } } userErrors { field code message } } }',
      { v: second },
      idaBearer,
    );
    expect(used).toEqual({ data: { updateVidStatus: { vidStatusChange: { vidStatus: 'USED', restoredVid: null }, userErrors: [] } } });
    // The processor keeps what it has.
    expect(await ok(patch(perpetual, 'REVOKED'))).toMatchObject({ vidStatus: 'REVOKED', restoredVid: { vidStatus: 'ACTIVE' } });
  });

  it('keeps to the policy when calls race', async () => {
    const uin = await newIdentity();
    for (let i = 0; i < 4; i++) await newVid(uin);
    const raced = await Promise.all([create(processor, uin), create(processor, uin), create(processor, uin)]);
    expect(raced.filter(({ json }) => json.errors === null || json.errors?.length === 0)).toHaveLength(1);
    for (const { json } of raced.filter(({ json }) => json.errors?.length)) expectError(json, 'IDR-VID-003');
    expect(await ok(list(uin))).toHaveLength(5);

    const perpetuals = await Promise.all([create(processor, uin, 'Perpetual'), create(processor, uin, 'Perpetual'), create(processor, uin, 'Perpetual')]);
    for (const { json } of perpetuals) expect(json.response?.vidStatus, JSON.stringify(json.errors)).toBe('ACTIVE');
    const active = (await ok(list(uin))).filter((info: any) => info.vidType === 'Perpetual');
    expect(active).toHaveLength(1);
    const perpetual = active[0].vid as string;

    const revokes = await Promise.all([patch(perpetual, 'REVOKED'), patch(perpetual, 'REVOKED')]);
    const revokedOk = revokes.filter(({ json }) => json.response);
    expect(revokedOk).toHaveLength(1);
    expectError(revokes.find(({ json }) => !json.response)!.json, 'IDR-VID-001', /REVOKED/);
    expect((await ok(list(uin))).filter((info: any) => info.vidType === 'Perpetual').map((info: any) => info.vid)).toEqual([
      revokedOk[0]!.json.response.restoredVid.VID,
    ]);

    const temporary = (await ok(list(uin))).find((info: any) => info.vidType === 'Temporary').vid as string;
    const regenerations = await Promise.all([regenerate(temporary), regenerate(temporary)]);
    expect(regenerations.filter(({ json }) => json.response)).toHaveLength(1);
    expectError(regenerations.find(({ json }) => !json.response)!.json, 'IDR-VID-001', /INVALIDATED/);
    expect(await ok(list(uin))).toHaveLength(6);
  });

  it('answers the same calls through GraphQL', async () => {
    const uin = await newIdentity();
    const processorBearer = bearer(processor.cookie!.replace('Authorization=Platform-Token', ''));
    const idaBearer = bearer(ida.cookie!.replace('Authorization=Platform-Token', ''));
    const gql = async (query: string, variables: Record<string, unknown>, headers: Credentials) => {
      const answer = await t.graphql(query, variables, headers);
      expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
      return answer.data;
    };
    const created = await gql(
      'mutation($u: String!) { createVid(input: { vidType: "Perpetual", uin: $u }) { vidIssued { vid vidStatus record { id type status } } userErrors { field code message } } }',
      { u: uin },
      processorBearer,
    );
    expect(created.createVid.vidIssued.vidStatus).toBe('ACTIVE');
    // The payload carries the VID as the graph knows it.
    expect(created.createVid.vidIssued.record).toEqual({ id: expect.any(String), type: 'Perpetual', status: 'ACTIVE' });
    const vid = created.createVid.vidIssued.vid as string;
    expect((await gql('query($v: String!) { uinByVid(vid: $v) }', { v: vid }, idaBearer)).uinByVid).toBe(uin);
    t.clock.advance(1000);
    const temp = (
      await gql(
        'mutation($u: String!) { createVid(input: { vidType: "Temporary", uin: $u }) { vidIssued { vid } userErrors { field code message } } }',
        { u: uin },
        processorBearer,
      )
    ).createVid.vidIssued.vid;
    const listed = await gql('query($u: String!) { vidsByUin(uin: $u) { vid vidType transactionLimit transactionsLeftCount } }', { u: uin }, processorBearer);
    expect(listed.vidsByUin.map((info: any) => info.vid)).toEqual([vid, temp]);
    const regenerated = await gql(
      'mutation($v: String!) { regenerateVid(input: { vid: $v }) { vidIssued { vid vidStatus } userErrors { field code message } } }',
      { v: temp },
      processorBearer,
    );
    expect(regenerated.regenerateVid.vidIssued.vidStatus).toBe('ACTIVE');
    const revoked = await gql(
      'mutation($v: String!) { updateVidStatus(input: { vid: $v, vidStatus: REVOKED }) { vidStatusChange { vidStatus restoredVid { vid vidStatus } } userErrors { field code message } } }',
      { v: vid },
      processorBearer,
    );
    expect(revoked.updateVidStatus.vidStatusChange).toMatchObject({ vidStatus: 'REVOKED', restoredVid: { vidStatus: 'ACTIVE' } });
    expect(
      (
        await gql(
          'mutation($u: String!) { deactivateVids(input: { uin: $u }) { vidStatusChange { vidStatus } userErrors { field code message } } }',
          { u: uin },
          processorBearer,
        )
      ).deactivateVids.vidStatusChange.vidStatus,
    ).toBe('DEACTIVATED');
    expect(
      (
        await gql(
          'mutation($u: String!) { reactivateVids(input: { uin: $u }) { vidStatusChange { vidStatus } userErrors { field code message } } }',
          { u: uin },
          processorBearer,
        )
      ).reactivateVids.vidStatusChange.vidStatus,
    ).toBe('ACTIVE');
    // A status the enum does not have is refused by the schema, before the repository sees it.
    const refused = await t.graphql(
      'mutation($v: String!) { updateVidStatus(input: { vid: $v, vidStatus: NOPE }) { vidStatusChange { vidStatus } userErrors { field code message } } }',
      { v: vid },
      processorBearer,
    );
    expect(refusalOf(refused)!.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const revokedAgain = await t.graphql(
      'mutation($v: String!) { updateVidStatus(input: { vid: $v, vidStatus: REVOKED }) { vidStatusChange { vidStatus } userErrors { field code message } } }',
      { v: vid },
      processorBearer,
    );
    expect(refusalOf(revokedAgain)!.code).toBe('IDR-VID-001');
  });

  it("shows an identity's VIDs in the portal graph, the numbers only to the repository's operators", async () => {
    const uin = await newIdentity();
    const perpetual = await newVid(uin, 'Perpetual');
    const temporary = await newVid(uin);
    const used = await newVid(uin);
    await ok(patch(used, 'USED', ida));
    const query = `query($u: String!, $f: VidFilter, $after: String) { identity(uin: $u) { id vids(first: 2, after: $after, filter: $f) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { id type status createdAt expiresAt transactionsLeft identity { id status } } } } } }`;
    const seen = await t.graphql(query, { u: uin }, admin.bearer);
    expect(seen.errors).toBeUndefined();
    const page = seen.data.identity.vids;
    expect(page.totalCount).toBe(3);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(page.edges.map((edge: any) => edge.node.status)).toEqual(['USED', 'ACTIVE']);
    expect(page.edges[1].node).toMatchObject({ type: 'Temporary', transactionsLeft: 1, identity: { id: seen.data.identity.id, status: 'ACTIVATED' } });
    expect(page.edges[1].node.expiresAt).toMatch(TIMESTAMP);
    expect(JSON.stringify(seen.data)).not.toContain(temporary);
    const next = await t.graphql(query, { u: uin, after: page.pageInfo.endCursor }, admin.bearer);
    expect(next.data.identity.vids.edges.map((edge: any) => edge.node)).toMatchObject([{ type: 'Perpetual', expiresAt: null, transactionsLeft: null }]);

    const byFilter = async (f: Record<string, unknown>) =>
      (await t.graphql(query, { u: uin, f }, admin.bearer)).data.identity.vids.edges.map((edge: any) => `${edge.node.type}:${edge.node.status}`);
    expect(await byFilter({ type: 'perpetual' })).toEqual(['Perpetual:ACTIVE']);
    expect(await byFilter({ status: 'USED' })).toEqual(['Temporary:USED']);
    t.clock.advance(31 * MINUTE);
    try {
      expect(await byFilter({ status: 'EXPIRED' })).toEqual(['Temporary:EXPIRED']);
      expect(await byFilter({ status: 'ACTIVE' })).toEqual(['Perpetual:ACTIVE']);
    } finally {
      t.clock.advance(-31 * MINUTE);
    }

    // An admin finds the identity by any of its VIDs, used ones too; an unknown VID finds nothing.
    const byVid = 'query($v: String, $u: String) { identity(vid: $v, uin: $u) { id status } }';
    for (const vid of [perpetual, used]) {
      expect((await t.graphql(byVid, { v: vid }, admin.bearer)).data.identity).toEqual({ id: seen.data.identity.id, status: 'ACTIVATED' });
    }
    const unknownVid = generateVid();
    expect((await t.graphql(byVid, { v: unknownVid }, admin.bearer)).data.identity).toBeNull();
    const malformed = await t.graphql(byVid, { v: '12' }, admin.bearer);
    expect(refusalOf(malformed)!.code).toBe('IDR-IDC-002');
    const both = await t.graphql(byVid, { v: perpetual, u: uin }, admin.bearer);
    expect(both.errors[0]).toMatchObject({ extensions: { code: 'IDR-IDC-002' }, message: expect.stringMatching(/exactly one of uin, rid and vid/) });
    const none = await t.graphql(byVid, {}, admin.bearer);
    expect(refusalOf(none)!.code).toBe('IDR-IDC-002');

    const numbers = `query($u: String!) { identity(uin: $u) { vids(filter: { type: "Perpetual" }) { edges { node { vid } } } } }`;
    const refused = await t.graphql(numbers, { u: uin }, admin.bearer);
    expect(refusalOf(refused)!.code).toBe('KER-ATH-403');
    const allowed = await t.graphql(numbers, { u: uin }, operator);
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.identity.vids.edges[0].node.vid).toBe(perpetual);
  });

  it('keeps no VID or UIN in clear in idrepo_vid, and refuses a row whose number was swapped', async () => {
    const email = residentEmail();
    const uin = await newIdentity(email);
    const resident = (await residentLogin(t, uin, email)).cookie;
    const vids = [await newVid(uin, 'Perpetual'), await newVid(uin, 'Temporary', resident)];
    const restored = (await ok(patch(vids[0]!, 'REVOKED', resident))).restoredVid.VID as string;
    vids.push(restored);
    const dump = JSON.stringify(await t.platform.deps.prisma.$queryRawUnsafe('SELECT * FROM idrepo_vid'));
    for (const secret of [uin, ...vids]) expect(dump.includes(secret), 'a number in clear').toBe(false);

    // Another row's ciphertext in place of this one's: refused, not served.
    const rows = await vidRows();
    const mine = rows.find((row) => row.vidHash === t.platform.deps.services.idrepoCipher.lookup(restored))!;
    const other = rows.find((row) => row.id !== mine.id)!;
    await t.platform.deps.prisma.vid.update({ where: { id: mine.id }, data: { vidEncrypted: other.vidEncrypted } });
    await expectRejected(t, () => list(uin), 'IDR-IDS-003');
    await t.platform.deps.prisma.vid.update({ where: { id: mine.id }, data: { vidEncrypted: mine.vidEncrypted } });
    expect(await ok(list(uin))).toHaveLength(2);
  });
});

describe('the VID policy', () => {
  it("loads a policy file in MOSIP's layout and refuses a malformed one", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vid-policy-'));
    const file = path.join(dir, 'vid_policy.json');
    writeFileSync(file, JSON.stringify(DEFAULT_VID_POLICY));
    expect(loadVidPolicy(file).types()).toEqual(['Perpetual', 'Temporary']);
    expect(loadVidPolicy(file).find('PERPETUAL')).toMatchObject({ type: 'Perpetual', policy: { instancesAllowed: 1, autoRestoreAllowed: true } });
    writeFileSync(file, '{ not json');
    expect(() => loadVidPolicy(file)).toThrow(/not JSON/);
    expect(() => loadVidPolicy(path.join(dir, 'missing.json'))).toThrow(/cannot read/);
    const policy = (over: Record<string, unknown>) => ({
      vidPolicies: [
        {
          vidType: 'Perpetual',
          vidPolicy: { validForInMinutes: null, transactionsAllowed: null, instancesAllowed: 1, autoRestoreAllowed: true, restoreOnAction: 'REVOKED', ...over },
        },
      ],
    });
    expect(() => new VidPolicies(policy({ instancesAllowed: 0 }))).toThrow(/instancesAllowed/);
    expect(() => new VidPolicies(policy({ restoreOnAction: 'REGENERATE' }))).toThrow(/restoreOnAction/);
    expect(() => new VidPolicies(policy({ extra: 1 }))).toThrow();
    expect(() => new VidPolicies({ vidPolicies: [...policy({}).vidPolicies, ...policy({}).vidPolicies] })).toThrow(/appears twice/);
  });

  it('follows the policy given to the service', async () => {
    const { deps } = t.platform;
    const global = deps.globalConfiguration;
    const policies = new VidPolicies({
      vidPolicies: [
        {
          vidType: 'OneTimeUse',
          vidPolicy: { validForInMinutes: 5, transactionsAllowed: 1, instancesAllowed: 2, autoRestoreAllowed: true, restoreOnAction: 'USED' },
        },
      ],
    });
    const service = new VidService(deps.prisma, deps.clock, deps.services.idrepoCipher, deps.services.identities, policies, {
      vid: vidRules(global),
      uin: uinRules(global),
    });
    const caller = { subject: 'policy-test', subjectType: 'client' as const, roles: ['ID_REPOSITORY'] };
    const uin = await newIdentity();
    const first = await service.create(caller, { vidType: 'onetimeuse', uin });
    t.clock.advance(1000);
    await service.create(caller, { vidType: 'OneTimeUse', uin });
    t.clock.advance(1000);
    // At its two instances it auto-restores: the oldest becomes USED.
    await service.create(caller, { vidType: 'OneTimeUse', uin });
    expect(await service.listByUin(caller, uin)).toHaveLength(2);
    await expectRejected(t, () => uinOf(first.vid), 'IDR-VID-001', /VID is USED/);
    await expect(service.create(caller, { vidType: 'Temporary', uin })).rejects.toMatchObject({ code: 'IDR-IDC-002' });
  });

  it('answers IDR-VID-002 when no free number can be drawn, and stores nothing for it', async () => {
    const { deps } = t.platform;
    const global = deps.globalConfiguration;
    // Two digits, the second a check digit: nine VIDs at most (none starts with 0).
    const tiny = { length: 2, notStartWith: ['0'], restrictedNumbers: [], sequenceLimit: 0, repeatingLimit: 0, repeatingBlockLimit: 0 };
    const policies = new VidPolicies({
      vidPolicies: [
        {
          vidType: 'Perpetual',
          vidPolicy: { validForInMinutes: null, transactionsAllowed: null, instancesAllowed: 100, autoRestoreAllowed: false, restoreOnAction: 'REVOKED' },
        },
      ],
    });
    const service = new VidService(deps.prisma, deps.clock, deps.services.idrepoCipher, deps.services.identities, policies, {
      vid: tiny,
      uin: uinRules(global),
    });
    const caller = { subject: 'generation-test', subjectType: 'client' as const, roles: ['ID_REPOSITORY'] };
    const uin = await newIdentity();
    const issued: string[] = [];
    let refusal: unknown;
    for (let made = 0; made <= 9 && refusal === undefined; made++) {
      try {
        issued.push((await service.create(caller, { vidType: 'Perpetual', uin })).vid);
      } catch (error) {
        refusal = error;
      }
    }
    expect(refusal).toMatchObject({ code: 'IDR-VID-002', message: 'Failed to generate VID' });
    expect(new Set(issued).size).toBe(issued.length);
    expect(issued.length).toBeLessThanOrEqual(9);
    // The refused call left no row: the identity holds exactly the VIDs issued.
    const identityId = (await deps.services.identities.find({ uin })).id;
    expect(await deps.prisma.vid.count({ where: { identityId } })).toBe(issued.length);
  });
});
