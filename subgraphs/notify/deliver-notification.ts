import type { JobContext } from '../../lib/jobs/types.js';
import type { Logger } from '../../lib/log.js';
import type { Clock } from '../../lib/time.js';
import type { NotificationContent } from './content.js';
import type { Delivery, Message } from './delivery.js';
import type { NotifySettings } from './settings.js';
import type { NotificationRow, NotificationStore } from './storage.js';

/** Addresses and long numbers in a gateway's error text, which is kept in the row's lastError and logged. */
const PERSONAL_IN_ERRORS = /[^\s@<>(),;:"']+@[^\s@<>(),;:"']+|\+?\d[\d -]{4,}\d/g;

/** What one attempt is told by the job runner: which attempt it is, when the next would run (null: none), and how to complete in a transaction. */
export type DeliveryJob = Pick<JobContext, 'attempt' | 'retryAt' | 'completeIn'>;

/**
 * Delivery attempts and the outbox's retention: a failed attempt is written
 * to the row and retried by the job runner with back-off (notify.deliver),
 * FAILED after the last; after the retention time a message keeps nothing
 * that names anyone (notify.purge).
 */
export class DeliverNotification {
  constructor(
    private readonly store: Pick<NotificationStore, 'byId' | 'recordFailure' | 'recordSent' | 'dropPersonalData'>,
    private readonly content: Pick<NotificationContent, 'open'>,
    private readonly gateway: Pick<Delivery, 'send'>,
    private readonly clock: Clock,
    private readonly settings: Pick<NotifySettings, 'outboxRetentionHours'>,
    private readonly logger: Logger,
  ) {}

  /**
   * One delivery attempt (the `notify.deliver` job). A delivered message
   * keeps no recipient and no body: channel, subject, state and times stay,
   * and the recipients' look-up keys until the retention time. A failure is
   * written to the row (attempts, the reason without addresses, when it is
   * tried again, FAILED on the last attempt) and thrown for the runner to
   * retry. A row already delivered or failed is left alone: a job run twice
   * sends once, but for a crash between the gateway's answer and the commit.
   */
  async deliver(notificationId: string, job: DeliveryJob): Promise<void> {
    const row = await this.store.byId(notificationId);
    if (row?.status !== 'PENDING') return;
    try {
      await this.gateway.send(await this.messageOf(row));
    } catch (error) {
      // A gateway's answer may name the recipient: no address or number is kept or logged.
      const lastError = error instanceof Error ? error.message.replace(PERSONAL_IN_ERRORS, '<recipient>').slice(0, 500) : 'delivery failed';
      await this.store.recordFailure(row.id, job.attempt, { status: job.retryAt ? 'PENDING' : 'FAILED', lastError, nextAttemptAt: job.retryAt });
      this.logger.warn(
        { notificationId: row.id, channel: row.channel, attempts: job.attempt, failed: !job.retryAt, error: lastError },
        'notification delivery failed',
      );
      throw new Error(lastError);
    }
    await this.store.recordSent(row.id, job.attempt, this.clock.now(), (tx) => job.completeIn(tx));
  }

  /** A recorded message as it is delivered; an error (the attempt fails) when its recipients were dropped before it could go. */
  private async messageOf(row: NotificationRow): Promise<Message> {
    const sealed = await this.content.open(row);
    if (!sealed?.to) throw new Error('nothing left to deliver: the recipients were dropped');
    return { channel: row.channel, to: sealed.to, cc: sealed.cc ?? null, subject: row.subject, body: sealed.body, attachments: sealed.attachments };
  }

  /**
   * After the retention time a message keeps neither recipients nor body
   * (outbox mode, failures) nor the recipients' look-up keys (any message
   * but one still being delivered): channel, subject, state and times stay,
   * naming no one. Answers how many rows were purged (the recurring
   * `notify.purge` job).
   */
  purgeExpired(): Promise<number> {
    return this.store.dropPersonalData(new Date(this.clock.now().getTime() - this.settings.outboxRetentionHours * 3_600_000));
  }
}
