import { beforeEach, describe, expect, it } from 'vitest';
import type { PlatformDeps } from '../../lib/deps.js';
import { connection, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { backoffAfter } from '../../lib/jobs/execute.js';
import type { HeldJob, JobTx } from '../../lib/jobs/types.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import type { Message } from '../../subgraphs/notify/delivery.js';
import { notifyJobs } from '../../subgraphs/notify/jobs.js';
import { NotificationService } from '../../subgraphs/notify/service.js';
import type { NotifySettings } from '../../subgraphs/notify/settings.js';
import type {
  AttemptOutcome,
  NewNotification,
  NotificationQuery,
  NotificationRow,
  NotificationStore,
  TemplateRow,
  TemplateStore,
} from '../../subgraphs/notify/storage.js';

/*
 * Notification delivery (notify/service.ts, deliver-notification.ts, jobs.ts)
 * over an in-memory notification table, a gateway that fails on demand and
 * the job runner's own back-off: retries, the last attempt, single delivery,
 * and the outbox's retention. No database, no SMTP.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const HOUR = 3_600_000;
const SETTINGS: NotifySettings = {
  smtpUrl: 'smtp://mail.example.org:25',
  mailFrom: 'platform@example.org',
  smsGatewayUrl: undefined,
  smsNumberLength: 10,
  maxAttempts: 4,
  retryBaseSeconds: 30,
  purgeEveryMs: 5000,
  outboxRetentionHours: 24,
};
const TX = { in: 'a transaction' } as unknown as JobTx;

/** notification in memory, with the storage's conditional writes. */
class MemoryNotifications implements NotificationStore {
  readonly rows: NotificationRow[] = [];

  constructor(private readonly clock: ManualClock) {}

  private insert(message: NewNotification): string {
    const id = `n${this.rows.length + 1}`;
    this.rows.push({ id, ...message, attempts: 0, lastError: null, nextAttemptAt: null, sentAt: null, createdAt: this.clock.now() });
    return id;
  }

  /** The row an attempt may still write: PENDING, with fewer attempts. */
  private current(id: string, attempt: number): NotificationRow | undefined {
    return this.rows.find((row) => row.id === id && row.status === 'PENDING' && row.attempts < attempt);
  }

  record(message: NewNotification): Promise<void> {
    this.insert(message);
    return Promise.resolve();
  }

  recordThen<T>(message: NewNotification, then: (id: string, tx: JobTx) => Promise<T>): Promise<T> {
    return then(this.insert(message), TX);
  }

  recordIn(_tx: JobTx, message: NewNotification): Promise<string> {
    return Promise.resolve(this.insert(message));
  }

  byId(id: string): Promise<NotificationRow | null> {
    return Promise.resolve(this.rows.find((row) => row.id === id) ?? null);
  }

  byIds(ids: readonly string[]): Promise<NotificationRow[]> {
    return Promise.resolve(this.rows.filter((row) => ids.includes(row.id)));
  }

  recordFailure(id: string, attempt: number, outcome: AttemptOutcome): Promise<void> {
    const row = this.current(id, attempt);
    if (row) Object.assign(row, outcome, { attempts: attempt });
    return Promise.resolve();
  }

  async recordSent(id: string, attempt: number, sentAt: Date, then: (tx: JobTx) => Promise<void>): Promise<void> {
    const row = this.current(id, attempt);
    if (row) Object.assign(row, { status: 'SENT', attempts: attempt, sentAt, lastError: null, nextAttemptAt: null, content: null });
    await then(TX);
  }

  dropPersonalData(before: Date): Promise<number> {
    const dropped = this.rows.filter((row) => row.status !== 'PENDING' && row.createdAt < before && (row.content !== null || row.recipientKeys.length > 0));
    for (const row of dropped) Object.assign(row, { content: null, recipientKeys: [] });
    return Promise.resolve(dropped.length);
  }

  private selected(query: NotificationQuery): NotificationRow[] {
    return this.rows
      .filter(
        (row) =>
          (!query.recipientKeys || query.recipientKeys.every((key) => row.recipientKeys.includes(key))) &&
          (!query.channel || row.channel === query.channel) &&
          (!query.status || row.status === query.status),
      )
      .reverse();
  }

  newest(query: NotificationQuery, take: number): Promise<NotificationRow[]> {
    return Promise.resolve(this.selected(query).slice(0, take));
  }

  page(page: PageArgs, query: NotificationQuery): Promise<Connection<NotificationRow>> {
    const rows = this.selected(query);
    return connection(
      page,
      (row) => row.id,
      ({ take }) => Promise.resolve(rows.slice(0, take)),
      () => Promise.resolve(rows.length),
    );
  }
}

/** No template rows: the built-in texts. */
const noTemplates: TemplateStore = {
  forPurpose: () => Promise.resolve([]),
  save: (template: TemplateRow) => Promise.resolve(template),
  page: (page) =>
    connection(
      page,
      () => '',
      () => Promise.resolve([]),
      () => Promise.resolve(0),
    ),
  byKeys: () => Promise.resolve([]),
};

/** A gateway that fails the next `failures` sends (naming the recipient, as gateways do), then delivers. */
class FlakyGateway {
  failures = 0;
  readonly sent: Message[] = [];

  configured(): boolean {
    return true;
  }

  send(message: Message): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error(`550 mailbox ${message.to} unavailable (+1 555 0100 200)`));
    }
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): void {}
}

