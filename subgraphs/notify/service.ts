import { createHmac } from 'node:crypto';
import type { Notification, NotificationTemplate, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import type { NotifySettings } from './settings.js';
import type { JobContext, Jobs, JobTx } from '../../lib/jobs/types.js';
import type { Logger } from '../../lib/log.js';
import type { Clock } from '../../lib/time.js';
import { NOTIFICATION_KEY } from '../keys/policy.js';
import type { KeysService } from '../keys/service.js';
import { Delivery, type Attachment, type Message } from './delivery.js';
import { PlatformError } from '../../lib/errors.js';
import { notifyErrors } from './errors.js';
import { BUILT_IN_TEMPLATES, render, type Template } from './templates.js';

export interface EmailInput {
  mailTo: string[];
  mailCc?: string[] | null;
  mailSubject: string;
  mailContent?: string | null;
  /** without a content type, application/octet-stream */
  attachments?: (Omit<Attachment, 'contentType'> & { contentType?: string | null })[] | null;
}

export interface SendResult {
  status: 'success';
  message: string;
}

export type Channel = 'email' | 'sms';

/** What is sealed at rest: everything of a message that may carry a secret or personal data (rows before issue 19 hold no recipients). */
/** A message ready for its row: sealed content, the recipients' look-up keys, and whether a gateway will deliver it. */
export interface ComposedNotification {
  channel: Channel;
  recipientKeys: string[];
  subject: string | null;
  content: string;
  attachmentNames: string[];
  status: 'PENDING' | 'OUTBOX';
}

interface Sealed {
  to?: string;
  cc?: string | null;
  body: string;
  attachments: Attachment[];
}

/** A recorded message as the admin reads it: recipients and body opened, null once dropped. */
export type OutboxMessage = Omit<Notification, 'recipientKeys' | 'content'> & { to: string | null; cc: string | null; body: string | null };

/** The purpose of the key the recipients' look-up HMACs are made with (derived from the master key). */
export const RECIPIENT_KEY_PURPOSE = 'notify/recipient-hmac';

/** The most messages one outbox answer holds: the bound of its `limit` (a larger limit reads as this). */
export const OUTBOX_LIMIT = 500;

/** An address as it is looked up: e-mail addresses in any case, numbers as given. */
const normalised = (address: string) => address.trim().toLowerCase();

/** Addresses and long numbers in a gateway's error text, which is kept in the row's lastError and logged. */
const PERSONAL_IN_ERRORS = /[^\s@<>(),;:"']+@[^\s@<>(),;:"']+|\+?\d[\d -]{4,}\d/g;

/** A template cursor's key; a forged cursor that decodes to anything else is the caller's mistake, not a failure. */
function templateKeyOf(key: string): [string, string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((part) => typeof part === 'string')) return parsed as [string, string, string];
  throw new PlatformError('BAD_USER_INPUT', 'after: not a cursor of this list');
}

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/**
 * E-mail and SMS. Every message is recorded before delivery: with no gateway
 * configured it stays in the outbox; a failed delivery is retried with
 * backoff (a job) and marked FAILED only after the configured attempts.
 */
export class NotificationService {
  private readonly delivery: Delivery;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly settings: NotifySettings,
    private readonly logger: Logger,
    /** the key store, which seals recipients and bodies at rest */
    private readonly sealer: Pick<KeysService, 'seal' | 'open'>,
    /** the HMAC key of the recipients' look-up values */
    private readonly recipientKey: Buffer,
    /** deliveries are jobs (notify.deliver) */
    private readonly jobs: Jobs,
  ) {
    this.delivery = new Delivery(settings);
  }

  /** The look-up value of one address: equal addresses (in any case) give equal values, and nothing else can be learnt from it. */
  private recipientKeyOf(address: string): string {
    return createHmac('sha256', this.recipientKey).update(normalised(address), 'utf8').digest('base64url');
  }

  /** The rows sent to every address of a recipient filter (comma-separated addresses: to all of them); no filter for null or empty. */
  private recipientFilter(to: string | null | undefined): Prisma.NotificationWhereInput {
    if (!to) return {};
    const addresses = to.split(',').filter((address) => normalised(address));
    return { recipientKeys: { hasEvery: (addresses.length ? addresses : [to]).map((address) => this.recipientKeyOf(address)) } };
  }

  static isEmail(value: string): boolean {
    return EMAIL.test(value);
  }

  async sendSms(number: string, message: string): Promise<SendResult> {
    if (!number?.trim() || !message?.trim()) throw notifyErrors.smsMissing();
    const length = this.settings.smsNumberLength;
    if (!new RegExp(`^\\d{${length}}$`).test(number)) throw notifyErrors.smsBadNumber(length);
    await this.dispatch({ channel: 'sms', to: number, cc: null, subject: null, body: message, attachments: [] });
    return { status: 'success', message: 'Sms Request Sent' };
  }

  async sendEmail(input: EmailInput): Promise<SendResult> {
    const to = input.mailTo.map((a) => a.trim()).filter(Boolean);
    const cc = (input.mailCc ?? []).map((a) => a.trim()).filter(Boolean);
    if (!to.length) throw notifyErrors.mailToMissing();
    if (!input.mailSubject?.trim()) throw notifyErrors.subjectMissing();
    for (const address of [...to, ...cc]) if (!EMAIL.test(address)) throw notifyErrors.badAddress(address);
    const attachments = input.attachments ?? [];
    for (const attachment of attachments) {
      if (!attachment.filename || /[/\\\0]/.test(attachment.filename)) throw notifyErrors.attachment('a file name is required, without path separators');
      if (!/^[A-Za-z0-9+/=\s]*$/.test(attachment.contentBase64)) throw notifyErrors.attachment(`${attachment.filename} is not base64`);
    }
    await this.dispatch({
      channel: 'email',
      to: to.join(','),
      cc: cc.length ? cc.join(',') : null,
      subject: input.mailSubject,
      body: input.mailContent ?? '',
      attachments: attachments.map((a) => ({ ...a, contentType: a.contentType || 'application/octet-stream' })),
    });
    return { status: 'success', message: 'Email Request submitted' };
  }

  /**
   * Records the message, its body and attachments sealed with the key store,
   * with its delivery job in the same transaction, then makes the first
   * attempt at once; a failure is retried by the job runner after the
   * back-off (any instance or worker), and a crash before the attempt leaves
   * the job to the next worker after its lease.
   */
  private async dispatch(message: Message & { channel: Channel }): Promise<void> {
    const composed = await this.compose(message);
    if (composed.status === 'OUTBOX') {
      await this.prisma.notification.create({ data: composed });
      return;
    }
    const delivery = await this.prisma.$transaction(async (tx) => {
      const row = await tx.notification.create({ data: composed, select: { id: true } });
      return this.jobs.hold('notify.deliver', { notificationId: row.id }, { tx });
    });
    await delivery.run();
  }

  /** A message as its row holds it: sealed, with the recipients' look-up keys. */
  private async compose(message: Message & { channel: Channel }): Promise<ComposedNotification> {
    const content = await this.sealer.seal(
      NOTIFICATION_KEY,
      Buffer.from(JSON.stringify({ to: message.to, cc: message.cc, body: message.body, attachments: message.attachments } satisfies Sealed), 'utf8'),
    );
    return {
      channel: message.channel,
      recipientKeys: [...new Set(message.to.split(',').map((address) => this.recipientKeyOf(address)))],
      subject: message.subject,
      content,
      attachmentNames: message.attachments.map((a) => a.filename),
      status: this.delivery.configured(message.channel) ? 'PENDING' : 'OUTBOX',
    };
  }

  /**
   * A template rendered and sealed for one address, to be recorded by
   * `queueIn` inside another component's transaction: the message exists
   * exactly when that change commits (the registration processor's
   * notification of a processed registration), and nothing is read while
   * the transaction is open.
   */
  async composeTemplate(channel: Channel, address: string, code: string, langCode: string, variables: Record<string, string>): Promise<ComposedNotification> {
    const template = await this.template(code, langCode, channel);
    return this.compose({
      channel,
      to: address,
      cc: null,
      subject: channel === 'email' ? render(template.subject ?? code, variables) : null,
      body: render(template.body, variables),
      attachments: [],
    });
  }

  /** Records a composed message and its delivery job in the caller's transaction. */
  async queueIn(tx: JobTx, composed: ComposedNotification): Promise<void> {
    const row = await tx.notification.create({ data: composed, select: { id: true } });
    if (composed.status === 'PENDING') await this.jobs.enqueue('notify.deliver', { notificationId: row.id }, { tx });
  }

  /** The recipients, body and attachments of a row, or null once they have been dropped. */
  private async contentOf(row: Pick<Notification, 'content'>): Promise<Sealed | null> {
    if (!row.content) return null;
    return JSON.parse((await this.sealer.open(NOTIFICATION_KEY, row.content)).toString('utf8')) as Sealed;
  }

  /**
   * One delivery attempt (the `notify.deliver` job). A delivered message
   * keeps no recipient and no body: channel, subject, state and times stay,
   * and the recipients' look-up keys until the retention time. A failure is
   * written to the row (attempts, the reason without addresses, when it is
   * tried again, FAILED on the last attempt) and thrown for the runner to
   * retry. A row already delivered or failed is left alone: a job run twice
   * sends once, but for a crash between the gateway's answer and the commit.
   */
  async deliver(notificationId: string, job: Pick<JobContext, 'attempt' | 'retryAt' | 'completeIn'>): Promise<void> {
    const row = await this.prisma.notification.findUnique({ where: { id: notificationId } });
    if (row?.status !== 'PENDING') return;
    // Attempts only grow: a late writer of an earlier attempt changes nothing.
    const current = { id: row.id, status: 'PENDING', attempts: { lt: job.attempt } };
    try {
      await this.delivery.send(await this.messageOf(row));
    } catch (error) {
      // A gateway's answer may name the recipient: no address or number is kept or logged.
      const lastError = error instanceof Error ? error.message.replace(PERSONAL_IN_ERRORS, '<recipient>').slice(0, 500) : 'delivery failed';
      await this.prisma.notification.updateMany({
        where: current,
        data: { status: job.retryAt ? 'PENDING' : 'FAILED', attempts: job.attempt, lastError, nextAttemptAt: job.retryAt },
      });
      this.logger.warn(
        { notificationId: row.id, channel: row.channel, attempts: job.attempt, failed: !job.retryAt, error: lastError },
        'notification delivery failed',
      );
      throw new Error(lastError);
    }
    await this.prisma.$transaction(async (tx) => {
      await tx.notification.updateMany({
        where: current,
        data: { status: 'SENT', attempts: job.attempt, sentAt: this.clock.now(), lastError: null, nextAttemptAt: null, content: null },
      });
      await job.completeIn(tx);
    });
  }

  /** A recorded message as it is delivered; an error (the attempt fails) when its recipients were dropped before it could go. */
  private async messageOf(row: Notification): Promise<Message> {
    const sealed = await this.contentOf(row);
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
  async purgeExpired(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.settings.outboxRetentionHours * 3_600_000);
    const { count } = await this.prisma.notification.updateMany({
      where: { status: { not: 'PENDING' }, createdAt: { lt: before }, OR: [{ content: { not: null } }, { recipientKeys: { isEmpty: false } }] },
      data: { content: null, recipientKeys: [] },
    });
    return count;
  }

  stop(): void {
    this.delivery.close();
  }

  /** Recorded messages, newest first, with recipients and bodies opened for the admin (null once dropped); `to` is a whole address; `limit` of them, OUTBOX_LIMIT at most. */
  async outbox(filter: { to?: string | null; channel?: string | null; limit?: number | null }): Promise<OutboxMessage[]> {
    const rows = await this.prisma.notification.findMany({
      where: {
        ...this.recipientFilter(filter.to),
        ...(filter.channel ? { channel: filter.channel } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: Math.min(Math.max(filter.limit ?? 50, 1), OUTBOX_LIMIT),
    });
    return this.opened(rows);
  }

  /** The template for a purpose in a language, falling back to English, then to the built-in text. */
  async template(code: string, langCode: string, channel: Channel): Promise<Template> {
    const rows = await this.prisma.notificationTemplate.findMany({ where: { code, channel, langCode: { in: [langCode, 'eng'] } } });
    const row = rows.find((r) => r.langCode === langCode) ?? rows.find((r) => r.langCode === 'eng');
    if (row) return { subject: row.subject, body: row.body };
    const builtIn = BUILT_IN_TEMPLATES[code] ?? BUILT_IN_TEMPLATES['auth-otp']!;
    return (builtIn[langCode] ?? builtIn.eng!)[channel];
  }

  /** Renders and sends a template to one address of a channel. */
  async sendTemplate(channel: Channel, address: string, code: string, langCode: string, variables: Record<string, string>): Promise<void> {
    const template = await this.template(code, langCode, channel);
    const body = render(template.body, variables);
    if (channel === 'email') await this.sendEmail({ mailTo: [address], mailSubject: render(template.subject ?? code, variables), mailContent: body });
    else await this.dispatch({ channel: 'sms', to: address, cc: null, subject: null, body, attachments: [] });
  }

  async saveTemplate(input: { code: string; langCode: string; channel: string; subject?: string | null; body: string }) {
    if (input.channel !== 'email' && input.channel !== 'sms') throw notifyErrors.templateInput('channel is email or sms');
    if (!/^[a-z]{3}$/.test(input.langCode)) throw notifyErrors.templateInput('langCode is a three-letter ISO 639-2 code');
    if (!input.code.trim() || !input.body.trim()) throw notifyErrors.templateInput('code and body are required');
    const data = { subject: input.subject ?? null, body: input.body };
    return this.prisma.notificationTemplate.upsert({
      where: { code_langCode_channel: { code: input.code, langCode: input.langCode, channel: input.channel } },
      create: { code: input.code, langCode: input.langCode, channel: input.channel, ...data },
      update: data,
    });
  }

  /** Templates by code, language and channel (their composite key). */
  templates(page: PageArgs): Promise<Connection<NotificationTemplate>> {
    const keyOf = (row: NotificationTemplate) => JSON.stringify([row.code, row.langCode, row.channel]);
    return connection(
      page,
      keyOf,
      ({ take, skip, after }) => {
        const cursor = after === undefined ? undefined : templateKeyOf(after);
        return this.prisma.notificationTemplate.findMany({
          take,
          skip,
          orderBy: [{ code: 'asc' }, { langCode: 'asc' }, { channel: 'asc' }],
          ...(cursor ? { cursor: { code_langCode_channel: { code: cursor[0], langCode: cursor[1], channel: cursor[2] } } } : {}),
        });
      },
      () => this.prisma.notificationTemplate.count(),
    );
  }

  async templatesByKey(keys: readonly { code: string; langCode: string; channel: string }[]): Promise<Map<string, NotificationTemplate>> {
    const rows = await this.prisma.notificationTemplate.findMany({
      where: { OR: keys.map((key) => ({ code: key.code, langCode: key.langCode, channel: key.channel })) },
    });
    return new Map(rows.map((row) => [`${row.code}\0${row.langCode}\0${row.channel}`, row]));
  }

  /** Recorded messages, newest first, bodies opened for the admin. */
  notifications(page: PageArgs, filter?: { to?: string | null; channel?: string | null; status?: string | null } | null): Promise<Connection<OutboxMessage>> {
    const where: Prisma.NotificationWhereInput = {
      ...this.recipientFilter(filter?.to),
      ...(filter?.channel ? { channel: filter.channel } : {}),
      ...(filter?.status ? { status: filter.status } : {}),
    };
    return connection(
      page,
      (row) => row.id,
      async (query) => this.opened(await this.prisma.notification.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() })),
      () => this.prisma.notification.count({ where }),
    );
  }

  async byIds(ids: readonly string[]): Promise<Map<string, OutboxMessage>> {
    const rows = await this.opened(await this.prisma.notification.findMany({ where: { id: { in: [...ids] } } }));
    return new Map(rows.map((row) => [row.id, row]));
  }

  private opened(rows: Notification[]): Promise<OutboxMessage[]> {
    return Promise.all(
      rows.map(async (row) => {
        const sealed = await this.contentOf(row);
        const { recipientKeys: _keys, content: _content, ...shown } = row;
        return { ...shown, to: sealed?.to ?? null, cc: sealed?.cc ?? null, body: sealed?.body ?? null };
      }),
    );
  }
}
