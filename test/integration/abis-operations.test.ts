// Two ABIS side by side over a real ActiveMQ, with bytes messages both ways (ABIS_MESSAGE_FORMAT=bytes):
// abis1 is the mock ABIS, abis2 an ABIS the test plays itself, reading the platform's messages as an
// ABIS vendor would. Insert then identify at both; an identify's candidates as Registration.candidates;
// a rejected duplicate deleted from both galleries; an operator's ping, pendingJobs and referenceCount;
// each ABIS's liveness in abisSystems and /health; the requests by state and age; deletes refused for
// registrations still in play and for callers who are not operators.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/log.js';
import { StompConnection, type StompMessage } from '../../lib/queue/stomp.js';
import type { MockAbis } from '../../tools/mock-abis/index.js';
import { attachMockAbis } from '../support/abis.js';
import { type TestPlatform, useTestPlatform } from '../support/platform.js';
import { adjudicator, registrationClient, type RegistrationClient } from '../support/regproc.js';
import { userLogin } from '../support/users.js';
import { waitFor } from '../support/wait.js';
import { refusalCode, refusalOf } from '../support/refusals.js';

const STOMP_URL = process.env.STOMP_URL ?? 'stomp://127.0.0.1:61613';
const RUN = randomUUID().slice(0, 8);
const REQUESTS = `platform-to-abis-${RUN}`;
const RESPONSES = `abis-to-platform-${RUN}`;
const PING_TIMEOUT_SECONDS = 10;

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;
let mock: MockAbis;
let second: PlayedAbis;

useTestPlatform(
  {
    PLATFORM_SAMPLE_DATA: 'true',
    REGPROC_DEDUPE: 'abis',
    STOMP_URL,
    ABIS_COUNT: '2',
    ABIS_REQUEST_QUEUE: REQUESTS,
    ABIS_RESPONSE_QUEUE: RESPONSES,
    ABIS_MESSAGE_FORMAT: 'bytes',
    ABIS_PING_TIMEOUT_SECONDS: String(PING_TIMEOUT_SECONDS),
    // The test pings by hand (the platform's clock stands still within a test).
    ABIS_PING_INTERVAL_SECONDS: '0',
  },
  (platform, cookie) => {
    t = platform;
    admin = cookie;
  },
);

/** An ABIS played by the test on abis2's queues: every message as received, answered in bytes while `answering`. */
interface PlayedAbis {
  received: { headers: Record<string, string>; body: Record<string, unknown> }[];
  answering: boolean;
  /** the referenceCount it reports */
  references: Set<string>;
  close(): Promise<void>;
}

async function playAbis(requestQueue: string, responseQueue: string): Promise<PlayedAbis> {
  const connection = new StompConnection({ url: STOMP_URL, logger: createLogger('silent'), reconnectDelayMs: 100 });
  await connection.connect();
  const played: PlayedAbis = { received: [], answering: true, references: new Set(), close: () => connection.close() };
  const answer = (request: Record<string, string>): Record<string, unknown> => {
    const base = { id: request.id, requestId: request.requestId, responsetime: new Date().toISOString(), returnValue: '1' };
    switch (request.id) {
      case 'platform.abis.insert':
        played.references.add(request.referenceId!);
        return base;
      case 'platform.abis.identify':
        return { ...base, candidateList: { count: '0', candidates: [] } };
      case 'platform.abis.delete':
        return played.references.delete(request.referenceId!) ? base : { ...base, returnValue: '2', failureReason: '12' };
      case 'platform.abis.pendingJobs':
        return { ...base, jobscount: '0' };
      case 'platform.abis.referenceCount':
        return { ...base, count: String(played.references.size) };
      default:
        return base;
    }
  };
  connection.subscribe(
    `/queue/${requestQueue}`,
    async (message: StompMessage) => {
      const body = JSON.parse(message.body.toString('utf8')) as Record<string, string>;
      played.received.push({ headers: message.headers, body });
      if (played.answering) await connection.send(`/queue/${responseQueue}`, Buffer.from(JSON.stringify(answer(body)), 'utf8'));
      message.ack();
    },
    { ack: 'client-individual' },
  );
  return played;
}

