import { pino, type Logger as PinoLogger } from 'pino';
import type { StompConnection } from '../../lib/queue/stomp.js';

/**
 * What is the mock ABIS's own on the queue (ABIS.md (a), (f)); the connection itself is
 * lib/queue/stomp.ts. An ABIS answers in the message type the request came in: a text reply
 * goes without content-length and with `amq-msg-type:text` (as a JMS TextMessage arrives), a
 * bytes reply framed by content-length.
 */

export type MessageType = 'text' | 'bytes';

export interface Logger {
  info(detail: Record<string, unknown>, message: string): void;
  warn(detail: Record<string, unknown>, message: string): void;
  error(detail: Record<string, unknown>, message: string): void;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Which JMS type a delivery has: `amq-msg-type` if the broker says, else bytes when framed by length. */
export function messageTypeOf(headers: Record<string, string | number | undefined>): MessageType {
  const declared = String(headers['amq-msg-type'] ?? '').toLowerCase();
  if (declared === 'text' || declared === 'bytes') return declared;
  return headers['content-length'] !== undefined ? 'bytes' : 'text';
}

/** SENDs a reply of this type; resolves on the broker's RECEIPT (StompConnection adds `persistent`). */
export function sendReply(
  connection: StompConnection,
  destination: string,
  text: string,
  type: MessageType,
  extra: Record<string, string> = {},
): Promise<void> {
  const headers = { ...extra, 'content-type': 'application/json;charset=utf-8', 'amq-msg-type': type };
  if (type === 'text') return connection.send(destination, text, headers, { contentLength: false });
  return connection.send(destination, Buffer.from(text, 'utf8'), headers);
}

/** StompConnection logs through pino; the mock's logger may be any object with info/warn/error, so pino's records are handed to it. */
export function pinoFor(logger: Logger): PinoLogger {
  if (logger === silentLogger) return pino({ level: 'silent' });
  return pino(
    { base: null, timestamp: false },
    {
      write(line: string) {
        const { level, msg, ...detail } = JSON.parse(line) as { level: number; msg: string };
        if (level >= 50) logger.error(detail, msg);
        else if (level >= 40) logger.warn(detail, msg);
        else logger.info(detail, msg);
      },
    },
  );
}
