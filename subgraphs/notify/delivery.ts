import nodemailer, { type Transporter } from 'nodemailer';
import type { NotifySettings } from './settings.js';

export interface Attachment {
  filename: string;
  contentType: string;
  contentBase64: string;
}

export interface Message {
  channel: string;
  to: string;
  cc: string | null;
  subject: string | null;
  body: string;
  attachments: Attachment[];
}

/** Where messages actually go: SMTP (nodemailer), an HTTP SMS gateway, or nowhere (the outbox keeps them). */
export class Delivery {
  private transport: Transporter | undefined;

  constructor(private readonly settings: NotifySettings) {}

  /** Whether a channel has a real gateway; without one, messages stay in the outbox. */
  configured(channel: string): boolean {
    return channel === 'email' ? Boolean(this.settings.smtpUrl) : Boolean(this.settings.smsGatewayUrl);
  }

  async send(message: Message): Promise<void> {
    if (message.channel === 'email') return this.sendEmail(message);
    return this.sendSms(message);
  }

  private async sendEmail(message: Message): Promise<void> {
    // Timeouts well below the retry lease, so an attempt never outlives the claim on its row.
    const url = this.settings.smtpUrl!;
    this.transport ??= nodemailer.createTransport(`${url}${url.includes('?') ? '&' : '?'}connectionTimeout=10000&greetingTimeout=10000&socketTimeout=30000`);
    await this.transport.sendMail({
      from: this.settings.mailFrom,
      to: message.to,
      cc: message.cc ?? undefined,
      subject: message.subject ?? '',
      text: message.body,
      attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.contentBase64, 'base64') })),
    });
  }

  private async sendSms(message: Message): Promise<void> {
    const response = await fetch(this.settings.smsGatewayUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number: message.to, message: message.body }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
  }

  close(): void {
    this.transport?.close();
  }
}
