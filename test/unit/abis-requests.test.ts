// The ABIS requests' rules (subgraphs/abis/requests) over an in-memory abis_request table: the
// de-duplication's inserts and their outbox, the messages as sent, the replies applied once (insert,
// then identify, the batch's candidates to the pipeline), the expiry sweep, the deletes of rejected
// registrations, and the operator's questions, liveness and deletes.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionHandlers } from '../../lib/db/client.js';
import { EventBus } from '../../lib/events.js';
import type { JobPayloads } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import { parseReply, scalar } from '../../subgraphs/abis/requests/messages.js';
import { AbisOperatorService, AnswerSignals, type RegistrationLookup } from '../../subgraphs/abis/requests/operator.js';
import { AbisRequestService, endpointsOf, MAX_CANDIDATES, type AbisRequestSettings } from '../../subgraphs/abis/requests/service.js';
import type { AbisRequestRow, NewAbisRequest } from '../../subgraphs/abis/requests/storage.js';
import type { OpenedPacket } from '../../subgraphs/regproc/packets/packet-files.js';
import type { StageRegistration } from '../../subgraphs/regproc/pipeline/stages.js';
import { abisTable, jobContext, recordingJobs, recordingPipeline, recordingQueue, replyMessage, TX } from './abis-fakes.js';

const NOW = new Date('2026-03-01T08:00:00.000Z');
const RID = '10001100010000120260301080000';
const REF = '6f1c2a9e-3b7d-4c1e-9a5f-0d8e7b6a5c41';
const SHARE_URL = `https://platform.example/v1/datashare/get/policy-default-abis/partner-default-abis/share-${RID}`;

/** Other registrations the ABIS may name, by biometric reference (lower case). */
const KNOWN = {
  'ref-a': { rid: 'rid-a', status: 'PROCESSED' },
  'ref-b': { rid: 'rid-b', status: 'PROCESSING' },
  'ref-c': { rid: 'rid-0c', status: 'PROCESSED' },
  'ref-r': { rid: 'rid-rejected', status: 'REJECTED' },
  [REF]: { rid: RID, status: 'PROCESSING' },
};

const SETTINGS: AbisRequestSettings = {
  count: 2,
  requestQueue: 'platform-to-abis',
  responseQueue: 'abis-to-platform',
  messageFormat: 'text',
  messageTtlSeconds: 2700,
  responseTimeoutSeconds: 5400,
  pingTimeoutSeconds: 30,
  deleteRejected: true,
};

const registration = (over: Partial<StageRegistration> = {}): StageRegistration => ({
  rid: RID,
  centreId: '10001',
  machineId: '10001',
  registrationType: 'NEW',
  origin: 'CLIENT',
  createdAt: new Date(),
  supervisorStatus: 'APPROVED',
  langCode: 'eng',
  status: 'PROCESSING',
  stage: 'BIOGRAPHIC_VERIFICATION',
  attempts: 0,
  bioRefId: REF,
  packetKey: `regproc/packets/${RID}.zip`,
  ...over,
});

/** The requests wired as the product wires them, over the fakes. */
function world(
  over: Partial<AbisRequestSettings> = {},
  registrations: Record<string, Awaited<ReturnType<RegistrationLookup>>> = {},
  signals: Omit<ConstructorParameters<typeof AnswerSignals>[0] & object, 'events'> = {},
) {
  const clock = new ManualClock(NOW);
  const events = new EventBus(createLogger('silent'));
  const table = abisTable();
  const pipeline = recordingPipeline();
  const { queue, published } = recordingQueue();
  const shared: string[] = [];
  const lookups: string[][] = [];
  const known = new Map(Object.entries(KNOWN));
  const context = jobContext();
  const settings = { ...SETTINGS, ...over };
  const { jobs, recorded } = recordingJobs((kind, payload) => {
    if (kind !== 'abis.send') return Promise.reject(new Error(`no held ${kind} expected`));
    return service.send((payload as JobPayloads['abis.send']).requestId, context);
  });
  const service = new AbisRequestService(
    table.store,
    {
      create: (rid) => Promise.resolve(void shared.push(rid)).then(() => ({ shareKey: `share-${rid}`, url: SHARE_URL })),
    },
    pipeline.port,
    (ids) => {
      lookups.push([...ids]);
      return Promise.resolve(new Map(ids.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : []))));
    },
    jobs,
    queue,
    clock,
    settings,
    createLogger('silent'),
    events,
  );
  const answers = new AnswerSignals({ ...signals, events });
  const operator = new AbisOperatorService(
    table.store,
    service,
    (rid) => Promise.resolve(registrations[rid] ?? null),
    queue,
    clock,
    { pingTimeoutSeconds: settings.pingTimeoutSeconds, pingIntervalSeconds: 60 },
    answers,
  );
  let sentUpTo = 0;
  const rows = () => [...table.rows.values()];
  const w = {
    clock,
    table,
    pipeline,
    queue,
    published,
    shared,
    lookups,
    context,
    jobs: recorded,
    service,
    operator,
    events,
    answers,
    rows,
    row: (id: string) => table.rows.get(id)!,
    /** The only request of an operation (to one ABIS); throws when there is none or more. */
    one(operation: string, abisName?: string) {
      const found = w.of(operation, abisName);
      if (found.length !== 1) throw new Error(`${found.length} ${operation} requests`);
      return found[0]!;
    },
    of: (operation: string, abisName?: string) => rows().filter((row) => row.operation === operation && (!abisName || row.abisName === abisName)),
    /** Runs every `abis.send` job enqueued and not run yet, as the job runner would. */
    async sendAll() {
      for (const job of recorded.slice(sentUpTo))
        if (job.kind === 'abis.send' && !job.held) await service.send((job.payload as { requestId: string }).requestId, context);
      sentUpTo = recorded.length;
    },
    /** A reply on a response queue, through the subscription's handler. */
    async deliver(body: string | object) {
      const message = replyMessage(body);
      await service.onReply(message);
      return message;
    },
    /** An ABIS's reply to one request. */
    answer(row: AbisRequestRow, fields: Record<string, unknown>) {
      return w.deliver({ id: `platform.abis.${row.operation.toLowerCase()}`, requestId: row.id, responsetime: clock.now().toISOString(), ...fields });
    },
    /** The de-duplication stage's check, written with its outcome, and the inserts sent. */
    async dedupe(over: Partial<StageRegistration> = {}) {
      const outcome = await service.deduplication.check(registration(over), {} as OpenedPacket);
      await outcome.keep!(TX, clock.now());
      await w.sendAll();
      return outcome;
    },
    /** A request written straight into the table (IN_PROGRESS unless sent). */
    async seed(operation: string, over: Partial<NewAbisRequest> = {}) {
      const row: NewAbisRequest = {
        id: randomUUID(),
        abisName: 'abis1',
        operation,
        rid: ['INSERT', 'IDENTIFY', 'DELETE'].includes(operation) ? RID : null,
        batchId: ['INSERT', 'IDENTIFY'].includes(operation) ? 'batch-seeded' : null,
        referenceId: ['INSERT', 'IDENTIFY', 'DELETE'].includes(operation) ? REF : null,
        referenceUrl: ['INSERT', 'IDENTIFY'].includes(operation) ? SHARE_URL : null,
        status: 'IN_PROGRESS',
        requestedBy: 'platform',
        createdAt: clock.now(),
        ...over,
      };
      await table.store.create(TX, [row]);
      return table.rows.get(row.id)!;
    },
    /** A request written and sent. */
    async sent(operation: string, over: Partial<NewAbisRequest> = {}) {
      const row = await w.seed(operation, over);
      await service.send(row.id, context);
      return table.rows.get(row.id)!;
    },
  };
  return w;
}

