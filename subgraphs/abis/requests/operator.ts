import { randomUUID } from 'node:crypto';
import type { Database, Subscription } from '../../../lib/db/client.js';
import { PlatformError } from '../../../lib/errors.js';
import type { EventBus } from '../../../lib/events.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Logger } from '../../../lib/log.js';
import type { MessageQueue } from '../../../lib/queue/index.js';
import type { Clock } from '../../../lib/time.js';
import { ABIS_QUESTIONS, type AbisQuestion } from './messages.js';
import type { AbisEndpoint, AbisRequestService } from './service.js';
import { ABIS_ANSWERS_CHANNEL, type AbisRequestFilter, type AbisRequestRow, type AbisRequestStorage, type NewAbisRequest } from './storage.js';

export type Liveness = 'UP' | 'DOWN' | 'UNKNOWN';

/** One ABIS as an operator sees it: its queues, whether it answers, what it has outstanding and what it last said. */
export interface AbisSystemView {
  name: string;
  requestQueue: string;
  responseQueue: string;
  liveness: Liveness;
  /** when it last answered a ping */
  lastAnsweredAt: Date | null;
  /** requests written and not yet sent */
  unsent: number;
  /** requests sent and not yet answered */
  unanswered: number;
  /** when the oldest outstanding request was written */
  oldestOutstandingAt: Date | null;
  /** its own count of queued jobs, from its last pendingJobs answer */
  pendingJobs: number | null;
  /** its count of references, from its last referenceCount answer */
  referenceCount: number | null;
}

/** What an operator is told when a registration's reference cannot be deleted. */
const RPR_INVALID = 'RPR-RGS-015';
const RPR_NOT_FOUND = 'RPR-RGS-031';
/** Kept past their answer for the liveness view, then purged. */
const QUESTION_RETENTION_MS = 24 * 3_600_000;
/** Read again this long after the last read without news: a notification lost while the listener was down. */
const RECHECK_MS = 1000;

/**
 * Wakes operators' waits as their requests are answered: by the in-process event at once, by NOTIFY (LISTEN from
 * the first question on) when another instance consumed the reply; by a listener (re)connected, as some may be lost.
 */
export class AnswerSignals {
  private readonly hearers = new Set<(id: string | undefined) => void>();
  private readonly stopHearing: (() => void) | undefined;
  private listening: Promise<Subscription | undefined> | undefined;

  constructor(private readonly sources: { database?: Pick<Database, 'subscribe'>; events?: Pick<EventBus, 'on'>; logger?: Logger; recheckMs?: number } = {}) {
    this.stopHearing = sources.events?.on('abis.request.answered', 'abis-operator', ({ requestId }) => this.hear(requestId));
  }

  /** `id` answered (undefined: any may have been) */
  private hear(id: string | undefined): void {
    for (const hearer of this.hearers) hearer(id);
  }

  /** Listens to every instance's answers (once per process; if it cannot, waits re-read every second). */
  async listen(): Promise<void> {
    const handlers = { message: (id: string) => this.hear(id), up: () => this.hear(undefined), down: () => undefined };
    this.listening ??= (this.sources.database?.subscribe(ABIS_ANSWERS_CHANNEL, handlers) ?? Promise.resolve(undefined)).catch((error: unknown) => {
      this.sources.logger?.warn({ err: error }, 'answers of other instances not heard: operators wait by re-reading every second');
      this.listening = undefined;
      return undefined;
    });
    await this.listening;
  }

  /** Calls `read` until it leaves no request open or `until` (epoch ms) passes: again once per answer heard to one still open, else every second. */
  async readUntilAnswered<T>(read: () => Promise<{ result: T; open: string[] }>, until: number): Promise<T> {
    let open: ReadonlySet<string> = new Set();
    let heard = new Set<string>(); // answers heard since the last read began
    let wake: (() => void) | undefined;
    const news = () => heard.has('*') || [...heard].some((id) => open.has(id));
    const hearer = (id: string | undefined) => {
      heard.add(id ?? '*');
      if (wake && news()) wake();
    };
    this.hearers.add(hearer);
    try {
      for (;;) {
        heard = new Set();
        const { result, open: stillOpen } = await read();
        open = new Set(stillOpen);
        if (!open.size || Date.now() >= until) return result;
        if (!news())
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(this.sources.recheckMs ?? RECHECK_MS, until - Date.now()));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        wake = undefined;
      }
    } finally {
      this.hearers.delete(hearer);
    }
  }

  async close(): Promise<void> {
    this.stopHearing?.();
    await (await this.listening)?.close();
  }
}

/** The registration a delete names, as the ABIS component needs it. */
export type RegistrationLookup = (rid: string) => Promise<{ rid: string; status: string; bioRefId: string | null } | null>;

