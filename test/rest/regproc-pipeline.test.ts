// The registration pipeline end to end on the sample country (centre and machine 10001): a packet
// built as a registration client builds it, synced, uploaded, carried through the stages by the job
// runner to PROCESSED with a UIN in the ID repository and the resident's notification in the outbox;
// the receiver's refusals in MOSIP's order; duplicates through manual adjudication; reprocessing
// and the stuck view.
import { beforeAll, describe, expect, it } from 'vitest';
import { syncRecordOf } from '../../lib/packet/write.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { adjudicator, PROCESSED_TRANSACTIONS, REGPROC as BASE, registrationClient, type RegistrationClient } from '../support/regproc.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;
useTestPlatform(
  { PLATFORM_SAMPLE_DATA: 'true', REGPROC_MAX_PACKET_BYTES: '400000', REGPROC_REPROCESS_ELAPSE_SECONDS: '1', REGPROC_REPROCESS_MAX_ATTEMPTS: '2' },
  (platform, adminCookie) => {
    t = platform;
    admin = adminCookie;
  },
);

beforeAll(async () => {
  client = await registrationClient(t, admin);
});

const build: RegistrationClient['build'] = (seed, options) => client.build(seed, options);
const sync: RegistrationClient['sync'] = (records) => client.sync(records);
const upload: RegistrationClient['upload'] = (fileName, bytes) => client.upload(fileName, bytes);
const submit: RegistrationClient['submit'] = (built, over) => client.submit(built, over);
const statusOf: RegistrationClient['statusOf'] = (rid) => client.statusOf(rid);
const settle: RegistrationClient['settle'] = (rid, until, timeoutMs) => client.settle(rid, until, timeoutMs);

