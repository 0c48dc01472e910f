// ActiveMQ for fault tests: a broker of the test's own (stopped and started without disturbing the
// shared one other files use) and a TCP relay in front of a broker whose connections the test cuts
// or whose client-to-broker traffic it holds back (an ACK written but never delivered).
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

export interface PrivateBroker {
  url: string;
  start: () => Promise<void>;
  /** stops the broker process (its persistent messages stay in its store for the next start) */
  stop: () => Promise<void>;
  /** stops it and removes its folder */
  remove: () => Promise<void>;
}

/** A broker on ports of its own, in a folder of its own, through scripts/activemq.sh as developers start one. */
export async function privateBroker(): Promise<PrivateBroker> {
  const [stompPort, openwirePort] = [await freePort(), await freePort()];
  const base = path.join(tmpdir(), `activemq-${stompPort}`);
  const env = { ...process.env, ACTIVEMQ_BASE: base, STOMP_PORT: String(stompPort), OPENWIRE_PORT: String(openwirePort) };
  const script = (command: string) => run('bash', ['scripts/activemq.sh', command], { cwd: ROOT, env, timeout: 120_000 }).then(() => undefined);
  return {
    url: `stomp://127.0.0.1:${stompPort}`,
    start: () => script('start'),
    stop: () => script('stop'),
    remove: async () => {
      await script('stop').catch(() => undefined);
      rmSync(base, { recursive: true, force: true });
    },
  };
}

export interface Relay {
  url: string;
  /** connections accepted so far */
  accepted: () => number;
  /** from now on, what clients write is kept back from the broker (the broker's side still flows to them) */
  hold: () => void;
  /** what was kept back goes on, and later writes flow again */
  release: () => void;
  /** cuts every connection; anything kept back is lost */
  dropAll: () => void;
  close: () => Promise<void>;
}

/** A TCP relay to the broker at `brokerUrl`. */
export async function relay(brokerUrl: string): Promise<Relay> {
  const broker = new URL(brokerUrl);
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket; held: Buffer[] }>();
  let accepted = 0;
  let holding = false;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(Number(broker.port || 61613), broker.hostname);
    const pair = { client, upstream, held: [] as Buffer[] };
    pairs.add(pair);
    const cut = (): void => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
    client.on('data', (chunk: Buffer) => {
      if (holding) pair.held.push(chunk);
      else upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const dropAll = (): void => {
    for (const pair of pairs) {
      pair.held.length = 0;
      pair.client.destroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };
  return {
    url: `stomp://127.0.0.1:${port}`,
    accepted: () => accepted,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const pair of pairs) for (const chunk of pair.held.splice(0)) pair.upstream.write(chunk);
    },
    dropAll,
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