type World = ReturnType<typeof world>;

/** A full attempt: inserts and their replies, identifies sent; each ABIS then answers its identify with these references. */
async function identifiesSent(w: World) {
  await w.dedupe();
  for (const insert of w.of('INSERT').filter((row) => row.status === 'SENT')) await w.answer(insert, { returnValue: '1' });
  await w.sendAll();
  return { abis1: w.of('IDENTIFY', 'abis1').at(-1)!, abis2: w.of('IDENTIFY', 'abis2').at(-1)! };
}

const candidates = (...referenceIds: string[]) => ({
  returnValue: '1',
  candidateList: { count: String(referenceIds.length), candidates: referenceIds.map((referenceId) => ({ referenceId })) },
});
const bio = (...rids: string[]) => rids.map((rid) => ({ rid, refType: 'RID', reasonCode: 'BIO' }));
const snapshot = (w: World) =>
  structuredClone({ rows: w.rows(), jobs: w.jobs, published: w.published.length, pipeline: [w.pipeline.deduplicated, w.pipeline.failed] });

let w: World;
beforeEach(() => {
  w = world();
});

describe('the de-duplication check', () => {
  it('writes one INSERT per ABIS in one batch, each with its send job, only when the outcome is kept; the answer waits', async () => {
    const outcome = await w.service.deduplication.check(registration(), {} as OpenedPacket);
    expect(outcome.answer).toEqual({ kind: 'waiting', comment: 'insert sent to 2 ABIS' });
    expect(w.rows()).toEqual([]);
    expect(w.jobs).toEqual([]);

    await outcome.keep!(TX, w.clock.now());
    const inserts = w.rows();
    expect(inserts.map((row) => row.abisName).sort()).toEqual(['abis1', 'abis2']);
    const batchId = inserts[0]!.batchId;
    expect(batchId).toEqual(expect.any(String));
    for (const row of inserts)
      expect(row).toMatchObject({
        operation: 'INSERT',
        rid: RID,
        batchId,
        referenceId: REF,
        referenceUrl: SHARE_URL,
        status: 'IN_PROGRESS',
        requestedBy: 'platform',
        createdAt: NOW,
      });
    expect(new Set(inserts.map((row) => row.id)).size).toBe(2);
    expect(w.jobs).toEqual(inserts.map((row) => ({ kind: 'abis.send', payload: { requestId: row.id }, inTx: true, held: false })));
    expect(w.shared).toEqual([RID]);
    expect(w.published).toEqual([]);
  });

  it("sends each ABIS's insert to its own request queue (endpointsOf)", async () => {
    expect(w.service.endpoints).toEqual([
      { name: 'abis1', requestQueue: 'platform-to-abis', responseQueue: 'abis-to-platform' },
      { name: 'abis2', requestQueue: 'platform-to-abis2', responseQueue: 'abis2-to-platform' },
    ]);
    expect(endpointsOf({ count: 3, requestQueue: 'q-in', responseQueue: 'q-out' })[2]).toEqual({
      name: 'abis3',
      requestQueue: 'q-in3',
      responseQueue: 'abis3-to-platform',
    });
    await w.dedupe();
    const destinationOf = (abisName: string) => w.published.find((message) => message.headers['correlation-id'] === w.one('INSERT', abisName).id)?.destination;
    expect(destinationOf('abis1')).toBe('/queue/platform-to-abis');
    expect(destinationOf('abis2')).toBe('/queue/platform-to-abis2');
  });

  it('refuses a registration without a biometric reference and writes nothing', async () => {
    await expect(w.service.deduplication.check(registration({ bioRefId: null }), {} as OpenedPacket)).rejects.toThrow(/biometric reference/);
    expect(w.rows()).toEqual([]);
    expect(w.jobs).toEqual([]);
  });
});