beforeAll(async () => {
  mock = await attachMockAbis(t, admin, { stompUrl: STOMP_URL, requests: REQUESTS, responses: RESPONSES });
  second = await playAbis(`${REQUESTS}2`, 'abis2-to-platform');
  client = await registrationClient(t, admin);
}, 120_000);

afterAll(async () => {
  await mock?.close();
  await second?.close();
});

const REQUEST_FIELDS = 'requestId abisName operation registrationId referenceId status returnValue failureReason result requestedBy candidates';

const ask = async (question: string, abisName?: string, headers = admin) =>
  t.graphql(
    `mutation($input: AskAbisInput!) { askAbis(input: $input) { abisQuestionAsked { requests { ${REQUEST_FIELDS} } } userErrors { field code message } } }`,
    { input: { question, waitSeconds: PING_TIMEOUT_SECONDS, ...(abisName ? { abisName } : {}) } },
    headers,
  );

const systems = async () =>
  (await t.graphql('{ abisSystems { name requestQueue responseQueue liveness lastAnsweredAt unsent unanswered pendingJobs referenceCount } }', {}, admin)).data
    .abisSystems as { name: string; liveness: string; referenceCount: number | null; pendingJobs: number | null; unsent: number; unanswered: number }[];

const deleteReference = (registrationId: string, headers = admin, abisName?: string) =>
  t.graphql(
    `mutation($input: DeleteAbisReferenceInput!) { deleteAbisReference(input: $input) { abisReferenceDeletion { requests { ${REQUEST_FIELDS} } } userErrors { field code message } } }`,
    { input: { registrationId, ...(abisName ? { abisName } : {}) } },
    headers,
  );

let first: ReturnType<RegistrationClient['build']>;
let duplicate: ReturnType<RegistrationClient['build']>;