/** Seals as readable JSON behind a marker: enough to see what the row keeps. */
const sealer = {
  seal: (_pair: unknown, data: Buffer) => Promise.resolve(`sealed:${data.toString('base64')}`),
  open: (_pair: unknown, sealed: string) => Promise.resolve(Buffer.from(sealed.slice('sealed:'.length), 'base64')),
};

let clock: ManualClock;
let rows: MemoryNotifications;
let gateway: FlakyGateway;
let held: { notificationId: string }[];
let completed: number;
let service: NotificationService;

/** The delivery job's definition as the registry declares it. */
const definition = () => notifyJobs({ services: { notify: service } } as unknown as PlatformDeps, SETTINGS)['notify.deliver']!;

/** Runs attempt `attempt` of a delivery as the job runner does: its retry time from the definition's back-off, none on the last. */
function attempt(notificationId: string, attempt: number): Promise<void> {
  const job = definition();
  const retryAt = attempt < job.maxAttempts! ? new Date(clock.now().getTime() + backoffAfter(job, attempt)) : null;
  return service.deliver(notificationId, { attempt, retryAt, completeIn: () => (completed++, Promise.resolve()) });
}

beforeEach(() => {
  clock = new ManualClock(NOW);
  rows = new MemoryNotifications(clock);
  gateway = new FlakyGateway();
  held = [];
  completed = 0;
  const jobs = {
    hold: (_kind: string, payload: { notificationId: string }): Promise<HeldJob> => {
      held.push(payload);
      return Promise.resolve({ run: () => attempt(payload.notificationId, 1).catch(() => undefined) });
    },
    enqueue: () => Promise.resolve(undefined),
  };
  service = new NotificationService(
    { notifications: rows, templates: noTemplates },
    clock,
    SETTINGS,
    createLogger('silent'),
    sealer,
    Buffer.alloc(32, 3),
    jobs as never,
    gateway,
  );
});

const email = { mailTo: ['someone@example.org'], mailSubject: 'Hello', mailContent: 'Your code is 123456' };

describe('the delivery job', () => {
  it('retries with the notify back-off (doubling from PLATFORM_NOTIFY_RETRY_SECONDS) and the configured attempts', () => {
    const job = definition();
    expect(job.maxAttempts).toBe(4);
    expect([1, 2, 3].map((n) => backoffAfter(job as never, n))).toEqual([30_000, 60_000, 120_000]);
  });
});

