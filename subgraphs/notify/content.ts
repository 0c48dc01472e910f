import { createHmac } from 'node:crypto';
import { NOTIFICATION_KEY } from '../keys/policy.js';
import type { KeysService } from '../keys/service.js';
import type { Attachment, Message } from './delivery.js';
import type { NotificationRow } from './storage.js';

/** What is sealed at rest: everything of a message that may carry a secret or personal data (rows before issue 19 hold no recipients). */
export interface Sealed {
  to?: string;
  cc?: string | null;
  body: string;
  attachments: Attachment[];
}

/** A recorded message as the admin reads it: recipients and body opened, null once dropped. */
export type OutboxMessage = Omit<NotificationRow, 'recipientKeys' | 'content'> & { to: string | null; cc: string | null; body: string | null };

/** An address as it is looked up: e-mail addresses in any case, numbers as given. */
const normalised = (address: string) => address.trim().toLowerCase();

/**
 * What a message's row holds of its people: recipients and body sealed with
 * the key store, and the recipients' look-up keys (an HMAC per address).
 */
export class NotificationContent {
  constructor(
    /** the key store, which seals recipients and bodies at rest */
    private readonly sealer: Pick<KeysService, 'seal' | 'open'>,
    /** the HMAC key of the recipients' look-up values */
    private readonly recipientKey: Buffer,
  ) {}

  /** The look-up value of one address: equal addresses (in any case) give equal values, and nothing else can be learnt from it. */
  keyOf(address: string): string {
    return createHmac('sha256', this.recipientKey).update(normalised(address), 'utf8').digest('base64url');
  }

  /** The look-up keys of every recipient of a message (comma-separated addresses), once each. */
  keysOfRecipients(to: string): string[] {
    return [...new Set(to.split(',').map((address) => this.keyOf(address)))];
  }

  /** The keys a recipient filter asks for (comma-separated addresses: all of them); undefined for no filter (null or empty). */
  keysOfFilter(to: string | null | undefined): string[] | undefined {
    if (!to) return undefined;
    const addresses = to.split(',').filter((address) => normalised(address));
    return (addresses.length ? addresses : [to]).map((address) => this.keyOf(address));
  }

  seal(message: Message): Promise<string> {
    const sealed: Sealed = { to: message.to, cc: message.cc, body: message.body, attachments: message.attachments };
    return this.sealer.seal(NOTIFICATION_KEY, Buffer.from(JSON.stringify(sealed), 'utf8'));
  }

  /** The recipients, body and attachments of a row, or null once they have been dropped. */
  async open(row: Pick<NotificationRow, 'content'>): Promise<Sealed | null> {
    if (!row.content) return null;
    return JSON.parse((await this.sealer.open(NOTIFICATION_KEY, row.content)).toString('utf8')) as Sealed;
  }

  /** Rows as the admin reads them, recipients and bodies opened. */
  opened(rows: NotificationRow[]): Promise<OutboxMessage[]> {
    return Promise.all(
      rows.map(async (row) => {
        const sealed = await this.open(row);
        const { recipientKeys: _keys, content: _content, ...shown } = row;
        return { ...shown, to: sealed?.to ?? null, cc: sealed?.cc ?? null, body: sealed?.body ?? null };
      }),
    );
  }
}
