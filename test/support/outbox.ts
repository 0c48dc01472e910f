import { bearer, type TestPlatform } from './platform.js';

export interface OutboxMessage {
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  status: string;
}

/** One admin login per platform for reading its outbox (each login counts against the address throttle). */
const adminTokens = new WeakMap<TestPlatform, string>();

/** The newest message to an address, read from the outbox as an admin would; an error when there is none. */
export async function lastMessage(t: TestPlatform, to: string): Promise<OutboxMessage> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let token = adminTokens.get(t);
    if (!token) adminTokens.set(t, (token = await t.adminToken()));
    const result = await t.graphql('query($to: String) { outbox(to: $to, limit: 1) { channel to subject body status } }', { to }, bearer(token));
    if (!result.errors) {
      const message = result.data.outbox[0] as OutboxMessage | undefined;
      if (!message) throw new Error(`no message to ${to} in the outbox`);
      return message;
    }
    // The cached token expired (a test moved the clock) or was revoked: log in again.
    adminTokens.delete(t);
  }
  throw new Error(`the outbox could not be read for ${to}`);
}

/** The six-digit OTP in a message body. */
export const otpIn = (body: string) => /\b(\d{6})\b/.exec(body)?.[1] ?? '';