describe('a packet through the pipeline', () => {
  it('is received, processed to PROCESSED with a UIN in the ID repository, its transactions and the notification recorded; a second upload is refused', async () => {
    const built = build('pipeline-one');
    const outboxBefore = await t.platform.deps.prisma.notification.count();
    await submit(built);
    const final = await settle(built.rid);
    expect(final).toBe('PROCESSED');

    const identity = await t.platform.deps.services.identities.byRegistration(built.rid);
    expect(identity?.status).toBe('ACTIVATED');
    const uin = await t.platform.deps.services.identities.uinOfRow(identity!);
    expect(uin).toMatch(/^\d{10}$/);

    const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${built.rid}`, { headers: admin });
    const types = (json.response as { transactionTypeCode: string; statusCode: string }[]).map((row) => `${row.transactionTypeCode}:${row.statusCode}`);
    expect(types).toEqual(PROCESSED_TRANSACTIONS);
    expect(await t.platform.deps.prisma.notification.count()).toBe(outboxBefore + 1);
    const outbox = await t.graphql('query($to: String) { outbox(to: $to) { subject } }', { to: built.resident.identity.email }, admin);
    expect(outbox.data.outbox).toEqual([{ subject: 'Your UIN has been generated' }]);

    // The portal's view: the registration with its identity (resolved by the ID repository) in one query.
    const view = await t.graphql(
      'query($rid: ID!) { registration(registrationId: $rid) { status stage receivedAt identity { id status registrations { registrationId status } } transactions { totalCount } manualVerifications { matchedRegId } } }',
      { rid: built.rid },
      admin,
    );
    expect(view.errors).toBeUndefined();
    expect(view.data.registration).toMatchObject({
      status: 'PROCESSED',
      stage: 'UIN_GENERATOR',
      // The identity links back to the registrations that made it, as the processor knows them.
      identity: { id: identity!.id, status: 'ACTIVATED', registrations: [{ registrationId: built.rid, status: 'PROCESSED' }] },
      transactions: { totalCount: PROCESSED_TRANSACTIONS.length },
      manualVerifications: [],
    });

    const again = await upload(`${built.rid}.zip`, built.sealed);
    expect(again.json.errors[0].errorCode).toBe('RPR-PKR-005');

    // Without CLAMD_URL nothing is scanned, and /health says so.
    const health = (await t.request('GET', '/health')).json;
    expect(health.components.virusScanner).toEqual({ status: 'NOT_CONFIGURED', details: { detail: 'not configured' } });
    expect(health.components.registrations.details.stuck).toEqual(expect.any(Number));
  });

  it('keeps the packet encrypted in the object store, as uploaded', async () => {
    const built = build('pipeline-at-rest');
    await submit(built);
    const stored = await t.platform.deps.objects.get(`regproc/packets/${built.rid}.zip`);
    expect(stored?.equals(built.sealed)).toBe(true);
    expect(stored!.includes(Buffer.from(String((built.resident.identity.email as string) ?? '')))).toBe(false);
    expect(await settle(built.rid)).toBe('PROCESSED');
  });
});

describe('the packet receiver', () => {
  it("refuses in MOSIP's order: not synced, hash, not a zip, size, too large; changing nothing", async () => {
    const built = build('receiver-refusals');
    await expectRejected(t, () => upload(`${built.rid}.zip`, built.sealed), 'RPR-PKR-001');
    await sync([syncRecordOf(built.rid, built.sealed)]);
    await expectRejected(t, () => upload(`${built.rid}.zip`, Buffer.concat([built.sealed, Buffer.from('x')])), 'RPR-PKR-009');
    await expectRejected(t, () => upload(`${built.rid}.tar`, built.sealed), 'RPR-PKR-003');
    await sync([syncRecordOf(built.rid, built.sealed, { packetSize: built.sealed.length + 1 })]);
    await expectRejected(t, () => upload(`${built.rid}.zip`, built.sealed), 'RPR-PKR-013');

    const large = build('receiver-large', { bdbBytes: 40_000 });
    expect(large.sealed.length).toBeGreaterThan(400_000);
    await sync([syncRecordOf(large.rid, large.sealed)]);
    await expectRejected(t, () => upload(`${large.rid}.zip`, large.sealed), 'RPR-PKR-002');
    expect(await statusOf(large.rid)).toBe('UPLOAD_PENDING');
  });

  it('takes one of parallel uploads of the same packet: the others get RPR-PKR-005, and it is processed once', async () => {
    const built = build('receiver-race');
    await sync([syncRecordOf(built.rid, built.sealed)]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(`${built.rid}.zip`, built.sealed)));
    const outcomes = answers.map(({ json }) => json.errors?.[0]?.errorCode ?? json.response.status).sort();
    expect(outcomes).toEqual(['Packet is in PACKET_RECEIVED status', ...Array.from({ length: 5 }, () => 'RPR-PKR-005')]);
    expect(await settle(built.rid)).toBe('PROCESSED');
    const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${built.rid}`, { headers: admin });
    const types = (json.response as { transactionTypeCode: string; statusCode: string }[]).map((row) => `${row.transactionTypeCode}:${row.statusCode}`);
    expect(types).toEqual(PROCESSED_TRANSACTIONS);
    expect(await t.platform.deps.prisma.identity.count({ where: { registrationId: built.rid } })).toBe(1);
  });

  it('refuses a multipart body without a file, and a JSON body', async () => {
    const form = new FormData();
    form.append('note', 'no file');
    const none = await fetch(`${t.baseUrl}${BASE}/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers: admin });
    expect((await none.json()).errors[0].errorCode).toBe('RPR-RGS-015');
    const json = await t.request('POST', `${BASE}/packetreceiver/registrationpackets`, { body: {}, headers: admin });
    expect(json.json.errors[0].errorCode).toBe('RPR-RGS-015');
  });

  it('takes a base64 packet through GraphQL with the same checks', async () => {
    const built = build('receiver-graphql');
    await sync([syncRecordOf(built.rid, built.sealed)]);
    const mutation =
      'mutation($input: ReceivePacketInput!) { receiveRegistrationPacket(input: $input) { receivedPacket { registrationId status registration { registrationId status } } userErrors { field code message } } }';
    const wrong = await t.graphql(mutation, { input: { fileName: `${built.rid}.zip`, contentBase64: Buffer.from('other').toString('base64') } }, admin);
    expect(refusalOf(wrong)!.code).toBe('RPR-PKR-009');
    const { data } = await t.graphql(mutation, { input: { fileName: `${built.rid}.zip`, contentBase64: built.sealed.toString('base64') } }, admin);
    // The payload carries the registration as it now stands.
    expect(data.receiveRegistrationPacket.receivedPacket).toEqual({
      registrationId: built.rid,
      status: 'Packet is in PACKET_RECEIVED status',
      registration: { registrationId: built.rid, status: expect.stringMatching(/^(PACKET_RECEIVED|PROCESSING|PROCESSED)$/) },
    });
    const stolen = await t.graphql(mutation, { input: { fileName: `${built.rid}.zip`, stagedUploadId: 'not-mine' } }, admin);
    expect(refusalOf(stolen)!.code).toBe('RPR-RGS-015');
    expect(await settle(built.rid)).toBe('PROCESSED');
  });
});

describe('duplicates and manual adjudication', () => {
  const assign = () => adjudicator(t, admin).assign();
  const decide = (regId: string, statusCode: string) => adjudicator(t, admin).decide(regId, statusCode);

  it('sends a second registration of the same biometrics to an adjudicator; a rejection ends it REJECTED, an approval PROCESSED', async () => {
    const first = build('dup-first');
    await submit(first);
    expect(await settle(first.rid)).toBe('PROCESSED');

    const second = build('dup-second', { duplicateOf: first.resident });
    await submit(second);
    expect(await client.reachStage(second.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    expect(await statusOf(second.rid)).toBe('PROCESSING');

    const assigned = (await assign()).json;
    expect(assigned.errors).toBeNull();
    expect(assigned.response).toMatchObject({
      regId: second.rid,
      mvUsrId: 'admin',
      statusCode: 'ASSIGNED',
      gallery: { matchedRefs: [{ matchedRegId: first.rid, matchedRefType: 'RID', reasonCode: 'BIO' }] },
    });
    // Held by this adjudicator until decided: asked again, the same one.
    expect((await assign()).json.response.regId).toBe(second.rid);

    await expectRejected(t, () => decide(second.rid, 'MAYBE'), 'RPR-MVS-003');
    expect((await decide(second.rid, 'REJECTED')).json.response).toMatchObject({ regId: second.rid, statusCode: 'REJECTED' });
    expect(await statusOf(second.rid)).toBe('REJECTED');
    await expectRejected(t, () => decide(second.rid, 'APPROVED'), 'RPR-MVS-003');
    await expectRejected(t, () => assign(), 'RPR-FAC-003');

    const third = build('dup-third', { duplicateOf: first.resident });
    await submit(third);
    expect(await client.reachStage(third.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    expect((await assign()).json.response.regId).toBe(third.rid);
    expect((await decide(third.rid, 'APPROVED')).json.errors).toBeNull();
    expect(await settle(third.rid)).toBe('PROCESSED');
  });

  it('gives the adjudicator a queue in the graph: waiting and assigned lists, assigning and deciding answer the registration, refusals name their field', async () => {
    const first = build('queue-first');
    await submit(first);
    expect(await settle(first.rid)).toBe('PROCESSED');
    const waiting = build('queue-second', { duplicateOf: first.resident });
    await submit(waiting);
    expect(await client.reachStage(waiting.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');

    const queue = `query($filter: ManualVerificationFilter) { manualVerifications(filter: $filter, first: 3) {
      totalCount edges { node { registrationId stage assignee { userId name }
        candidates { registrationId } manualVerifications { status assignee { userId } matchedRegistration { registrationId status } } } } } }`;
    const rids = async (filter: object) => {
      const r = await t.graphql(queue, { filter }, admin);
      if (!r.data) throw new Error(JSON.stringify(r.errors));
      return (r.data.manualVerifications.edges as any[]).map((edge) => edge.node.registrationId);
    };
    expect(await rids({ assignedTo: 'NOBODY' })).toContain(waiting.rid);
    expect(await rids({ assignedTo: 'ME', status: 'ASSIGNED' })).not.toContain(waiting.rid);

    const assign = `mutation { assignManualVerification {
      manualVerificationAssignment { regId registration { registrationId stage assignee { userId } centre { id name } machine { id } } } userErrors { code } } }`;
    const assigned = (await t.graphql(assign, {}, admin)).data.assignManualVerification;
    expect(assigned.manualVerificationAssignment).toEqual({
      regId: waiting.rid,
      registration: {
        registrationId: waiting.rid,
        stage: 'MANUAL_ADJUDICATION',
        assignee: { userId: 'admin' },
        // Linked to master data's records of where it was made.
        centre: { id: '10001', name: expect.any(String) },
        machine: { id: '10001' },
      },
    });
    const mine = await t.graphql(queue, { filter: { assignedTo: 'ME', status: 'ASSIGNED' } }, admin);
    const held = (mine.data.manualVerifications.edges as any[]).find((edge) => edge.node.registrationId === waiting.rid)?.node;
    expect(held).toMatchObject({
      assignee: { userId: 'admin', name: expect.any(String) },
      manualVerifications: [{ status: 'ASSIGNED', assignee: { userId: 'admin' }, matchedRegistration: { registrationId: first.rid, status: 'PROCESSED' } }],
      // The platform's own matcher found it: the same candidates an ABIS would name.
      candidates: [{ registrationId: first.rid }],
    });
    expect(await rids({ assignedTo: 'NOBODY' })).not.toContain(waiting.rid);

    const adjudicate = `mutation($input: AdjudicateRegistrationInput!) { adjudicateRegistration(input: $input) {
      registration { registrationId status assignee { userId } } userErrors { field code message } } }`;
    // A decision outside the enum never reaches the platform; a registration the caller does not hold names its field.
    const maybe = await t.graphql(adjudicate, { input: { registrationId: waiting.rid, decision: 'MAYBE' } }, admin);
    expect(maybe.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const notHeld = await t.graphql(adjudicate, { input: { registrationId: first.rid, decision: 'REJECTED' } }, admin);
    expect(notHeld.data.adjudicateRegistration).toMatchObject({
      registration: null,
      userErrors: [{ field: ['input', 'registrationId'], code: 'RPR-FAC-003' }],
    });
    const decided = await t.graphql(adjudicate, { input: { registrationId: waiting.rid, decision: 'REJECTED' } }, admin);
    expect(decided.data.adjudicateRegistration).toEqual({
      registration: { registrationId: waiting.rid, status: 'REJECTED', assignee: { userId: 'admin' } },
      userErrors: [],
    });
    const again = await t.graphql(adjudicate, { input: { registrationId: waiting.rid, decision: 'APPROVED' } }, admin);
    expect(again.data.adjudicateRegistration.userErrors).toEqual([{ field: ['input', 'registrationId'], code: 'RPR-MVS-003', message: expect.any(String) }]);
    expect(await rids({ assignedTo: 'ME', status: 'REJECTED' })).toContain(waiting.rid);

    // The queue is the processor's: a registration officer is refused it.
    const officer = await t.clientToken(['REGISTRATION_OFFICER'], 'registrationclient');
    const refused = await t.graphql(queue, { filter: { assignedTo: 'ME' } }, bearer(officer.token));
    expect(refused.errors?.[0]?.extensions?.code).toBe('KER-ATH-403');
  });

  it('lets an adjudicator act only as themselves', async () => {
    const other = await t.request('POST', `${BASE}/manualverification/assignment`, {
      body: envelopeOf({ userId: 'someone-else', matchType: 'all' }, { id: 'platform.manual.verification.assignment' }),
      headers: admin,
    });
    expect(other.json.errors[0].errorCode).toBe('RPR-MVS-001');
  });
});

describe('failures, reprocessing and the stuck view', () => {
  it('rejects a packet the supervisor rejected, at validation', async () => {
    const built = build('supervisor-no');
    await submit(built, { supervisorStatus: 'REJECTED' });
    expect(await settle(built.rid)).toBe('REJECTED');
    const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${built.rid}`, { headers: admin });
    expect(json.response.at(-1)).toMatchObject({ transactionTypeCode: 'VALIDATE_PACKET', statusCode: 'REJECTED', subStatusCode: 'SUPERVISOR_REJECTED' });
  });

  it('rejects a packet naming an ID schema version never published, at once: no retry would mend it', async () => {
    const seed = 'unknown-schema';
    const built = build(seed, { packet: { identity: { ...build(seed).resident.identity, IDSchemaVersion: 97.5 } } });
    await submit(built);
    expect(await settle(built.rid)).toBe('REJECTED');
    const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${built.rid}`, { headers: admin });
    expect(json.response.at(-1)).toMatchObject({
      transactionTypeCode: 'VALIDATE_PACKET',
      statusCode: 'REJECTED',
      subStatusCode: 'ID_SCHEMA',
      statusComment: 'the packet names ID schema version 97.5, which was never published',
    });
  });

  it('fails a packet that was not made for the platform, and lists it as stuck until an admin resumes it', async () => {
    const built = build('stuck-one');
    const garbage = Buffer.from('not an encrypted packet at all, just bytes');
    await sync([syncRecordOf(built.rid, garbage)]);
    expect((await upload(`${built.rid}.zip`, garbage)).json.errors).toBeNull();
    expect(await settle(built.rid)).toBe('FAILED');

    const query =
      'query($stage: RegistrationStage) { stuckRegistrations(stage: $stage) { totalCount edges { node { registrationId stage status attempts lastError } } } }';
    const { data } = await t.graphql(query, { stage: 'UPLOAD_PACKET' }, admin);
    expect(data.stuckRegistrations.edges.map((edge: any) => edge.node)).toContainEqual(
      expect.objectContaining({ registrationId: built.rid, stage: 'UPLOAD_PACKET', status: 'FAILED', lastError: 'the packet cannot be decrypted' }),
    );
    const counts = await t.graphql('{ registrationCounts { stage status count } }', {}, admin);
    expect(counts.data.registrationCounts).toContainEqual({ stage: 'UPLOAD_PACKET', status: 'FAILED', count: expect.any(Number) });

    const resume =
      'mutation($input: ResumeRegistrationsInput!) { resumeRegistrations(input: $input) { resumedRegistrations { resumed } userErrors { field code message } } }';
    const resumed = await t.graphql(resume, { input: { registrationId: built.rid } }, admin);
    expect(resumed.data.resumeRegistrations.resumedRegistrations.resumed).toEqual([built.rid]);
    // The cause is still there: it fails again, and the transactions show the admin's resume.
    expect(await settle(built.rid, (status) => status === 'FAILED' && true, 30_000)).toBe('FAILED');
    const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${built.rid}`, { headers: admin });
    expect(json.response.map((row: any) => row.transactionTypeCode)).toContain('WORKFLOW_RESUME');

    const notStuck = await t.graphql(resume, { input: { registrationId: 'x'.repeat(29) } }, admin);
    expect(refusalOf(notStuck)!.code).toBe('RPR-RGS-015');
  });
});