describe('two ABIS side by side, bytes messages', () => {
  it('sends insert then identify to both in bytes messages with the headers and fields of the protocol', async () => {
    first = client.build('ops-first');
    await client.submit(first);
    expect(await client.settle(first.rid)).toBe('PROCESSED');

    const mine = second.received.filter((message) => message.body.referenceId !== undefined);
    expect(mine.map((message) => message.body.id)).toEqual(['platform.abis.insert', 'platform.abis.identify']);
    const [insert, identify] = mine;
    // A BytesMessage reaches a STOMP consumer framed by content-length; the platform names its JSON and its request.
    expect(String(insert!.headers['content-length'])).toBe(String(Buffer.byteLength(JSON.stringify(insert!.body))));
    expect(insert!.headers['amq-msg-type']).not.toBe('text');
    expect(insert!.headers['correlation-id']).toBe(insert!.body.requestId);
    expect(insert!.headers.persistent).toBe('true');
    expect(Number(insert!.headers.expires)).toBeGreaterThan(Date.now());
    expect(Object.keys(insert!.body).sort()).toEqual(['id', 'referenceId', 'referenceURL', 'requestId', 'requesttime', 'version']);
    expect(insert!.body).toMatchObject({ version: '1.1', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(insert!.body.requesttime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(insert!.body.referenceURL).toMatch(
      /\/v1\/datashare\/get\/policy-default-abis\/partner-default-abis\/partner-default-abispolicy-default-abis\d{14}[A-Za-z0-9]{8}$/,
    );
    expect(identify!.body).toMatchObject({ referenceId: insert!.body.referenceId, referenceURL: '' });

    const view = await t.graphql(
      'query($rid: ID!) { registration(registrationId: $rid) { abisRequests { abisName operation status } candidates { registrationId } } }',
      { rid: first.rid },
      admin,
    );
    expect(view.errors).toBeUndefined();
    expect(view.data.registration.candidates).toEqual([]);
    expect(
      view.data.registration.abisRequests
        .map((r: { abisName: string; operation: string; status: string }) => `${r.abisName}:${r.operation}:${r.status}`)
        .sort(),
    ).toEqual(['abis1:IDENTIFY:PROCESSED', 'abis1:INSERT:PROCESSED', 'abis2:IDENTIFY:PROCESSED', 'abis2:INSERT:PROCESSED']);
  });

  it('shows a duplicate its candidates, and deletes it from both galleries once an adjudicator rejects it', async () => {
    duplicate = client.build('ops-duplicate', { duplicateOf: first.resident });
    await client.submit(duplicate);
    expect(await client.reachStage(duplicate.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    const view = await t.graphql(
      'query($rid: ID!) { registration(registrationId: $rid) { candidates { registrationId status stage } } }',
      { rid: duplicate.rid },
      admin,
    );
    expect(view.data.registration.candidates).toEqual([{ registrationId: first.rid, status: 'PROCESSED', stage: 'UIN_GENERATOR' }]);
    expect(mock.store.count()).toBe(2);

    const { assign, decide } = adjudicator(t, admin);
    await assign();
    expect((await decide(duplicate.rid, 'REJECTED')).json.errors).toBeNull();
    const deletes = await waitFor(async () => {
      const rows = (await t.platform.deps.services.abisRequests.requestsByRids([duplicate.rid])).filter((row) => row.operation === 'DELETE');
      return rows.length === 2 && rows.every((row) => row.status === 'PROCESSED') && rows;
    }, 'the deletes of the rejected duplicate');
    expect(deletes.map((row) => row.abisName).sort()).toEqual(['abis1', 'abis2']);
    expect(mock.store.count()).toBe(1);
    expect(second.received.filter((m) => m.body.id === 'platform.abis.delete').map((m) => Object.keys(m.body).sort())).toEqual([
      ['id', 'referenceId', 'requestId', 'requesttime', 'version'],
    ]);

    // Deleted again by an operator: each ABIS answers it holds no such reference (12), which is what was asked.
    const again = await deleteReference(duplicate.rid);
    expect(again.errors).toBeUndefined();
    expect(
      again.data.deleteAbisReference.abisReferenceDeletion.requests.map((r: { status: string; failureReason: string }) => [r.status, r.failureReason]),
    ).toEqual([
      ['ALREADY_PROCESSED', '12'],
      ['ALREADY_PROCESSED', '12'],
    ]);
  });

  it("answers an operator's ping, pendingJobs and referenceCount from each ABIS", async () => {
    const pinged = await ask('PING');
    expect(pinged.errors).toBeUndefined();
    expect(pinged.data.askAbis.abisQuestionAsked.requests).toEqual([
      expect.objectContaining({ abisName: 'abis1', operation: 'PING', status: 'PROCESSED', returnValue: '1', requestedBy: 'admin', registrationId: null }),
      expect.objectContaining({ abisName: 'abis2', operation: 'PING', status: 'PROCESSED', returnValue: '1', requestedBy: 'admin', registrationId: null }),
    ]);
    const counted = await ask('REFERENCE_COUNT');
    expect(counted.data.askAbis.abisQuestionAsked.requests.map((r: { abisName: string; result: string }) => [r.abisName, r.result])).toEqual([
      ['abis1', '1'],
      ['abis2', '1'],
    ]);
    const pending = await ask('PENDING_JOBS', 'abis2');
    expect(pending.data.askAbis.abisQuestionAsked.requests).toEqual([expect.objectContaining({ abisName: 'abis2', status: 'PROCESSED', result: '0' })]);
    expect(second.received.at(-1)!.body).toEqual({
      id: 'platform.abis.pendingJobs',
      version: '1.1',
      requestId: pending.data.askAbis.abisQuestionAsked.requests[0].requestId,
      requesttime: expect.any(String),
    });
    expect(await systems()).toEqual([
      expect.objectContaining({ name: 'abis1', requestQueue: REQUESTS, responseQueue: RESPONSES, liveness: 'UP', referenceCount: 1, unanswered: 0 }),
      expect.objectContaining({
        name: 'abis2',
        requestQueue: `${REQUESTS}2`,
        responseQueue: 'abis2-to-platform',
        liveness: 'UP',
        referenceCount: 1,
        pendingJobs: 0,
      }),
    ]);
    const health = await t.request('GET', '/health');
    expect(health.json.components.abis).toMatchObject({ status: 'UP', details: { abis1: { liveness: 'UP' }, abis2: { liveness: 'UP' } } });
  });

  it('reports an ABIS that stops answering its pings DOWN in /health, the platform still UP, and UP again once it answers', async () => {
    second.answering = false;
    await t.platform.deps.services.abisOperator.pingAll();
    await waitFor(
      async () => {
        const [abis1, abis2] = await systems();
        return abis1!.unsent + abis1!.unanswered === 0 && abis2!.unsent === 0 && abis2!.unanswered === 1;
      },
      "abis1's ping answered and abis2's sent unanswered",
      30_000,
    );
    expect((await systems()).map((system) => system.liveness)).toEqual(['UP', 'UP']);
    t.clock.advance((PING_TIMEOUT_SECONDS + 1) * 1000);
    expect((await systems()).map((system) => system.liveness)).toEqual(['UP', 'DOWN']);
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.json.status).toBe('UP');
    expect(health.json.components.abis).toMatchObject({ status: 'DOWN', details: { abis1: { liveness: 'UP' }, abis2: { liveness: 'DOWN' } } });
    // The sweep (the recurring job's, or this call) fails the overdue ping; the ABIS stays DOWN.
    await t.platform.deps.services.abisRequests.expire();
    expect((await systems()).map((system) => [system.liveness, system.unanswered])).toEqual([
      ['UP', 0],
      ['DOWN', 0],
    ]);

    second.answering = true;
    const pinged = await ask('PING');
    expect(pinged.data.askAbis.abisQuestionAsked.requests.map((r: { status: string }) => r.status)).toEqual(['PROCESSED', 'PROCESSED']);
    expect((await systems()).map((system) => system.liveness)).toEqual(['UP', 'UP']);
  });

  it('lists the requests by state, operation, ABIS, registration and age, a page at a time', async () => {
    const list = async (filter: Record<string, unknown>, first = 50, after?: string) =>
      (
        await t.graphql(
          'query($filter: AbisRequestFilter, $first: Int, $after: String) { abisRequests(filter: $filter, first: $first, after: $after) { totalCount edges { cursor node { requestId abisName operation status registrationId registration { registrationId status } } } pageInfo { hasNextPage endCursor } } }',
          { filter, first, after },
          admin,
        )
      ).data.abisRequests;
    const inserts = await list({ operation: 'INSERT', abisName: 'abis2' });
    expect(inserts.totalCount).toBe(2);
    expect(inserts.edges.map((edge: { node: { registrationId: string } }) => edge.node.registrationId).sort()).toEqual([first.rid, duplicate.rid].sort());
    expect(inserts.edges.find((edge: { node: { registrationId: string } }) => edge.node.registrationId === duplicate.rid).node.registration).toEqual({
      registrationId: duplicate.rid,
      status: 'REJECTED',
    });
    expect((await list({ registrationId: duplicate.rid, operation: 'DELETE' })).totalCount).toBe(4);
    const failedPings = await list({ status: 'FAILED', operation: 'PING' });
    expect(failedPings.edges.map((edge: { node: { abisName: string } }) => edge.node.abisName)).toEqual(['abis2']);
    // Older than an age: nothing was written an hour before the platform's clock.
    expect((await list({ createdBefore: new Date(t.clock.now().getTime() - 3_600_000).toISOString() })).totalCount).toBe(0);

    const all = await list({}, 100);
    const pages: string[] = [];
    let after: string | undefined;
    do {
      const page = await list({}, 5, after);
      pages.push(...page.edges.map((edge: { node: { requestId: string } }) => edge.node.requestId));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : undefined;
    } while (after);
    expect(pages).toEqual(all.edges.map((edge: { node: { requestId: string } }) => edge.node.requestId));
    expect(new Set(pages).size).toBe(all.totalCount);
  });

  it('refuses deletes of registrations still in play, of unknown ones and to unknown ABIS, and every call of a caller who is not an operator', async () => {
    const officer = await userLogin(t, `officer-${RUN}`, ['REGISTRATION_OFFICER'], 'registrationclient');
    const before = await t.snapshot();
    const processed = await deleteReference(first.rid);
    expect(refusalOf(processed)!.code).toBe('RPR-RGS-015');
    expect(refusalOf(processed)!.message).toContain('PROCESSED');
    expect(refusalCode(await deleteReference('10001100019999920991231235959'))).toBe('RPR-RGS-031');
    expect(refusalCode(await deleteReference(duplicate.rid, admin, 'abis9'))).toBe('RPR-RGS-015');
    expect(refusalCode(await ask('PING', 'abis3'))).toBe('RPR-RGS-015');
    expect(refusalCode(await ask('INSERT'))).toBe('BAD_USER_INPUT');

    for (const attempt of [
      await ask('PING', undefined, officer.cookie),
      await deleteReference(duplicate.rid, officer.cookie),
      await t.graphql('{ abisSystems { name } }', {}, officer.cookie),
      await t.graphql('{ abisRequests { totalCount } }', {}, officer.cookie),
    ])
      expect(refusalOf(attempt)!.code).toBe('KER-ATH-403');
    expect(await t.snapshot()).toEqual(before);
  });
});

describe('a packet that changes an identity, with the ABIS as the matcher', () => {
  /** A resident processed through both ABIS: its UIN. */
  const enrolled = async (seed: string) => {
    const built = client.build(seed);
    await client.submit(built);
    expect(await client.settle(built.rid)).toBe('PROCESSED');
    const row = (await t.platform.deps.services.identities.byRegistration(built.rid))!;
    return { built, uin: await t.platform.deps.services.identities.uinOfRow(row), reference: row.biometricReferenceId };
  };
  const galleryIdentifies = async (rid: string) =>
    (await t.platform.deps.services.abisRequests.requestsByRids([rid])).filter((row) => row.operation === 'IDENTIFY' && row.gallery);

  it("matches the resident's biometrics 1:1 against the identity's reference (an identify with a gallery), then de-duplicates without flagging the identity itself", async () => {
    const resident = await enrolled('ops-update-genuine');
    const update = client.build('ops-update', {
      resident: resident.built.resident,
      packet: { registrationType: 'UPDATE', identity: { UIN: resident.uin, email: 'moved@example.org' } },
    });
    await client.submit(update, { registrationType: 'UPDATE' });
    expect(await client.settle(update.rid)).toBe('PROCESSED');
    const oneToOne = await galleryIdentifies(update.rid);
    expect(oneToOne.map((row) => [row.abisName, row.gallery, row.result]).sort()).toEqual([
      ['abis1', [resident.reference], 'MATCH'],
      ['abis2', [resident.reference], 'NO_MATCH'],
    ]);
    const sent = second.received.find((message) => message.body.requestId === oneToOne.find((row) => row.abisName === 'abis2')!.id)!;
    expect(sent.body.gallery).toEqual({ referenceIds: [{ referenceId: resident.reference }] });
    expect(await t.platform.deps.prisma.manualVerification.count({ where: { rid: update.rid } })).toBe(0);
  });

  it("ends an update carrying someone else's biometrics REJECTED: no ABIS finds the identity's reference", async () => {
    const resident = await enrolled('ops-update-victim');
    const attack = client.build('ops-update-attacker', { packet: { registrationType: 'UPDATE', identity: { UIN: resident.uin, email: 'thief@example.org' } } });
    await client.submit(attack, { registrationType: 'UPDATE' });
    expect(await client.settle(attack.rid)).toBe('REJECTED');
    expect((await galleryIdentifies(attack.rid)).map((row) => row.result)).toEqual(['NO_MATCH', 'NO_MATCH']);
    const stored = await t.platform.deps.services.identities.identityOf((await t.platform.deps.services.identities.byUin(resident.uin))!);
    expect(stored.email).toBe(resident.built.resident.identity.email);
  });
});
