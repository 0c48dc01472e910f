// The pipeline's rules (subgraphs/regproc/pipeline/service.ts) over registrations kept in memory: what
// a stage's outcome, refusal or failure does to its registration, its transactions and the next job,
// all or nothing; reprocessing; manual adjudication; resuming stuck registrations.
import { beforeEach, describe, expect, it } from 'vitest';
import { Prisma, type Registration } from '../../generated/prisma/client.js';
import { PlatformError } from '../../lib/errors.js';
import type { Jobs } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import { noDeduplication } from '../../subgraphs/regproc/pipeline/dedupe.js';
import { PipelineService } from '../../subgraphs/regproc/pipeline/service.js';
import { StageFault, StageRejection, type Candidate, type JobStage, type StageTransaction } from '../../subgraphs/regproc/pipeline/stages.js';
import type { PipelineStorage, RegistrationChange, StuckQuery } from '../../subgraphs/regproc/pipeline/storage.js';
import type { StageOutcome } from '../../subgraphs/regproc/pipeline/stages.js';
import type { StageWork } from '../../subgraphs/regproc/pipeline/work.js';

interface State {
  rows: Map<string, Registration>;
  transactions: { rid: string; type: string; statusCode: string; subStatusCode?: string; comment: string }[];
  jobs: { kind: string; rid: string; singletonKey?: string }[];
  candidates: { rid: string; matched: string }[];
  completed: number;
}

const copy = (state: State): State => ({
  rows: new Map([...state.rows].map(([rid, row]) => [rid, { ...row }])),
  transactions: [...state.transactions],
  jobs: [...state.jobs],
  candidates: [...state.candidates],
  completed: state.completed,
});

/** The storage and the job queue over one state; a transaction that throws leaves the state as it was. */
function memory(state: { current: State }) {
  const store = {
    byRid: (rid: string) => Promise.resolve(state.current.rows.get(rid) ?? null),
    byRidIn: (_tx: unknown, rid: string) => Promise.resolve(state.current.rows.get(rid) ?? null),
    async inTransaction<T>(work: (tx: never) => Promise<T>): Promise<T> {
      const before = copy(state.current);
      try {
        return await work({} as never);
      } catch (error) {
        state.current = before;
        throw error;
      }
    },
    move(_tx: unknown, rid: string, at: { stage: string | null; from?: readonly string[] }, change: RegistrationChange, now: Date) {
      const row = state.current.rows.get(rid);
      const from = at.from ?? ['PACKET_RECEIVED', 'PROCESSING', 'REPROCESS'];
      if (!row || row.stage !== at.stage || !from.includes(row.status)) return Promise.resolve(false);
      state.current.rows.set(rid, { ...row, ...change, progressAt: now, updatedAt: now });
      return Promise.resolve(true);
    },
    record(_tx: unknown, rid: string, _lang: string, stage: string, items: readonly StageTransaction[]) {
      for (const item of items)
        state.current.transactions.push({
          rid,
          type: item.type ?? stage,
          statusCode: item.statusCode,
          subStatusCode: item.subStatusCode,
          comment: item.comment,
        });
      return Promise.resolve();
    },
    addCandidates(_tx: unknown, rid: string, candidates: readonly Candidate[]) {
      for (const candidate of candidates) state.current.candidates.push({ rid, matched: candidate.rid });
      return Promise.resolve();
    },
    dueForReprocess: (now: Date) =>
      Promise.resolve([...state.current.rows.values()].filter((row) => row.status === 'REPROCESS' && row.nextAttemptAt && row.nextAttemptAt <= now)),
    stuckRids: (query: StuckQuery) =>
      Promise.resolve(
        [...state.current.rows.values()]
          .filter((row) => (!query.stage || row.stage === query.stage) && ['REPROCESS', 'REPROCESS_FAILED', 'FAILED'].includes(row.status))
          .map((row) => row.rid),
      ),
  };
  const jobs: Jobs = {
    enqueue: (kind, payload, options) => {
      state.current.jobs.push({ kind, rid: (payload as { rid: string }).rid, ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}) });
      return Promise.resolve();
    },
    hold: () => Promise.reject(new Error('not used')),
    runDueNow: () => Promise.reject(new Error('not used')),
  };
  return { store: store as unknown as PipelineStorage, jobs };
}

const RID = '10001100010000120261125000000';
const registration = (over: Partial<Registration> = {}): Registration =>
  ({
    rid: RID,
    centreId: '10001',
    machineId: '10001',
    registrationType: 'NEW',
    supervisorStatus: 'APPROVED',
    langCode: 'eng',
    status: 'PROCESSING',
    stage: 'VALIDATE_PACKET',
    attempts: 0,
    lastError: null,
    bioRefId: null,
    packetKey: `regproc/packets/${RID}.zip`,
    progressAt: new Date(0),
    nextAttemptAt: null,
    ...over,
  }) as Registration;

let state: { current: State };
let clock: ManualClock;
let outcome: () => Promise<StageOutcome>;
let pipeline: PipelineService;
let store: PipelineStorage;
const job = { completeIn: () => Promise.resolve(void state.current.completed++) };
const rowNow = () => state.current.rows.get(RID)!;

