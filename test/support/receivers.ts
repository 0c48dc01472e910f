import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>/?ignoreTLS=true`: plain SMTP, nodemailer does not try STARTTLS */
  url: string;
  /** every accepted message, raw (headers and MIME body) */
  messages: string[];
  /** the SMTP envelope of each accepted message, in the same order */
  envelopes: { from: string; to: string[] }[];
  /** recipients refused with 550 (RCPT TO), in order */
  refused: string[];
  /** DATA transactions started, including ones still held by `beforeAccept` */
  transactions: number;
  close(): Promise<void>;
}

/**
 * A local SMTP sink without TLS or AUTH. `refuse` decides, per RCPT TO and attempt number, whether to answer 550;
 * `beforeAccept`, when given, is awaited before a received message is acknowledged (a slow server).
 */
export async function startSmtpSink(
  options: { refuse?: (address: string, attempt: number) => boolean; beforeAccept?: () => Promise<void> } = {},
): Promise<SmtpSink> {
  const messages: string[] = [];
  const envelopes: SmtpSink['envelopes'] = [];
  const refused: string[] = [];
  const rcptCount = new Map<string, number>();
  const sink: SmtpSink = {
    url: '',
    messages,
    envelopes,
    refused,
    transactions: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const attempt = (rcptCount.get(address.address) ?? 0) + 1;
      rcptCount.set(address.address, attempt);
      if (options.refuse?.(address.address, attempt)) {
        refused.push(address.address);
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      sink.transactions++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (options.beforeAccept?.() ?? Promise.resolve()).then(() => {
          const from = session.envelope.mailFrom;
          envelopes.push({ from: from ? from.address : '', to: session.envelope.rcptTo.map((r) => r.address) });
          messages.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}/?ignoreTLS=true`;
  return sink;
}

export interface SmsRequest {
  method: string;
  contentType: string | undefined;
  body: unknown;
}

/** A local HTTP SMS gateway; `answer` decides each reply's HTTP status from the running request count. */
export async function startSmsReceiver(
  answer: (count: number) => number = () => 200,
): Promise<{ url: string; requests: unknown[]; received: SmsRequest[]; close(): Promise<void> }> {
  const requests: unknown[] = [];
  const received: SmsRequest[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => resolve(body));
    });
  const server: Server = createServer((req, res) => {
    void read(req).then((text) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      requests.push(body);
      received.push({ method: req.method ?? '', contentType: req.headers['content-type'], body });
      res.statusCode = answer(requests.length);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
