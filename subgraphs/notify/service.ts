import type { Connection, PageArgs } from '../../lib/graph/connection.js';
import type { Jobs, JobTx } from '../../lib/jobs/types.js';
import type { Logger } from '../../lib/log.js';
import type { Clock } from '../../lib/time.js';
import type { KeysService } from '../keys/service.js';
import { NotificationContent, type OutboxMessage } from './content.js';
import { DeliverNotification, type DeliveryJob } from './deliver-notification.js';
import { Delivery, type Attachment, type Message } from './delivery.js';
import { notifyErrors } from './errors.js';
import type { NotifySettings } from './settings.js';
import type { NewNotification, NotificationStore, TemplateKey, TemplateRow, TemplateStore } from './storage.js';
import { BUILT_IN_TEMPLATES, render, type Template } from './templates.js';

export type { OutboxMessage };

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

/** A message ready for its row: sealed content, the recipients' look-up keys, and whether a gateway will deliver it. */
export interface ComposedNotification extends NewNotification {
  channel: Channel;
}

/** The purpose of the key the recipients' look-up HMACs are made with (derived from the master key). */
export const RECIPIENT_KEY_PURPOSE = 'notify/recipient-hmac';

/** The most messages one outbox answer holds: the bound of its `limit` (a larger limit reads as this). */
export const OUTBOX_LIMIT = 500;

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/** The notification service's tables: recorded messages and templates. */
export interface NotifyStorage {
  notifications: NotificationStore;
  templates: TemplateStore;
}

/**
 * E-mail and SMS. Every message is recorded before delivery: with no gateway
 * configured it stays in the outbox; a failed delivery is retried with
 * backoff (a job) and marked FAILED only after the configured attempts.
 */
export class NotificationService {
  private readonly content: NotificationContent;
  private readonly delivering: DeliverNotification;

  constructor(
    private readonly storage: NotifyStorage,
    clock: Clock,
    private readonly settings: NotifySettings,
    logger: Logger,
    /** the key store, which seals recipients and bodies at rest */
    sealer: Pick<KeysService, 'seal' | 'open'>,
    /** the HMAC key of the recipients' look-up values */
    recipientKey: Buffer,
    /** deliveries are jobs (notify.deliver) */
    private readonly jobs: Pick<Jobs, 'hold' | 'enqueue'>,
    /** where messages go: SMTP, an SMS gateway, or nowhere (the outbox) */
    private readonly delivery: Pick<Delivery, 'configured' | 'send' | 'close'> = new Delivery(settings),
  ) {
    this.content = new NotificationContent(sealer, recipientKey);
    this.delivering = new DeliverNotification(storage.notifications, this.content, delivery, clock, settings, logger);
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
      await this.storage.notifications.record(composed);
      return;
    }
    const delivery = await this.storage.notifications.recordThen(composed, (notificationId, tx) =>
      this.jobs.hold('notify.deliver', { notificationId }, { tx }),
    );
    await delivery.run();
  }

  /** A message as its row holds it: sealed, with the recipients' look-up keys. */
  private async compose(message: Message & { channel: Channel }): Promise<ComposedNotification> {
    const content = await this.content.seal(message);
    return {
      channel: message.channel,
      recipientKeys: this.content.keysOfRecipients(message.to),
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
    const notificationId = await this.storage.notifications.recordIn(tx, composed);
    if (composed.status === 'PENDING') await this.jobs.enqueue('notify.deliver', { notificationId }, { tx });
  }

  /** One delivery attempt (the `notify.deliver` job): see DeliverNotification. */
  deliver(notificationId: string, job: DeliveryJob): Promise<void> {
    return this.delivering.deliver(notificationId, job);
  }

  /** Recipients, bodies and look-up keys past the retention time dropped (the `notify.purge` job); how many rows. */
  purgeExpired(): Promise<number> {
    return this.delivering.purgeExpired();
  }

  stop(): void {
    this.delivery.close();
  }

  /** Recorded messages, newest first, with recipients and bodies opened for the admin (null once dropped); `to` is a whole address; `limit` of them, OUTBOX_LIMIT at most. */
  async outbox(filter: { to?: string | null; channel?: string | null; limit?: number | null }): Promise<OutboxMessage[]> {
    const rows = await this.storage.notifications.newest(
      { recipientKeys: this.content.keysOfFilter(filter.to), channel: filter.channel },
      Math.min(Math.max(filter.limit ?? 50, 1), OUTBOX_LIMIT),
    );
    return this.content.opened(rows);
  }

  /** The template for a purpose in a language, falling back to English, then to the built-in text. */
  async template(code: string, langCode: string, channel: Channel): Promise<Template> {
    const rows = await this.storage.templates.forPurpose(code, channel, [langCode, 'eng']);
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
    return this.storage.templates.save({
      code: input.code,
      langCode: input.langCode,
      channel: input.channel,
      subject: input.subject ?? null,
      body: input.body,
    });
  }

  /** Templates by code, language and channel (their composite key). */
  templates(page: PageArgs): Promise<Connection<TemplateRow>> {
    return this.storage.templates.page(page);
  }

  async templatesByKey(keys: readonly TemplateKey[]): Promise<Map<string, TemplateRow>> {
    const rows = await this.storage.templates.byKeys(keys);
    return new Map(rows.map((row) => [`${row.code}\0${row.langCode}\0${row.channel}`, row]));
  }

  /** Recorded messages, newest first, bodies opened for the admin. */
  async notifications(
    page: PageArgs,
    filter?: { to?: string | null; channel?: string | null; status?: string | null } | null,
  ): Promise<Connection<OutboxMessage>> {
    const found = await this.storage.notifications.page(page, {
      recipientKeys: this.content.keysOfFilter(filter?.to),
      channel: filter?.channel,
      status: filter?.status,
    });
    const nodes = await this.content.opened(found.edges.map((edge) => edge.node));
    return { ...found, edges: found.edges.map((edge, i) => ({ ...edge, node: nodes[i]! })) };
  }

  /** The messages still to deliver and the oldest one's time (metrics). */
  backlog(): Promise<{ count: number; oldestAt: Date | null }> {
    return this.storage.notifications.backlog?.() ?? Promise.resolve({ count: 0, oldestAt: null });
  }

  async byIds(ids: readonly string[]): Promise<Map<string, OutboxMessage>> {
    const rows = await this.content.opened(await this.storage.notifications.byIds(ids));
    return new Map(rows.map((row) => [row.id, row]));
  }
}