beforeEach(() => {
  state = { current: { rows: new Map([[RID, registration()]]), transactions: [], jobs: [], candidates: [], completed: 0 } };
  clock = new ManualClock(new Date('2026-11-25T10:00:00Z'));
  const memoryParts = memory(state);
  store = memoryParts.store;
  const { jobs } = memoryParts;
  const work = { run: (_stage: JobStage) => outcome() } as unknown as StageWork;
  pipeline = new PipelineService(
    store,
    work,
    jobs,
    clock,
    { reprocessElapseSeconds: 60, reprocessMaxAttempts: 2, stuckAfterSeconds: 3600 },
    createLogger('silent'),
    noDeduplication,
  );
});

describe('a stage job', () => {
  it("moves the registration on, records the stage's transactions and enqueues the next stage, with the job's completion", async () => {
    outcome = () =>
      Promise.resolve({ kind: 'next', next: 'BIOGRAPHIC_VERIFICATION', transactions: [{ statusCode: 'SUCCESS', comment: 'valid' }], bioRefId: 'ref-1' });
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'PROCESSING', stage: 'BIOGRAPHIC_VERIFICATION', attempts: 0, bioRefId: 'ref-1' });
    expect(state.current.transactions).toEqual([{ rid: RID, type: 'VALIDATE_PACKET', statusCode: 'SUCCESS', comment: 'valid' }]);
    expect(state.current.jobs).toEqual([{ kind: 'regproc.deduplicate', rid: RID, singletonKey: `regproc:${RID}` }]);
    expect(state.current.completed).toBe(1);
  });

  it('does nothing for a registration that has left the stage (a duplicate or overtaken job)', async () => {
    outcome = () => Promise.reject(new Error('must not run'));
    await pipeline.runStage('UPLOAD_PACKET', RID, job);
    state.current.rows.set(RID, registration({ status: 'REJECTED' }));
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(state.current).toMatchObject({ transactions: [], jobs: [], completed: 0 });
  });

  it('ends the registration on a refusal, with the refusal as its transaction', async () => {
    outcome = () => Promise.reject(new StageRejection('REJECTED', 'the supervisor rejected the registration', 'SUPERVISOR_REJECTED'));
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'REJECTED', stage: 'VALIDATE_PACKET', lastError: 'the supervisor rejected the registration' });
    expect(state.current.transactions).toEqual([
      { rid: RID, type: 'VALIDATE_PACKET', statusCode: 'REJECTED', subStatusCode: 'SUPERVISOR_REJECTED', comment: 'the supervisor rejected the registration' },
    ]);
    expect(state.current.jobs).toEqual([]);
  });

  it('sends a failure of the platform to REPROCESS after the elapse time, then REPROCESS_FAILED at the attempt limit', async () => {
    outcome = () => Promise.reject(new StageFault('object store (s3) unreachable'));
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'REPROCESS', attempts: 1, lastError: 'object store (s3) unreachable' });
    expect(rowNow().nextAttemptAt).toEqual(new Date('2026-11-25T10:01:00Z'));
    expect(await pipeline.reprocessDue()).toBe(0);
    clock.advance(60_000);
    expect(await pipeline.reprocessDue()).toBe(1);
    expect(rowNow()).toMatchObject({ status: 'PROCESSING', nextAttemptAt: null });
    expect(state.current.jobs).toEqual([{ kind: 'regproc.validate-packet', rid: RID, singletonKey: `regproc:${RID}` }]);
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'REPROCESS_FAILED', attempts: 2, nextAttemptAt: null });
    expect(state.current.transactions.map((row) => `${row.type}:${row.statusCode}`)).toEqual([
      'VALIDATE_PACKET:REPROCESS',
      'PACKET_REPROCESS:IN_PROGRESS',
      'VALIDATE_PACKET:REPROCESS_FAILED',
    ]);
  });

  it("shows an operator a reference to the log, never an error's own text (a driver's message, a path)", async () => {
    outcome = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432 at /srv/platform/node_modules/pg/lib/client.js'));
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'REPROCESS', attempts: 1 });
    expect(rowNow().lastError).toMatch(/^internal error [0-9a-f]{8}: see the platform's log$/);
    expect(state.current.transactions.map((row) => row.comment).join(' ')).not.toMatch(/ECONNREFUSED|node_modules/);
  });

  it('stops a stage whose outcome the database refuses for what it holds, once, instead of retrying it', async () => {
    const refused = new Prisma.PrismaClientKnownRequestError('Database error. Code: `22021`. invalid byte sequence', {
      code: 'P2039',
      clientVersion: 'test',
      meta: { driverAdapterError: { cause: { originalCode: '22021' } } },
    });
    outcome = () => Promise.resolve({ kind: 'next', next: 'BIOGRAPHIC_VERIFICATION', transactions: [{ statusCode: 'SUCCESS', comment: 'valid' }] });
    const record = store.record.bind(store);
    let calls = 0;
    store.record = (...args) => (calls++ === 0 ? Promise.reject(refused) : record(...args));
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(rowNow()).toMatchObject({ status: 'REPROCESS_FAILED', attempts: 1, nextAttemptAt: null });
    expect(rowNow().lastError).toMatch(/^the outcome of VALIDATE_PACKET could not be stored \(internal error [0-9a-f]{8}\)$/);
    expect(state.current.jobs).toEqual([]);
    // Any other failure to write the outcome (a connection lost) is the job's to retry.
    state.current.rows.set(RID, registration());
    calls = 0;
    store.record = (...args) => (calls++ === 0 ? Promise.reject(new Error('Connection terminated unexpectedly')) : record(...args));
    await expect(pipeline.runStage('VALIDATE_PACKET', RID, job)).rejects.toThrow(/Connection terminated/);
    expect(rowNow()).toMatchObject({ status: 'PROCESSING', stage: 'VALIDATE_PACKET' });
  });

  it('writes nothing when another run moved the registration meanwhile', async () => {
    outcome = () => {
      state.current.rows.set(RID, registration({ stage: 'BIOGRAPHIC_VERIFICATION' }));
      return Promise.resolve({ kind: 'next', next: 'BIOGRAPHIC_VERIFICATION', transactions: [{ statusCode: 'SUCCESS', comment: 'valid' }] });
    };
    await pipeline.runStage('VALIDATE_PACKET', RID, job);
    expect(state.current).toMatchObject({ transactions: [], jobs: [], completed: 0 });
  });
});