describe('send', () => {
  const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

  it.each([
    ['INSERT', 'platform.abis.insert', { referenceId: REF, referenceURL: SHARE_URL }, 2700],
    ['IDENTIFY', 'platform.abis.identify', { referenceId: REF, referenceURL: '' }, 2700],
    ['DELETE', 'platform.abis.delete', { referenceId: REF }, 2700],
    ['PING', 'platform.abis.ping', {}, 30],
    ['PENDING_JOBS', 'platform.abis.pendingJobs', {}, 30],
    ['REFERENCE_COUNT', 'platform.abis.referenceCount', {}, 30],
  ])('publishes %s with exactly its fields and expiry, then marks it SENT', async (operation, id, fields, ttlSeconds) => {
    const row = await w.seed(operation, { abisName: 'abis2', ...(operation === 'DELETE' ? { referenceUrl: SHARE_URL } : {}) });
    w.clock.advance(5_000);
    const now = w.clock.now();
    await w.service.send(row.id, w.context);

    expect(w.published).toHaveLength(1);
    const message = w.published[0]!;
    expect(message.destination).toBe('/queue/platform-to-abis2');
    expect(typeof message.body).toBe('string');
    const body = JSON.parse(message.body as string) as Record<string, string>;
    expect(body).toEqual({ id, version: '1.1', requestId: row.id, requesttime: '2026-03-01T08:00:05.000Z', ...fields });
    expect(body.requesttime).toMatch(TIMESTAMP);
    expect(message.headers).toEqual({
      'content-type': 'application/json;charset=utf-8',
      'correlation-id': row.id,
      expires: String(now.getTime() + ttlSeconds * 1000),
    });
    expect(w.row(row.id)).toMatchObject({ status: 'SENT', sentAt: now });
    expect(w.context.completed).toBe(1);
  });

  it("sends bytes when ABIS_MESSAGE_FORMAT is 'bytes'", async () => {
    w = world({ messageFormat: 'bytes' });
    const row = await w.sent('INSERT');
    const { body } = w.published[0]!;
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(JSON.parse((body as Buffer).toString('utf8'))).toMatchObject({ id: 'platform.abis.insert', requestId: row.id, referenceURL: SHARE_URL });
  });

  it('publishes nothing for a request sent already (a job run twice)', async () => {
    const row = await w.sent('INSERT');
    w.clock.advance(1_000);
    await w.service.send(row.id, w.context);
    expect(w.published).toHaveLength(1);
    expect(w.row(row.id)).toMatchObject({ status: 'SENT', sentAt: NOW });
    expect(w.context.completed).toBe(1);
  });

  it('fails a question its job runs only after the ping timeout, unsent; one at the timeout still goes', async () => {
    const late = await w.seed('PING');
    const onTime = await w.seed('REFERENCE_COUNT');
    const insert = await w.seed('INSERT');
    w.clock.advance(30_000);
    await w.service.send(onTime.id, w.context);
    w.clock.advance(1);
    await w.service.send(late.id, w.context);
    await w.service.send(insert.id, w.context);

    expect(w.row(late.id)).toMatchObject({ status: 'FAILED', failureReason: 'not sent in time', answeredAt: w.clock.now(), sentAt: null });
    expect(w.published.map((message) => message.headers['correlation-id'])).toEqual([onTime.id, insert.id]);
    expect(w.row(onTime.id).status).toBe('SENT');
    expect(w.context.completed).toBe(3);
  });
});

describe('an insert reply', () => {
  it('1: PROCESSED, and an identify of the same batch and reference enqueued strictly after the insert', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis1');
    const message = await w.answer(insert, { returnValue: '1' });

    expect(message.acks).toBe(1);
    expect(w.row(insert.id)).toMatchObject({ status: 'PROCESSED', returnValue: '1', failureReason: null, answeredAt: NOW });
    const identify = w.one('IDENTIFY');
    expect(identify).toMatchObject({ abisName: 'abis1', rid: RID, batchId: insert.batchId, referenceId: REF, status: 'IN_PROGRESS' });
    expect(identify.id).not.toBe(insert.id);
    // The clock has not moved: the identify is still ordered after its insert.
    expect(identify.createdAt.getTime()).toBeGreaterThan(insert.createdAt.getTime());
    expect(w.jobs.at(-1)).toEqual({ kind: 'abis.send', payload: { requestId: identify.id }, inTx: true, held: false });
    expect(w.pipeline.failed).toEqual([]);
    expect(w.pipeline.deduplicated).toEqual([]);
  });

  it("is the first reply even when it overtakes the sender recording the broker's receipt; the send then keeps only its time", async () => {
    const outcome = await w.service.deduplication.check(registration(), {} as OpenedPacket);
    await outcome.keep!(TX, w.clock.now());
    const insert = w.one('INSERT', 'abis1');
    expect(w.row(insert.id).status).toBe('IN_PROGRESS');
    await w.answer(insert, { returnValue: '1' });
    expect(w.row(insert.id)).toMatchObject({ status: 'PROCESSED', sentAt: null });
    expect(w.of('IDENTIFY', 'abis1')).toHaveLength(1);
    // The send job finishing late publishes nothing more and leaves the answer as it is.
    expect(await w.table.store.markSent(TX, insert.id, w.clock.now())).toBe(false);
    expect(w.row(insert.id)).toMatchObject({ status: 'PROCESSED', sentAt: NOW });
  });

  it('2 with reason 10 (the ABIS holds the reference already): ALREADY_PROCESSED, and the identify enqueued', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis2');
    await w.answer(insert, { returnValue: '2', failureReason: '10' });
    expect(w.row(insert.id)).toMatchObject({ status: 'ALREADY_PROCESSED', returnValue: '2', failureReason: '10' });
    expect(w.of('IDENTIFY')).toMatchObject([{ abisName: 'abis2', batchId: insert.batchId, rid: RID, referenceId: REF }]);
    expect(w.pipeline.failed).toEqual([]);
  });

  it('2 with another reason: FAILED, the de-duplication failed, no identify', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis1');
    const jobs = w.jobs.length;
    await w.answer(insert, { returnValue: '2', failureReason: '7' });
    expect(w.row(insert.id)).toMatchObject({ status: 'FAILED', returnValue: '2', failureReason: '7' });
    expect(w.pipeline.failed).toEqual([{ rid: RID, reason: expect.stringMatching(/abis1 insert failed \(reason 7\)/) as unknown }]);
    expect(w.of('IDENTIFY')).toEqual([]);
    expect(w.jobs).toHaveLength(jobs);
  });

  it('reads a numeric returnValue 1 as "1"', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis1');
    await w.answer(insert, { returnValue: 1 });
    expect(w.row(insert.id)).toMatchObject({ status: 'PROCESSED', returnValue: '1' });
    expect(w.of('IDENTIFY')).toHaveLength(1);
  });

  it('matches a requestId in upper case', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis1');
    const message = await w.deliver({ id: 'platform.abis.insert', requestId: insert.id.toUpperCase(), returnValue: '1' });
    expect(message.acks).toBe(1);
    expect(w.row(insert.id).status).toBe('PROCESSED');
    expect(w.of('IDENTIFY')).toHaveLength(1);
  });
});

