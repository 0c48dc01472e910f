// De-duplication with an ABIS over a real ActiveMQ (REGPROC_DEDUPE=abis): the mock ABIS fetches each
// registration's data share, decrypts it with its own key and answers insert and identify. Two
// packets with the same fingerprints: the first PROCESSED with a UIN, the second to manual
// adjudication with the first as candidate; a rejection ends it REJECTED, an approval PROCESSED.
// A reply delivered three times changes state once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openQueue, type MessageQueue } from '../../lib/queue/index.js';
import { createLogger } from '../../lib/log.js';
import type { MockAbis } from '../../tools/mock-abis/index.js';
import { attachMockAbis } from '../support/abis.js';
import { type TestPlatform, useTestPlatform } from '../support/platform.js';
import { adjudicator, registrationClient, type RegistrationClient } from '../support/regproc.js';

const STOMP_URL = process.env.STOMP_URL ?? 'stomp://127.0.0.1:61613';
const RUN = randomUUID().slice(0, 8);
const REQUESTS = `platform-to-abis-${RUN}`;
const RESPONSES = `abis-to-platform-${RUN}`;

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;
let mock: MockAbis;
let sender: MessageQueue;

useTestPlatform(
  { PLATFORM_SAMPLE_DATA: 'true', REGPROC_DEDUPE: 'abis', STOMP_URL, ABIS_REQUEST_QUEUE: REQUESTS, ABIS_RESPONSE_QUEUE: RESPONSES },
  (platform, cookie) => {
    t = platform;
    admin = cookie;
  },
);

beforeAll(async () => {
  mock = await attachMockAbis(t, admin, { stompUrl: STOMP_URL, requests: REQUESTS, responses: RESPONSES });
  client = await registrationClient(t, admin);
  sender = openQueue({ url: STOMP_URL, logger: createLogger('silent') });
}, 120_000);

afterAll(async () => {
  await mock?.close();
  await sender?.close();
});

describe('de-duplication with an ABIS over the queue', () => {
  it('processes a first registration, sends a second with the same fingerprints to an adjudicator; rejection and approval end them', async () => {
    const { assign, decide } = adjudicator(t, admin);
    const first = client.build('abis-first');
    await client.submit(first);
    expect(await client.settle(first.rid)).toBe('PROCESSED');
    expect(await t.platform.deps.services.identities.byRegistration(first.rid)).not.toBeNull();

    const second = client.build('abis-second', { duplicateOf: first.resident });
    await client.submit(second);
    expect(await client.reachStage(second.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    const assigned = (await assign()).json.response;
    expect(assigned).toMatchObject({ regId: second.rid, gallery: { matchedRefs: [{ matchedRegId: first.rid, matchedRefType: 'RID' }] } });
    expect((await decide(second.rid, 'REJECTED')).json.errors).toBeNull();
    expect(await client.statusOf(second.rid)).toBe('REJECTED');

    // A rejected registration is no candidate: the third duplicate matches the first only.
    const third = client.build('abis-third', { duplicateOf: first.resident });
    await client.submit(third);
    expect(await client.reachStage(third.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    expect((await assign()).json.response.gallery.matchedRefs.map((match: { matchedRegId: string }) => match.matchedRegId)).toEqual([first.rid]);
    expect((await decide(third.rid, 'APPROVED')).json.errors).toBeNull();
    expect(await client.settle(third.rid)).toBe('PROCESSED');

    const view = await t.graphql(
      'query($rid: ID!) { registration(registrationId: $rid) { abisRequests { operation status returnValue candidates } } }',
      { rid: first.rid },
      admin,
    );
    expect(view.data.registration.abisRequests).toEqual([
      { operation: 'INSERT', status: 'PROCESSED', returnValue: '1', candidates: [] },
      { operation: 'IDENTIFY', status: 'PROCESSED', returnValue: '1', candidates: [] },
    ]);
  });

  it('applies a reply delivered three times once', async () => {
    const packet = client.build('abis-thrice');
    await client.submit(packet);
    expect(await client.settle(packet.rid)).toBe('PROCESSED');
    const identify = (await t.platform.deps.services.abisRequests.requestsByRids([packet.rid])).find((row) => row.operation === 'IDENTIFY')!;
    const before = await t.platform.deps.prisma.registrationTransaction.count({ where: { rid: packet.rid } });
    const reply = JSON.stringify({
      id: 'platform.abis.identify',
      requestId: identify.id,
      responsetime: new Date().toISOString(),
      returnValue: '1',
      candidateList: { count: '1', candidates: [{ referenceId: 'someone-else' }] },
    });
    for (let i = 0; i < 3; i++) await sender.publish(`/queue/${RESPONSES}`, reply);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await t.platform.deps.prisma.registrationTransaction.count({ where: { rid: packet.rid } })).toBe(before);
    expect(await client.statusOf(packet.rid)).toBe('PROCESSED');
    expect((await t.platform.deps.services.abisRequests.requestsByRids([packet.rid])).find((row) => row.id === identify.id)?.candidates).toEqual([]);
  });
});