describe('a delivery', () => {
  it('is recorded sealed with its job, tried at once, and keeps nothing of the recipient or body once sent', async () => {
    await service.sendEmail(email);
    expect(held).toEqual([{ notificationId: 'n1' }]);
    expect(gateway.sent).toHaveLength(1);
    expect(gateway.sent[0]).toMatchObject({ to: 'someone@example.org', subject: 'Hello', body: 'Your code is 123456' });
    const [row] = rows.rows;
    expect(row).toMatchObject({ status: 'SENT', attempts: 1, content: null, lastError: null, nextAttemptAt: null, sentAt: NOW });
    expect(row!.recipientKeys).toHaveLength(1);
    expect(completed).toBe(1);
  });

  it('writes a failed attempt for the next one, when it runs and why, without the address or number', async () => {
    gateway.failures = 1;
    await service.sendEmail(email);
    const [row] = rows.rows;
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, nextAttemptAt: new Date(NOW.getTime() + 30_000) });
    expect(row!.lastError).toBe('550 mailbox <recipient> unavailable (<recipient>)');
    expect(row!.content).toMatch(/^sealed:/);
    expect(completed).toBe(0);
  });

  it('is retried with a growing delay and marked FAILED after the last attempt, nothing retried after it', async () => {
    gateway.failures = 10;
    await service.sendEmail(email);
    const delays: (number | null)[] = [rows.rows[0]!.nextAttemptAt!.getTime() - clock.now().getTime()];
    for (let n = 2; n <= 4; n++) {
      clock.set(rows.rows[0]!.nextAttemptAt!);
      await expect(attempt('n1', n)).rejects.toThrow('550 mailbox <recipient> unavailable');
      const next = rows.rows[0]!.nextAttemptAt;
      delays.push(next ? next.getTime() - clock.now().getTime() : null);
    }
    expect(delays).toEqual([30_000, 60_000, 120_000, null]);
    expect(rows.rows[0]).toMatchObject({ status: 'FAILED', attempts: 4 });
    // a FAILED row is left alone: a job run again sends nothing
    gateway.failures = 0;
    await attempt('n1', 5);
    expect(gateway.sent).toHaveLength(0);
  });

  it('succeeds on a retry: SENT, with the attempt that delivered it', async () => {
    gateway.failures = 2;
    await service.sendEmail(email);
    await expect(attempt('n1', 2)).rejects.toThrow();
    await attempt('n1', 3);
    expect(rows.rows[0]).toMatchObject({ status: 'SENT', attempts: 3, content: null, lastError: null, nextAttemptAt: null });
    expect(gateway.sent).toHaveLength(1);
  });

  it('sends once when the job runs twice, and a late writer of an earlier attempt changes nothing', async () => {
    await service.sendEmail(email);
    await attempt('n1', 1);
    await attempt('n1', 2);
    expect(gateway.sent).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ status: 'SENT', attempts: 1 });
  });

  it('fails an attempt whose recipients were dropped before it could go', async () => {
    gateway.failures = 1;
    await service.sendEmail(email);
    rows.rows[0]!.content = null;
    await expect(attempt('n1', 2)).rejects.toThrow('nothing left to deliver: the recipients were dropped');
    expect(rows.rows[0]).toMatchObject({ status: 'PENDING', attempts: 2 });
  });
});

describe('the outbox retention', () => {
  it('drops recipients, bodies and look-up keys of settled messages past the retention time, never of one being delivered', async () => {
    gateway.failures = 100;
    await service.sendEmail(email); // n1 stays PENDING
    await service.sendEmail({ ...email, mailTo: ['other@example.org'] }); // n2 too
    await attempt('n2', 4).catch(() => undefined); // n2: FAILED
    gateway.failures = 0;
    await service.sendEmail({ ...email, mailTo: ['third@example.org'] }); // n3: SENT, keys kept
    clock.advance(SETTINGS.outboxRetentionHours * HOUR);
    expect(await service.purgeExpired()).toBe(0);
    clock.advance(1);
    expect(await service.purgeExpired()).toBe(2);
    expect(rows.rows.map((row) => [row.id, row.status, row.content === null, row.recipientKeys.length])).toEqual([
      ['n1', 'PENDING', false, 1],
      ['n2', 'FAILED', true, 0],
      ['n3', 'SENT', true, 0],
    ]);
    expect(await service.purgeExpired()).toBe(0);
  });

  it('finds a message by its recipient, in any case, until the retention time drops its keys', async () => {
    await service.sendEmail(email);
    expect((await service.outbox({ to: 'SomeOne@Example.org' })).map((message) => message.id)).toEqual(['n1']);
    expect(await service.outbox({ to: 'nobody@example.org' })).toEqual([]);
    clock.advance(SETTINGS.outboxRetentionHours * HOUR + 1);
    await service.purgeExpired();
    expect(await service.outbox({ to: 'someone@example.org' })).toEqual([]);
  });
});