describe('an identify reply', () => {
  it('maps candidates to registrations case-insensitively, drops the probe, unknown and REJECTED ones; the pipeline hears once every ABIS answered', async () => {
    const { abis1, abis2 } = await identifiesSent(w);
    expect([abis1.status, abis2.status]).toEqual(['SENT', 'SENT']);

    await w.answer(abis1, candidates('REF-A', REF.toUpperCase(), 'unknown-ref', 'ref-r', 'Ref-C', 'ref-a'));
    expect(w.lookups.at(-1)).toEqual(['ref-a', REF, 'unknown-ref', 'ref-r', 'ref-c', 'ref-a']);
    expect(w.row(abis1.id)).toMatchObject({ status: 'PROCESSED', returnValue: '1', candidates: ['rid-0c', 'rid-a'] });
    expect(w.pipeline.deduplicated).toEqual([]);

    await w.answer(abis2, candidates('ref-b', 'ref-a'));
    expect(w.row(abis2.id)).toMatchObject({ status: 'PROCESSED', candidates: ['rid-a', 'rid-b'] });
    expect(w.pipeline.deduplicated).toEqual([{ rid: RID, answer: { kind: 'candidates', candidates: bio('rid-0c', 'rid-a', 'rid-b') } }]);
    expect(w.pipeline.failed).toEqual([]);
  });

  it(`looks at the first ${MAX_CANDIDATES} candidates of a reply only`, async () => {
    const { abis1 } = await identifiesSent(w);
    await w.answer(abis1, candidates(...Array.from({ length: MAX_CANDIDATES }, (_, index) => `filler-${index}`), 'ref-a'));
    expect(w.lookups.at(-1)).toHaveLength(MAX_CANDIDATES);
    expect(w.row(abis1.id)).toMatchObject({ status: 'PROCESSED', candidates: [] });
  });

  it('tells the pipeline the registration is unique when no ABIS names another registration', async () => {
    const { abis1, abis2 } = await identifiesSent(w);
    await w.answer(abis1, candidates());
    expect(w.pipeline.deduplicated).toEqual([]);
    await w.answer(abis2, candidates(REF, 'ref-r', 'nobody'));
    expect(w.row(abis2.id).candidates).toEqual([]);
    expect(w.pipeline.deduplicated).toEqual([{ rid: RID, answer: { kind: 'unique' } }]);
  });

  it('2: FAILED and the de-duplication failed; the batch never settles', async () => {
    const { abis1, abis2 } = await identifiesSent(w);
    await w.answer(abis1, { returnValue: '2', failureReason: '3' });
    expect(w.row(abis1.id)).toMatchObject({ status: 'FAILED', returnValue: '2', failureReason: '3' });
    expect(w.pipeline.failed).toEqual([{ rid: RID, reason: expect.stringMatching(/abis1 identify failed \(reason 3\)/) as unknown }]);
    await w.answer(abis2, candidates('ref-a'));
    expect(w.pipeline.deduplicated).toEqual([]);
  });
});

describe("a change's 1:1 (an identify whose gallery is the changed identity's reference)", () => {
  /** The inserts of a 1:1 against `ref-a` sent and answered; their identifies sent. */
  async function verifying() {
    const written = await w.service.deduplication.verify!(registration(), 'REF-A');
    expect(written.comment).toBe('insert and 1:1 identify sent to 2 ABIS');
    await written.keep(TX, w.clock.now());
    await w.sendAll();
    for (const insert of w.of('INSERT')) await w.answer(insert, { returnValue: '1' });
    await w.sendAll();
    return { abis1: w.one('IDENTIFY', 'abis1'), abis2: w.one('IDENTIFY', 'abis2') };
  }
  const bodyOf = (id: string) => JSON.parse(String(w.published.find((message) => message.headers['correlation-id'] === id)!.body)) as Record<string, unknown>;

  it('sends the insert, then an identify of the probe against that one reference (MOSIP gallery)', async () => {
    const { abis1 } = await verifying();
    expect(w.of('INSERT').map((row) => row.gallery)).toEqual([['ref-a'], ['ref-a']]);
    expect(bodyOf(abis1.id)).toMatchObject({ id: 'platform.abis.identify', referenceId: REF, gallery: { referenceIds: [{ referenceId: 'ref-a' }] } });
    // A de-duplication's identify searches the whole database: no gallery.
    const { abis1: whole } = await identifiesSent(world());
    expect(whole.gallery).toBeNull();
  });

  it('is a match once every ABIS answered and one named the reference; never a de-duplication answer', async () => {
    const { abis1, abis2 } = await verifying();
    await w.answer(abis1, candidates());
    expect(w.pipeline.authenticated).toEqual([]);
    await w.answer(abis2, candidates('Ref-A'));
    expect(w.row(abis1.id).result).toBe('NO_MATCH');
    expect(w.row(abis2.id).result).toBe('MATCH');
    expect(w.pipeline.authenticated).toEqual([{ rid: RID, matched: true }]);
    expect(w.pipeline.deduplicated).toEqual([]);
  });

  it('is no match when no ABIS named the reference, whatever else it named', async () => {
    const { abis1, abis2 } = await verifying();
    await w.answer(abis1, candidates('ref-b'));
    await w.answer(abis2, candidates());
    expect(w.pipeline.authenticated).toEqual([{ rid: RID, matched: false }]);
  });
});