/**
 * The operator's side of the ABIS (ABIS.md (b)'s optional operations):
 * questions answered while the operator waits (bounded), deletes of
 * rejected registrations' references, each ABIS's liveness from the
 * recurring pings, and the requests by state and age.
 */
export class AbisOperatorService {
  constructor(
    private readonly store: AbisRequestStorage,
    private readonly requests: AbisRequestService,
    private readonly registrationOf: RegistrationLookup,
    private readonly queue: Pick<MessageQueue, 'state'>,
    private readonly clock: Clock,
    private readonly settings: { pingTimeoutSeconds: number; pingIntervalSeconds: number },
    private readonly answers: AnswerSignals = new AnswerSignals(),
  ) {}

  private endpointsNamed(abisName: string | null | undefined): AbisEndpoint[] {
    const endpoints = this.requests.endpoints;
    if (!abisName) return endpoints;
    const found = endpoints.filter((endpoint) => endpoint.name === abisName);
    if (!found.length) throw new PlatformError(RPR_INVALID, `Invalid request value, input data incorrect: no ABIS is named ${abisName} (ABIS_COUNT)`);
    return found;
  }

  private ensureQueue(): void {
    if (this.queue.state === 'DISABLED') throw new PlatformError('RPR-SYS-001', 'the message queue is disabled (STOMP_URL unset): no ABIS can be reached');
  }

  private question(operation: AbisQuestion, abisName: string, requestedBy: string, now: Date): NewAbisRequest {
    return {
      id: randomUUID(),
      abisName,
      operation,
      rid: null,
      batchId: null,
      referenceId: null,
      referenceUrl: null,
      status: 'IN_PROGRESS',
      requestedBy,
      createdAt: now,
    };
  }

  /**
   * Asks one ABIS (or every one) a question and waits up to `waitSeconds`
   * (at most the ping timeout) for the answers; the requests as they stand
   * then: answered, or still SENT (their answer is recorded when it comes).
   */
  async ask(operation: AbisQuestion, abisName: string | null | undefined, requestedBy: string, waitSeconds: number): Promise<AbisRequestRow[]> {
    if (!(ABIS_QUESTIONS as readonly string[]).includes(operation))
      throw new PlatformError(RPR_INVALID, `Invalid request value, input data incorrect: ${operation}`);
    const endpoints = this.endpointsNamed(abisName);
    this.ensureQueue();
    const now = this.clock.now();
    const rows = endpoints.map((endpoint) => this.question(operation, endpoint.name, requestedBy, now));
    await this.answers.listen();
    await this.requests.enqueueHeld(rows);
    return this.awaitAnswers(
      rows.map((row) => row.id),
      Math.min(waitSeconds, this.settings.pingTimeoutSeconds) * 1000,
    );
  }

  /** Reads the requests until none is outstanding or the time is up: again at each answer heard, else every second. */
  private awaitAnswers(ids: string[], waitMs: number): Promise<AbisRequestRow[]> {
    return this.answers.readUntilAnswered(async () => {
      const rows = await this.store.byIds(ids);
      return { result: rows, open: rows.filter((row) => row.status === 'IN_PROGRESS' || row.status === 'SENT').map((row) => row.id) };
    }, Date.now() + waitMs);
  }

  /** Deletes a rejected registration's reference from every ABIS (or one); a registration still in play keeps it. */
  async deleteReference(rid: string, abisName: string | null | undefined, requestedBy: string): Promise<AbisRequestRow[]> {
    const endpoints = this.endpointsNamed(abisName);
    const registration = await this.registrationOf(rid);
    if (!registration) throw new PlatformError(RPR_NOT_FOUND, `RID not found: ${rid}`);
    if (registration.status !== 'REJECTED')
      throw new PlatformError(
        RPR_INVALID,
        `Invalid request value, input data incorrect: ${rid} is ${registration.status}; only a REJECTED registration leaves the ABIS`,
      );
    if (!registration.bioRefId) throw new PlatformError(RPR_INVALID, `Invalid request value, input data incorrect: ${rid} never reached an ABIS`);
    this.ensureQueue();
    const names = new Set(endpoints.map((endpoint) => endpoint.name));
    const rows = this.requests.deletes(rid, registration.bioRefId, requestedBy, this.clock.now()).filter((row) => names.has(row.abisName));
    await this.answers.listen();
    await this.requests.enqueueHeld(rows);
    return this.awaitAnswers(
      rows.map((row) => row.id),
      this.settings.pingTimeoutSeconds * 1000,
    );
  }

