import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpDrain } from '../../gateway/drain.js';

const REQUEST = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

let servers: Server[] = [];

/** A server that answers `ok` (after `delayMs`), with its drain. */
async function serve(delayMs = 0): Promise<{ server: Server; drain: HttpDrain; port: number }> {
  const server = createServer((_req, res) => {
    setTimeout(() => res.end('ok'), delayMs).unref();
  });
  const drain = new HttpDrain(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, drain, port: (server.address() as AddressInfo).port };
}

/** A raw connection that records what it receives and how it ended. */
async function connect(server: Server, port: number) {
  const accepted = new Promise((resolve) => server.once('connection', resolve));
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let failure = '';
  socket.on('data', (chunk) => (answer += chunk.toString()));
  socket.on('error', (error) => (failure = String(error)));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  await accepted;
  return { socket, closed, answer: () => answer, failure: () => failure };
}

/** A request sent whole to a server that answers it after `delayMs`, read by the server before the drain begins. */
async function requestInFlight(delayMs: number) {
  const { server, drain, port } = await serve(delayMs);
  const client = await connect(server, port);
  client.socket.write(REQUEST);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { drain, client };
}

/** Holds the event loop, as a busy process does: timers fall due before pending reads are polled. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

afterEach(() => {
  for (const server of servers) server.closeAllConnections();
  servers = [];
});

describe('HttpDrain', () => {
  it('answers a request that was still unread in the socket buffer when the idle sweep fell due', async () => {
    const { server, drain, port } = await serve();
    const client = await connect(server, port);
    const drained = drain.drain(10_000);
    client.socket.write(REQUEST);
    // The sweep's timer falls due while the request's bytes wait in the socket buffer: the request must still be answered.
    busyFor(500);
    await client.closed;
    expect(client.failure()).toBe('');
    expect(client.answer()).toMatch(/^HTTP\/1.1 200 OK/);
    expect(client.answer()).toContain('Connection: close');
    await drained;
  });

  it('closes a kept-alive connection with nothing to answer at the first sweep, long before the grace time', async () => {
    const { server, drain, port } = await serve();
    const client = await connect(server, port);
    client.socket.write(REQUEST);
    await new Promise((resolve) => client.socket.once('data', resolve));
    expect(client.answer()).toContain('Connection: keep-alive');
    const started = Date.now();
    await drain.drain(10_000);
    await client.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('closes a connection that never sent a byte without waiting for the grace time', async () => {
    const { server, drain, port } = await serve();
    const silent = await connect(server, port);
    const started = Date.now();
    await drain.drain(10_000);
    await silent.closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(silent.answer()).toBe('');
  });

  it('leaves a request whose headers are still arriving to finish (a slow link), answering it', async () => {
    const { server, drain, port } = await serve();
    const slow = await connect(server, port);
    slow.socket.write(REQUEST.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = drain.drain(10_000);
    // Several sweeps pass before the rest of the headers arrives.
    await new Promise((resolve) => setTimeout(resolve, 700));
    slow.socket.write(REQUEST.slice(10));
    await slow.closed;
    expect(slow.failure()).toBe('');
    expect(slow.answer()).toMatch(/^HTTP\/1.1 200 OK/);
    await drained;
  });

  it('lets a slow answer in flight finish with Connection: close, then cuts what remains at the grace time', async () => {
    const answered = await requestInFlight(300);
    await answered.drain.drain(10_000);
    await answered.client.closed;
    expect(answered.client.answer()).toMatch(/^HTTP\/1.1 200 OK/);
    expect(answered.client.answer()).toContain('Connection: close');

    const stuck = await requestInFlight(60_000);
    await stuck.drain.drain(300);
    await stuck.client.closed;
    expect(stuck.client.answer()).toBe('');
  });
});