describe('manual adjudication', () => {
  beforeEach(async () => {
    state.current.rows.set(RID, registration({ stage: 'BIOGRAPHIC_VERIFICATION' }));
    outcome = () => Promise.reject(new Error('unused'));
    await pipeline.deduplicated(RID, { kind: 'candidates', candidates: [{ rid: 'other', refType: 'RID', reasonCode: 'BIO' }] });
  });

  it('waits for an adjudicator with the candidates, without a job', () => {
    expect(rowNow()).toMatchObject({ status: 'PROCESSING', stage: 'MANUAL_ADJUDICATION' });
    expect(state.current.candidates).toEqual([{ rid: RID, matched: 'other' }]);
    expect(state.current.jobs).toEqual([]);
  });

  it('goes on to the UIN on approval and ends REJECTED on rejection', async () => {
    const { store } = memory(state);
    await store.inTransaction((tx) => pipeline.adjudicated(tx, rowNow(), true, 'adjudicator', clock.now()));
    expect(rowNow()).toMatchObject({ stage: 'UIN_GENERATOR', status: 'PROCESSING' });
    expect(state.current.jobs.map((entry) => entry.kind)).toEqual(['regproc.uin-generator']);

    state.current.rows.set(RID, registration({ stage: 'MANUAL_ADJUDICATION' }));
    await store.inTransaction((tx) => pipeline.adjudicated(tx, rowNow(), false, 'adjudicator', clock.now()));
    expect(rowNow()).toMatchObject({ stage: 'MANUAL_ADJUDICATION', status: 'REJECTED' });
  });

  it('is not a stuck registration an admin may resume', async () => {
    await expect(pipeline.resume('admin', { rid: RID })).rejects.toThrow(PlatformError);
  });
});

describe('resume', () => {
  it('runs the stage of a failed registration again with a fresh attempt budget, naming the admin', async () => {
    state.current.rows.set(RID, registration({ stage: 'UPLOAD_PACKET', status: 'FAILED', attempts: 3, lastError: 'cannot be decrypted' }));
    expect(await pipeline.resume('admin', { stage: 'UPLOAD_PACKET' })).toEqual([RID]);
    expect(rowNow()).toMatchObject({ status: 'PROCESSING', attempts: 0, lastError: null });
    expect(state.current.transactions).toEqual([{ rid: RID, type: 'WORKFLOW_RESUME', statusCode: 'SUCCESS', comment: 'UPLOAD_PACKET resumed by admin' }]);
    expect(state.current.jobs).toEqual([{ kind: 'regproc.upload-packet', rid: RID, singletonKey: `regproc:${RID}` }]);
  });

  it('refuses a registration that is not stuck (RPR-RGS-015) and changes nothing', async () => {
    state.current.rows.set(RID, registration({ progressAt: clock.now() }));
    await expect(pipeline.resume('admin', { rid: RID })).rejects.toMatchObject({ code: 'RPR-RGS-015' });
    await expect(pipeline.resume('admin', { rid: 'unknown' })).rejects.toMatchObject({ code: 'RPR-RGS-015' });
    expect(state.current).toMatchObject({ transactions: [], jobs: [] });
  });

  it('takes on a registration idle past the stuck time', async () => {
    state.current.rows.set(RID, registration({ progressAt: new Date(clock.now().getTime() - 3_600_001) }));
    expect(await pipeline.resume('admin', { rid: RID })).toEqual([RID]);
    expect(state.current.jobs.map((entry) => entry.kind)).toEqual(['regproc.validate-packet']);
  });
});