describe('the candidates of a change', () => {
  it("are what the pipeline keeps of them (the changed identity's own registrations dropped), read before the reply's transaction", async () => {
    w.pipeline.port.relevantCandidates = (_rid, rids) => Promise.resolve(rids.filter((rid) => rid !== 'rid-a'));
    const { abis1, abis2 } = await identifiesSent(w);
    await w.answer(abis1, candidates('ref-a', 'ref-b'));
    await w.answer(abis2, candidates('ref-a'));
    expect(w.row(abis1.id).candidates).toEqual(['rid-b']);
    expect(w.pipeline.deduplicated).toEqual([{ rid: RID, answer: { kind: 'candidates', candidates: bio('rid-b') } }]);
  });
});

describe('replies delivered more than once, or not to be applied', () => {
  it('applies the same reply once however often it comes, acknowledging each delivery', async () => {
    await w.dedupe();
    const insert = w.one('INSERT', 'abis1');
    const deliveries = [];
    for (let i = 0; i < 3; i++) {
      deliveries.push(await w.answer(insert, { returnValue: '1' }));
      w.clock.advance(1_000);
    }
    expect(deliveries.map((message) => [message.acks, message.nacks])).toEqual([
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    expect(w.row(insert.id)).toMatchObject({ status: 'PROCESSED', answeredAt: NOW });
    expect(w.of('IDENTIFY')).toHaveLength(1);
    expect(w.jobs.filter((job) => job.kind === 'abis.send')).toHaveLength(3);
  });

  it('settles a batch once when the last identify reply comes three times', async () => {
    const { abis1, abis2 } = await identifiesSent(w);
    await w.answer(abis1, candidates('ref-a'));
    const acks = [];
    for (let i = 0; i < 3; i++) acks.push((await w.answer(abis2, candidates('ref-b'))).acks);
    expect(acks).toEqual([1, 1, 1]);
    expect(w.pipeline.deduplicated).toEqual([{ rid: RID, answer: { kind: 'candidates', candidates: bio('rid-a', 'rid-b') } }]);
  });

  it.each([
    ['not JSON', '{"requestId": '],
    ['a JSON array', '[{"returnValue":"1"}]'],
    ['JSON null', 'null'],
    ['without a requestId', { id: 'platform.abis.insert', returnValue: '1' }],
    ['with an unknown requestId', { id: 'platform.abis.insert', requestId: '00000000-0000-4000-8000-000000000000', returnValue: '1' }],
  ])('acknowledges a reply %s and changes nothing', async (_what, body) => {
    await w.dedupe();
    const before = snapshot(w);
    const message = await w.deliver(body);
    expect(message.acks).toBe(1);
    expect(message.nacks).toBe(0);
    expect(snapshot(w)).toEqual(before);
  });
});

describe("an operator's question or a delete answered", () => {
  it("stores pendingJobs' jobscount and referenceCount's count as the result", async () => {
    const pending = await w.sent('PENDING_JOBS');
    const count = await w.sent('REFERENCE_COUNT', { abisName: 'abis2' });
    await w.answer(pending, { returnValue: '1', jobscount: '4' });
    await w.answer(count, { returnValue: 1, count: 1250 });
    expect(w.row(pending.id)).toMatchObject({ status: 'PROCESSED', returnValue: '1', result: '4' });
    expect(w.row(count.id)).toMatchObject({ status: 'PROCESSED', returnValue: '1', result: '1250' });
    expect(w.pipeline).toMatchObject({ deduplicated: [], failed: [] });
  });

  it('a delete answered 2 with reason 12 (no such reference) is ALREADY_PROCESSED; another reason FAILED, with no pipeline call', async () => {
    const gone = await w.sent('DELETE');
    const refused = await w.sent('DELETE', { abisName: 'abis2' });
    await w.answer(gone, { returnValue: '2', failureReason: '12' });
    await w.answer(refused, { returnValue: '2', failureReason: '5' });
    expect(w.row(gone.id)).toMatchObject({ status: 'ALREADY_PROCESSED', returnValue: '2', failureReason: '12' });
    expect(w.row(refused.id)).toMatchObject({ status: 'FAILED', returnValue: '2', failureReason: '5' });
    expect(w.pipeline).toMatchObject({ deduplicated: [], failed: [] });
  });

  it("a question answered 2 is FAILED, whatever the reason (12 is a delete's only)", async () => {
    const ping = await w.sent('PING');
    await w.answer(ping, { returnValue: '2', failureReason: '12' });
    expect(w.row(ping.id)).toMatchObject({ status: 'FAILED', returnValue: '2', failureReason: '12', result: null });
    expect(w.pipeline).toMatchObject({ deduplicated: [], failed: [] });
  });
});

describe('the messages', () => {
  it('reads a reply only when it is a JSON object', () => {
    expect(parseReply(Buffer.from('{"requestId":"x","returnValue":1}'))).toEqual({ requestId: 'x', returnValue: 1 });
    for (const body of ['[{"requestId":"x"}]', 'null', '"text"', '12', '{"requestId":', ''].map((text) => Buffer.from(text)))
      expect(parseReply(body)).toBeNull();
  });

  it('reads a field as text: a string as it is, a number as its digits, anything else as absent', () => {
    expect([scalar('1'), scalar(1), scalar(12.5), scalar(true), scalar(null), scalar(undefined), scalar({})]).toEqual([
      '1',
      '1',
      '12.5',
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('expire', () => {
  it('fails requests sent and unanswered past their timeout, the pipeline told of inserts and identifies only', async () => {
    const insert = await w.sent('INSERT');
    const identify = await w.sent('IDENTIFY', { rid: 'rid-identify', abisName: 'abis2' });
    const remove = await w.sent('DELETE');
    const ping = await w.sent('PING');
    const unsent = await w.seed('INSERT', { rid: 'rid-unsent' });

    // The ping's timeout passes; at exactly 30 s it is not yet late.
    w.clock.advance(30_000);
    expect(await w.service.expire()).toBe(0);
    w.clock.advance(1);
    const youngPing = await w.sent('PING', { abisName: 'abis2' });
    expect(await w.service.expire()).toBe(1);
    expect(w.row(ping.id)).toMatchObject({ status: 'FAILED', failureReason: 'no reply in time', answeredAt: w.clock.now() });
    expect(w.pipeline.failed).toEqual([]);
    expect([insert, identify, remove, youngPing].map((row) => w.row(row.id).status)).toEqual(['SENT', 'SENT', 'SENT', 'SENT']);

    // The response timeout passes: exactly at it nothing of the pipeline's expires, a millisecond later it does.
    w.clock.set(new Date(NOW.getTime() + 5_400_000));
    const youngInsert = await w.sent('INSERT', { rid: 'rid-young' });
    expect(await w.service.expire()).toBe(1); // the young ping, long overdue by now
    expect(w.row(youngPing.id).status).toBe('FAILED');
    w.clock.advance(1);
    expect(await w.service.expire()).toBe(3);
    expect([insert, identify, remove].map((row) => w.row(row.id))).toMatchObject([
      { status: 'FAILED', failureReason: 'no reply in time' },
      { status: 'FAILED', failureReason: 'no reply in time' },
      { status: 'FAILED', failureReason: 'no reply in time' },
    ]);
    expect([...w.pipeline.failed].sort((a, b) => a.rid.localeCompare(b.rid))).toEqual([
      { rid: RID, reason: 'ABIS abis1 did not answer insert in 5400 s' },
      { rid: 'rid-identify', reason: 'ABIS abis2 did not answer identify in 5400 s' },
    ]);
    expect(w.row(youngInsert.id).status).toBe('SENT');
    expect(w.row(unsent.id).status).toBe('IN_PROGRESS');
  });
});

describe('a registration rejected as a duplicate', () => {
  it('leaves every ABIS: one DELETE each, with its send job', async () => {
    await w.service.deduplication.rejected!(TX, { rid: RID, bioRefId: REF }, NOW);
    const deletes = w.rows();
    expect(deletes.map((row) => row.abisName).sort()).toEqual(['abis1', 'abis2']);
    for (const row of deletes)
      expect(row).toMatchObject({
        operation: 'DELETE',
        rid: RID,
        batchId: null,
        referenceId: REF,
        referenceUrl: null,
        status: 'IN_PROGRESS',
        requestedBy: 'platform',
        createdAt: NOW,
      });
    expect(w.jobs).toEqual(deletes.map((row) => ({ kind: 'abis.send', payload: { requestId: row.id }, inTx: true, held: false })));
  });

  it('stays when ABIS_DELETE_REJECTED is off', async () => {
    w = world({ deleteRejected: false });
    await w.service.deduplication.rejected!(TX, { rid: RID, bioRefId: REF }, NOW);
    expect(w.rows()).toEqual([]);
    expect(w.jobs).toEqual([]);
  });

  it('writes nothing for a registration without a reference (ABIS_DELETE_REJECTED on)', async () => {
    await w.service.deduplication.rejected!(TX, { rid: RID, bioRefId: null }, NOW);
    expect(w.rows()).toEqual([]);
    expect(w.jobs).toEqual([]);
  });
});

describe('the operator', () => {
  const livenessOf = async (): Promise<Record<string, string>> =>
    Object.fromEntries((await w.operator.systems()).map((system) => [system.name, system.liveness]));
  /** The recurring ping: one to every ABIS, sent. */
  const ping = async () => {
    await w.operator.pingAll();
    await w.sendAll();
    return { abis1: w.of('PING', 'abis1').at(-1)!, abis2: w.of('PING', 'abis2').at(-1)! };
  };

  it('knows nothing of an ABIS never pinged, nor of one whose only ping is young and unanswered', async () => {
    expect(await livenessOf()).toEqual({ abis1: 'UNKNOWN', abis2: 'UNKNOWN' });
    expect(await w.operator.health()).toMatchObject({ status: 'UNKNOWN' });
    await ping();
    expect(await livenessOf()).toEqual({ abis1: 'UNKNOWN', abis2: 'UNKNOWN' });
  });

  it('is UP after a ping answered, keeps that while the next ping is young, and is DOWN once it is overdue', async () => {
    const first = await ping();
    w.clock.advance(2_000);
    await w.answer(first.abis1, { returnValue: '1' });
    await w.answer(first.abis2, { returnValue: '1' });
    expect(await livenessOf()).toEqual({ abis1: 'UP', abis2: 'UP' });
    expect(await w.operator.health()).toEqual({
      status: 'UP',
      details: {
        abis1: { liveness: 'UP', unanswered: 0, lastAnsweredAt: '2026-03-01T08:00:02.000Z' },
        abis2: { liveness: 'UP', unanswered: 0, lastAnsweredAt: '2026-03-01T08:00:02.000Z' },
      },
    });

    w.clock.advance(58_000);
    const second = await ping();
    await w.answer(second.abis2, { returnValue: '1' });
    w.clock.advance(30_000);
    expect(await livenessOf()).toEqual({ abis1: 'UP', abis2: 'UP' });
    w.clock.advance(1);
    expect(await livenessOf()).toEqual({ abis1: 'DOWN', abis2: 'UP' });
    expect(await w.operator.health()).toMatchObject({ status: 'DOWN', details: { abis1: { liveness: 'DOWN', unanswered: 1 } } });
  });

  it('is DOWN after a FAILED ping, even a young one, and stays so while the next ping is young', async () => {
    const first = await ping();
    await w.answer(first.abis1, { returnValue: '1' });
    await w.answer(first.abis2, { returnValue: '1' });
    w.clock.advance(60_000);
    const second = await ping();
    await w.answer(second.abis1, { returnValue: '2', failureReason: '1' });
    expect(await livenessOf()).toEqual({ abis1: 'DOWN', abis2: 'UP' });
    w.clock.advance(31_000);
    await w.service.expire(); // abis2's ping, unanswered
    expect(w.row(second.abis2.id)).toMatchObject({ status: 'FAILED', failureReason: 'no reply in time' });
    expect(await livenessOf()).toEqual({ abis1: 'DOWN', abis2: 'DOWN' });

    w.clock.advance(29_000);
    const third = await ping();
    expect(await livenessOf()).toEqual({ abis1: 'DOWN', abis2: 'DOWN' });
    await w.answer(third.abis1, { returnValue: '1' });
    expect(await livenessOf()).toEqual({ abis1: 'UP', abis2: 'DOWN' });
  });

  it('reports DISABLED health without a queue, and pings nobody then', async () => {
    w.queue.state = 'DISABLED';
    expect(await w.operator.health()).toEqual({ status: 'DISABLED', details: {} });
    await w.operator.pingAll();
    expect(w.rows()).toEqual([]);
  });

  it('asks one ABIS a question, sent at once, and returns it as it stands when the wait is over', async () => {
    const rows = await w.operator.ask('PENDING_JOBS', 'abis2', 'operator-1', 0);
    expect(rows).toMatchObject([{ abisName: 'abis2', operation: 'PENDING_JOBS', status: 'SENT', requestedBy: 'operator-1', rid: null }]);
    expect(w.jobs).toEqual([{ kind: 'abis.send', payload: { requestId: rows[0]!.id }, inTx: true, held: true }]);
    expect(w.published.map((message) => message.destination)).toEqual(['/queue/platform-to-abis2']);
  });

  it('waits for the answers of every ABIS asked', async () => {
    w.queue.afterPublish = (message) => {
      const requestId = message.headers['correlation-id'];
      setTimeout(() => void w.deliver({ requestId, returnValue: '1', count: '77' }), 0);
    };
    const rows = await w.operator.ask('REFERENCE_COUNT', null, 'operator-1', 10);
    expect(rows).toMatchObject([
      { abisName: 'abis1', status: 'PROCESSED', result: '77' },
      { abisName: 'abis2', status: 'PROCESSED', result: '77' },
    ]);
    expect((await w.operator.systems()).map((system) => system.referenceCount)).toEqual([77, 77]);
  });

  describe('waiting for the answers: woken, not polling', () => {
    /** The database's LISTEN, as another instance's NOTIFY reaches it. */
    function listening() {
      const channels: string[] = [];
      let handlers: SubscriptionHandlers | undefined;
      const database = {
        subscribe: (channel: string, given: SubscriptionHandlers) => {
          channels.push(channel);
          handlers = given;
          return Promise.resolve({ connectionName: undefined, close: () => Promise.resolve() });
        },
      };
      return { database, channels, notify: (id: string) => handlers!.message(id), reconnected: () => handlers!.up() };
    }
    /** An answer recorded by another instance: in the table, with no event in this one. */
    const answeredElsewhere = (id: string) => w.table.store.answer(TX, id, { status: 'PROCESSED', returnValue: '1', failureReason: null, result: '5' }, NOW);
    const publishedIds = () => w.published.map((message) => message.headers['correlation-id']!);

    it('returns as soon as the reply is applied: one read to start, one when woken, the answer announced to every instance', async () => {
      w.queue.afterPublish = (message) => {
        setTimeout(() => void w.deliver({ requestId: message.headers['correlation-id'], returnValue: '1', jobscount: '3' }), 200);
      };
      const started = Date.now();
      const rows = await w.operator.ask('PENDING_JOBS', 'abis1', 'operator-1', 30);
      expect(rows).toMatchObject([{ abisName: 'abis1', status: 'PROCESSED', result: '3' }]);
      // woken, not found by the second's re-read (nor by polling, which would have read a few times by then)
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(Date.now() - started).toBeLessThan(700);
      expect(w.table.reads.byIds).toBe(2);
      expect(w.table.announced).toEqual([rows[0]!.id]);
    });

    it('reads once per answer to a request still open; an answer to another request wakes nobody', async () => {
      let first = true;
      w.queue.afterPublish = (message) => {
        const requestId = message.headers['correlation-id'];
        const delay = first ? 100 : 300;
        first = false;
        setTimeout(() => void w.deliver({ requestId, returnValue: '1', count: '9' }), delay);
        // someone else's question answered meanwhile
        setTimeout(() => void w.events.publish('abis.request.answered', { requestId: randomUUID() }), 200);
      };
      const rows = await w.operator.ask('REFERENCE_COUNT', null, 'operator-1', 30);
      expect(rows.map((row) => row.status)).toEqual(['PROCESSED', 'PROCESSED']);
      expect(w.table.reads.byIds).toBe(3);
    });

    it("wakes at another instance's NOTIFY, listening from the first question on, once per process", async () => {
      const db = listening();
      w = world({}, {}, { database: db.database });
      expect(db.channels).toEqual([]);
      w.queue.afterPublish = (message) => {
        const requestId = message.headers['correlation-id']!;
        setTimeout(() => void answeredElsewhere(requestId).then(() => db.notify(requestId)), 150);
      };
      const started = Date.now();
      expect(await w.operator.ask('PING', 'abis1', 'operator-1', 30)).toMatchObject([{ status: 'PROCESSED' }]);
      expect(await w.operator.ask('PING', 'abis2', 'operator-1', 30)).toMatchObject([{ status: 'PROCESSED' }]);
      expect(Date.now() - started).toBeLessThan(900);
      expect(w.table.reads.byIds).toBe(4);
      expect(db.channels).toEqual(['abis_request_answered']);
    });

    it('reads again when the listener comes back (notifications may have been lost), and every second without news', async () => {
      const db = listening();
      w = world({}, {}, { database: db.database });
      w.queue.afterPublish = (message) => {
        const requestId = message.headers['correlation-id']!;
        setTimeout(() => void answeredElsewhere(requestId).then(() => db.reconnected()), 30);
      };
      expect(await w.operator.ask('PING', 'abis1', 'operator-1', 30)).toMatchObject([{ status: 'PROCESSED' }]);
      expect(w.table.reads.byIds).toBe(2);

      // a notification lost altogether: the re-read a second later finds the answer
      w.table.reads.byIds = 0;
      w.queue.afterPublish = (message) => {
        setTimeout(() => void answeredElsewhere(message.headers['correlation-id']!), 30);
      };
      const started = Date.now();
      expect(await w.operator.ask('PING', 'abis2', 'operator-1', 30)).toMatchObject([{ status: 'PROCESSED' }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(1900);
      expect(w.table.reads.byIds).toBe(2);
    });

    it('gives up at its deadline, the requests as they stand (SENT), having read them about once a second', async () => {
      const started = Date.now();
      const rows = await w.operator.ask('PING', 'abis1', 'operator-1', 1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeLessThan(1900);
      expect(rows).toMatchObject([{ status: 'SENT' }]);
      expect(w.table.reads.byIds).toBeLessThanOrEqual(3);
      expect(publishedIds()).toEqual([rows[0]!.id]);
    });
  });

  it('refuses to ask an ABIS not configured (RPR-RGS-015) or with the queue disabled (RPR-SYS-001), writing nothing', async () => {
    await expect(w.operator.ask('PING', 'abis3', 'operator-1', 0)).rejects.toMatchObject({ code: 'RPR-RGS-015' });
    w.queue.state = 'DISABLED';
    await expect(w.operator.ask('PING', null, 'operator-1', 0)).rejects.toMatchObject({ code: 'RPR-SYS-001' });
    await expect(w.operator.ask('PING', 'abis1', 'operator-1', 0)).rejects.toMatchObject({ code: 'RPR-SYS-001' });
    expect(w.rows()).toEqual([]);
    expect(w.jobs).toEqual([]);
    expect(w.published).toEqual([]);
  });

  describe('deleteReference', () => {
    beforeEach(() => {
      w = world(
        {},
        {
          'rid-rejected': { rid: 'rid-rejected', status: 'REJECTED', bioRefId: 'ref-r' },
          'rid-processed': { rid: 'rid-processed', status: 'PROCESSED', bioRefId: 'ref-p' },
          'rid-no-ref': { rid: 'rid-no-ref', status: 'REJECTED', bioRefId: null },
        },
      );
    });

    it.each([
      ['a registration not REJECTED', 'rid-processed', 'RPR-RGS-015'],
      ['an unknown registration', 'rid-unknown', 'RPR-RGS-031'],
      ['a registration without a biometric reference', 'rid-no-ref', 'RPR-RGS-015'],
    ])('refuses %s (%s → %s) and writes nothing', async (_what, rid, code) => {
      await expect(w.operator.deleteReference(rid, null, 'operator-1')).rejects.toMatchObject({ code });
      expect(w.rows()).toEqual([]);
      expect(w.jobs).toEqual([]);
      expect(w.published).toEqual([]);
    });

    it("deletes a rejected registration's reference from the ABIS named and waits for its answer", async () => {
      w.queue.afterPublish = (message) => {
        const requestId = message.headers['correlation-id'];
        setTimeout(() => void w.deliver({ requestId, returnValue: '2', failureReason: '12' }), 0);
      };
      const rows = await w.operator.deleteReference('rid-rejected', 'abis2', 'operator-1');
      expect(rows).toMatchObject([{ abisName: 'abis2', operation: 'DELETE', rid: 'rid-rejected', referenceId: 'ref-r', status: 'ALREADY_PROCESSED' }]);
      expect(w.rows()).toHaveLength(1);
      expect(w.published.map((message) => message.destination)).toEqual(['/queue/platform-to-abis2']);
    });
  });

  it("gives each registration's candidates of its latest attempt only", async () => {
    const older = await identifiesSent(w);
    await w.answer(older.abis1, candidates('ref-a'));
    await w.answer(older.abis2, candidates('ref-c'));
    w.clock.advance(3_600_000);
    const latest = await identifiesSent(w);
    expect(latest.abis1.batchId).not.toBe(older.abis1.batchId);
    await w.answer(latest.abis1, candidates('ref-b'));
    w.clock.advance(1_000);
    await w.answer(latest.abis2, candidates('ref-b', 'ref-a'));

    const found = await w.service.candidatesByRids([RID, 'rid-none']);
    expect(found).toEqual(new Map([[RID, ['rid-a', 'rid-b']]]));
  });
});