  /** The recurring `abis.ping`: a ping to every ABIS (each answered or expired on its own), and old questions purged. */
  async pingAll(): Promise<void> {
    if (this.queue.state === 'DISABLED') return;
    const now = this.clock.now();
    await this.store.inTransaction((tx) =>
      this.requests.enqueue(
        tx,
        this.requests.endpoints.map((endpoint) => this.question('PING', endpoint.name, 'platform', now)),
      ),
    );
    await this.store.purgeQuestions(ABIS_QUESTIONS, new Date(now.getTime() - QUESTION_RETENTION_MS));
  }

  /** An ABIS's liveness from its last two pings: the newest answered or overdue one decides. */
  private liveness(pings: AbisRequestRow[], now: Date): { liveness: Liveness; lastAnsweredAt: Date | null } {
    const overdue = (row: AbisRequestRow) => now.getTime() - row.createdAt.getTime() > this.settings.pingTimeoutSeconds * 1000;
    const lastAnsweredAt = pings.find((row) => row.status === 'PROCESSED')?.answeredAt ?? null;
    for (const ping of pings) {
      if (ping.status === 'PROCESSED') return { liveness: 'UP', lastAnsweredAt };
      if (ping.status === 'FAILED') return { liveness: 'DOWN', lastAnsweredAt };
      // Not answered yet: DOWN once overdue; a young one leaves the decision to the ping before it.
      if (overdue(ping)) return { liveness: 'DOWN', lastAnsweredAt };
    }
    return { liveness: 'UNKNOWN', lastAnsweredAt };
  }

  /** Every configured ABIS as an operator sees it. */
  async systems(options: { lastCounts: boolean } = { lastCounts: true }): Promise<AbisSystemView[]> {
    const endpoints = this.requests.endpoints;
    const names = endpoints.map((endpoint) => endpoint.name);
    const now = this.clock.now();
    // /health reads liveness and backlog only: the last answers to operators' questions are the admin view's.
    const lastAnswers = (operation: string) => (options.lastCounts ? this.store.latest(names, operation, 5) : Promise.resolve([]));
    const [pings, pendingJobs, referenceCounts, outstanding] = await Promise.all([
      this.store.latest(names, 'PING', 2),
      lastAnswers('PENDING_JOBS'),
      lastAnswers('REFERENCE_COUNT'),
      this.store.outstanding(),
    ]);
    const lastResult = (rows: AbisRequestRow[], name: string) => {
      const answered = rows.find((row) => row.abisName === name && row.status === 'PROCESSED' && row.result !== null);
      const value = answered ? Number(answered.result) : NaN;
      return Number.isFinite(value) ? value : null;
    };
    return endpoints.map((endpoint) => {
      const mine = outstanding.filter((group) => group.abisName === endpoint.name);
      const count = (status: string) => mine.filter((group) => group.status === status).reduce((sum, group) => sum + group.count, 0);
      const oldest = mine.map((group) => group.oldest).filter((at): at is Date => at !== null);
      return {
        ...endpoint,
        ...this.liveness(
          pings.filter((row) => row.abisName === endpoint.name),
          now,
        ),
        unsent: count('IN_PROGRESS'),
        unanswered: count('SENT'),
        oldestOutstandingAt: oldest.length ? new Date(Math.min(...oldest.map((at) => at.getTime()))) : null,
        pendingJobs: lastResult(pendingJobs, endpoint.name),
        referenceCount: lastResult(referenceCounts, endpoint.name),
      };
    });
  }

  /** The ABIS part of `/health`: DISABLED without a queue; else UP when every ABIS answers its pings, DOWN when one does not. */
  async health(): Promise<{
    status: Liveness | 'DISABLED';
    details: Record<string, { liveness: Liveness; unanswered: number; lastAnsweredAt: string | null }>;
  }> {
    if (this.queue.state === 'DISABLED') return { status: 'DISABLED', details: {} };
    const systems = await this.systems({ lastCounts: false });
    const details = Object.fromEntries(
      systems.map((system) => [
        system.name,
        { liveness: system.liveness, unanswered: system.unanswered, lastAnsweredAt: system.lastAnsweredAt?.toISOString() ?? null },
      ]),
    );
    const status: Liveness = systems.some((system) => system.liveness === 'DOWN')
      ? 'DOWN'
      : systems.every((system) => system.liveness === 'UP')
        ? 'UP'
        : 'UNKNOWN';
    return { status, details };
  }

  /** The requests, newest first, by state, operation, ABIS, registration and age. */
  list(filter: AbisRequestFilter, page: PageArgs): Promise<Connection<AbisRequestRow>> {
    return connection(
      page,
      (row) => row.id,
      (query) => this.store.page(filter, query),
      () => this.store.count(filter),
    );
  }
}
