import type { Notification, PrismaClient } from '../../generated/prisma/client.js';
import type { NotifySettings } from '../../lib/config.js';
import type { Logger } from '../../lib/log.js';
import type { Clock } from '../../lib/time.js';
import { Delivery, type Attachment } from './delivery.js';
import { notifyErrors } from './errors.js';
import { BUILT_IN_TEMPLATES, render, type Template } from './templates.js';

export interface EmailInput {
  mailTo: string[];
  mailCc?: string[] | null;
  mailSubject: string;
  mailContent?: string | null;
  attachments?: Attachment[] | null;
}

export interface SendResult {
  status: 'success';
  message: string;
}

export type Channel = 'email' | 'sms';

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;
const LEASE_MS = 60_000;

/**
 * E-mail and SMS. Every message is recorded before delivery: with no gateway
 * configured it stays in the outbox; a failed delivery is retried with
 * backoff and marked FAILED only after the configured attempts.
 */
export class NotificationService {
  private readonly delivery: Delivery;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly settings: NotifySettings,
    private readonly logger: Logger,
  ) {
    this.delivery = new Delivery(settings);
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
      channel: 'email', to: to.join(','), cc: cc.length ? cc.join(',') : null, subject: input.mailSubject,
      body: input.mailContent ?? '', attachments: attachments.map((a) => ({ ...a, contentType: a.contentType || 'application/octet-stream' })),
    });
    return { status: 'success', message: 'Email Request submitted' };
  }

  /** Records the message, then tries to deliver it now; a failure is left for the retry sweep. */
  private async dispatch(message: { channel: Channel; to: string; cc: string | null; subject: string | null; body: string; attachments: Attachment[] }): Promise<void> {
    const configured = this.delivery.configured(message.channel);
    const now = this.clock.now();
    const row = await this.prisma.notification.create({
      data: {
        ...message,
        attachments: message.attachments.length ? message.attachments.map((a) => ({ ...a })) : undefined,
        status: configured ? 'PENDING' : 'OUTBOX',
        nextAttemptAt: configured ? new Date(now.getTime() + LEASE_MS) : null,
      },
    });
    if (configured) await this.attempt(row, row.nextAttemptAt!);
  }

  /** One delivery; its outcome is written only while this attempt still holds the lease on the row. */
  private async attempt(row: Notification, lease: Date): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      await this.delivery.send({ ...row, attachments: (row.attachments as Attachment[] | null) ?? [] });
      await this.prisma.notification.updateMany({ where: { id: row.id, nextAttemptAt: lease }, data: { status: 'SENT', attempts, sentAt: this.clock.now(), lastError: null, nextAttemptAt: null } });
    } catch (error) {
      const failed = attempts >= this.settings.maxAttempts;
      const backoffMs = this.settings.retryBaseSeconds * 1000 * 2 ** (attempts - 1);
      const lastError = error instanceof Error ? error.message.slice(0, 500) : 'delivery failed';
      await this.prisma.notification.updateMany({
        where: { id: row.id, nextAttemptAt: lease },
        data: { status: failed ? 'FAILED' : 'PENDING', attempts, lastError, nextAttemptAt: failed ? null : new Date(this.clock.now().getTime() + backoffMs) },
      });
      this.logger.warn({ notificationId: row.id, channel: row.channel, attempts, failed, error: lastError }, 'notification delivery failed');
    }
  }

  /** Delivers what is due; each row is claimed with a lease first, so several instances never send one twice. */
  async retryDue(): Promise<number> {
    const now = this.clock.now();
    const due = await this.prisma.notification.findMany({ where: { status: 'PENDING', nextAttemptAt: { lte: now } }, take: 50, orderBy: { nextAttemptAt: 'asc' } });
    let sent = 0;
    for (const row of due) {
      const lease = new Date(this.clock.now().getTime() + LEASE_MS);
      const { count } = await this.prisma.notification.updateMany({ where: { id: row.id, status: 'PENDING', nextAttemptAt: row.nextAttemptAt }, data: { nextAttemptAt: lease } });
      if (count !== 1) continue;
      await this.attempt(row, lease);
      sent++;
    }
    return sent;
  }

  startRetries(): void {
    this.timer ??= setInterval(() => {
      this.retryDue().catch((error: unknown) => this.logger.error({ err: error }, 'notification retry sweep failed'));
    }, this.settings.retrySweepMs).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.delivery.close();
  }

  outbox(filter: { to?: string | null; channel?: string | null; limit?: number | null }) {
    return this.prisma.notification.findMany({
      where: {
        ...(filter.to ? { to: { contains: filter.to } } : {}),
        ...(filter.channel ? { channel: filter.channel } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: Math.min(Math.max(filter.limit ?? 50, 1), 500),
    });
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

  templates() {
    return this.prisma.notificationTemplate.findMany({ orderBy: [{ code: 'asc' }, { langCode: 'asc' }] });
  }
}
