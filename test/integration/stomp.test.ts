import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { StompConnection, type StompMessage } from '../../lib/queue/stomp.js';
import { relay } from '../support/activemq.js';
import { waitFor } from '../support/wait.js';

// Runs against a real ActiveMQ; scripts/activemq.sh starts one when STOMP_URL is local.
const STOMP_URL = process.env.STOMP_URL || 'stomp://127.0.0.1:61613';
const broker = new URL(STOMP_URL);
const BROKER_HOST = broker.hostname;
const BROKER_PORT = Number(broker.port || 61613);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const opened: StompConnection[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

function connection(url = STOMP_URL, extra: Partial<ConstructorParameters<typeof StompConnection>[0]> = {}): StompConnection {
  const conn = new StompConnection({ url, reconnectDelayMs: 50, maxReconnectDelayMs: 500, logger: pino({ level: 'silent' }), ...extra });
  opened.push(conn);
  return conn;
}

const queue = (): string => `/queue/test-${randomUUID()}`;

beforeAll(async () => {
  if (!['127.0.0.1', 'localhost'].includes(BROKER_HOST)) return; // a broker someone else runs
  await promisify(execFile)('bash', ['scripts/activemq.sh', 'start'], {
    cwd: ROOT,
    env: { ...process.env, STOMP_PORT: String(BROKER_PORT) },
    timeout: 120_000,
  });
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(opened.map((conn) => conn.close()));
  for (const cleanup of cleanups) await cleanup();
});

describe('StompConnection against ActiveMQ', () => {
  it('delivers a persistent message with its body and custom header, acked client-individual', async () => {
    const conn = connection();
    await conn.connect();
    const dest = queue();
    const received: StompMessage[] = [];
    conn.subscribe(
      dest,
      (msg) => {
        received.push(msg);
        msg.ack();
      },
      { ack: 'client-individual' },
    );

    const text = JSON.stringify({ requestId: randomUUID(), name: 'Zoë Ω' });
    const bytes = Buffer.from([0x00, 0x01, 0xff, 0x00, 0x41]); // NUL bytes need content-length framing
    await conn.send(dest, text, { 'correlation-id': 'req-1', 'x-platform-test': 'a:b\\c' });
    await conn.send(dest, bytes, { 'correlation-id': 'req-2' });

    await waitFor(() => received.length === 2, 'two deliveries');
    const [first, second] = received as [StompMessage, StompMessage];
    expect(first.body.toString('utf8')).toBe(text);
    expect(first.headers['correlation-id']).toBe('req-1');
    expect(first.headers['x-platform-test']).toBe('a:b\\c');
    expect(first.headers.persistent).toBe('true');
    expect(first.headers.destination).toBe(dest);
    expect(second.body.equals(bytes)).toBe(true);
    expect(second.headers['correlation-id']).toBe('req-2');
  });

  it('redelivers an unacknowledged message to a new subscription after the first connection closes', async () => {
    const dest = queue();
    const producer = connection();
    await producer.connect();
    await producer.send(dest, 'needs-ack', { 'x-n': '1' });

    const first = connection();
    await first.connect();
    const seen: StompMessage[] = [];
    first.subscribe(
      dest,
      (msg) => {
        seen.push(msg); // deliberately not acked
      },
      { ack: 'client-individual' },
    );
    const original = await waitFor(() => seen[0], 'first delivery');
    await first.close();

    const second = connection();
    await second.connect();
    const again: StompMessage[] = [];
    second.subscribe(
      dest,
      (msg) => {
        again.push(msg);
        msg.ack();
      },
      { ack: 'client-individual' },
    );
    const redelivered = await waitFor(() => again[0], 'redelivery');
    expect(redelivered.body.toString()).toBe('needs-ack');
    expect(redelivered.headers['message-id']).toBe(original.headers['message-id']);
    expect(redelivered.headers['x-n']).toBe('1');

    // Acked now: a third subscriber gets nothing (checked through a marker sent after it).
    await second.close();
    const third = connection();
    await third.connect();
    const rest: string[] = [];
    third.subscribe(dest, (msg) => {
      rest.push(msg.body.toString());
      msg.ack();
    });
    await third.send(dest, 'marker');
    await waitFor(() => rest.includes('marker'), 'marker');
    expect(rest).toEqual(['marker']);
  });

  it('reconnects after the connection is cut and re-subscribes', async () => {
    const link = await relay(STOMP_URL);
    cleanups.push(link.close);
    const consumer = connection(link.url);
    await consumer.connect();
    const dest = queue();
    const bodies: string[] = [];
    consumer.subscribe(dest, (msg) => {
      bodies.push(msg.body.toString());
      msg.ack();
    });
    const producer = connection();
    await producer.connect();
    await producer.send(dest, 'before');
    await waitFor(() => bodies.includes('before'), 'message before the cut');

    link.dropAll();
    await waitFor(() => link.accepted() >= 2 && consumer.state === 'UP', 'reconnect through the relay');
    await producer.send(dest, 'after');
    await waitFor(() => bodies.includes('after'), 'message after the reconnect');
    // The ACK of 'before' may have been cut with the link: at-least-once allows it to come again.
    expect([...new Set(bodies)]).toEqual(['before', 'after']);

    // While the link is down, a send fails fast instead of hanging.
    await link.close();
    await waitFor(() => consumer.state !== 'UP', 'connection loss');
    await expect(consumer.send(dest, 'lost')).rejects.toThrow(/not sent/);
  });

  it('reports UP after connect and DOWN after close, and refuses to send once closed', async () => {
    const conn = connection();
    expect(conn.state).toBe('DOWN');
    const connecting = conn.connect();
    expect(conn.state).toBe('CONNECTING');
    await connecting;
    expect(conn.state).toBe('UP');
    await conn.close();
    expect(conn.state).toBe('DOWN');
    await expect(conn.send(queue(), 'x')).rejects.toThrow();
    await expect(conn.connect()).rejects.toThrow(/closed/);
  });

  it('keeps a connection with heart-beats up through bursts and silences', async () => {
    // ActiveMQ omits a heart-beat after a period with traffic, so its silences reach twice the
    // interval; a read check of one interval would cut the connection here within a few rounds.
    const link = await relay(STOMP_URL);
    cleanups.push(link.close);
    const conn = connection(link.url, { heartbeatMs: 200 });
    await conn.connect();
    const dest = queue();
    const until = Date.now() + 3000;
    for (let i = 0; Date.now() < until; i++) {
      await conn.send(dest, `m${i}`);
      await new Promise((resolve) => setTimeout(resolve, 50 + ((i * 137) % 400)));
    }
    expect(conn.state).toBe('UP');
    expect(link.accepted()).toBe(1);
  });

  it('keeps the passcode out of errors and logs', async () => {
    const passcode = `pw-${randomUUID()}`;
    // A fake broker that echoes the credentials in its ERROR frame, as a careless one might.
    const fake = net.createServer((socket) => {
      socket.once('data', (chunk) => {
        const echoed = chunk.toString().replace(/\0/g, '').replace(/\n/g, ' ');
        socket.end(`ERROR\nmessage:bad login ${echoed}\ncontent-type:text/plain\ncontent-length:${Buffer.byteLength(echoed)}\n\n${echoed}\0`);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => fake.close(() => resolve())));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { port } = fake.address() as net.AddressInfo;
    const conn = connection(`stomp://127.0.0.1:${port}`, { login: 'svc', passcode, logger: pino({ level: 'debug' }, sink) });
    const error = await conn.connect().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.message).toContain('[redacted]');
    expect(error?.message).not.toContain(passcode);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(passcode);
    await waitFor(() => lines.length > 0, 'a log line');
    await conn.close();
    expect(lines.join('')).not.toContain(passcode);
  });
});
