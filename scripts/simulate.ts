// npm run simulate -- --count N [--centre 10001 --machine 10001] [--base http://localhost:8080]
//   [--concurrency 8] [--duplicates 0.1] [--timeout 600] [--certificate cert.pem] [--json] [--start [--abis]] [--prereg]
// Plays a registration centre against a running platform (tools/registration/simulator.ts): N sample
// residents synced, uploaded and followed to a final status; exit 0 only when all are PROCESSED but
// the duplicates, which must wait in manual adjudication.
// --start: first starts a platform of its own (as `npm start`, on the embedded database in a
// temporary folder, with the sample country) and stops it at the end: the whole chain in one command.
// --abis (with --start): that platform de-duplicates with an ABIS over ActiveMQ (STOMP_URL, default
// stomp://127.0.0.1:61613), and the development mock ABIS runs in this process on queues of its own.
// --prereg: the residents (duplicates aside) first pre-register and book online, signing in by the OTP
// the platform's outbox holds; the machine maps a fresh key, the centre syncs its booked ids and
// fetches each application, and each packet names its pre-registration, which must end Consumed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger } from '../lib/log.js';
import { signIn, type AdminCredentials } from '../tools/registration/client.js';
import { MAX_COUNT, simulate } from '../tools/registration/simulator.js';
import { reportLines } from '../tools/registration/summary.js';
import { StompConnection } from '../lib/queue/stomp.js';
import { DEFAULT_STOMP_URL, startMockAbis, type MockAbis } from '../tools/mock-abis/index.js';
import { DEFAULT_PARTNER_ID } from '../tools/mock-abis/keys.js';
import { createAbisClient, uploadAbisCertificate } from '../tools/mock-abis/setup.js';

export interface SimulateCli {
  count: number;
  centreId: string;
  machineId: string;
  base: string;
  concurrency: number;
  duplicates: number;
  timeoutSeconds: number;
  certificate?: string;
  json: boolean;
  start: boolean;
  abis: boolean;
  prereg: boolean;
}

const USAGE =
  'usage: npm run simulate -- --count N [--centre 10001] [--machine 10001] [--base http://localhost:8080] ' +
  '[--concurrency 8] [--duplicates 0.1] [--timeout 600] [--certificate cert.pem] [--json] [--start [--abis]] [--prereg]';

/** A number option within bounds, or an error naming the option. */
function numberOption(value: string | undefined, name: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Error(`--${name} must be ${rule}\n${USAGE}`);
  return n;
}

/** The command line, checked; throws with the usage on anything wrong. */
export function parseSimulateArgs(argv: string[]): SimulateCli {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        count: { type: 'string' },
        centre: { type: 'string', default: '10001' },
        machine: { type: 'string', default: '10001' },
        base: { type: 'string', default: 'http://localhost:8080' },
        concurrency: { type: 'string' },
        duplicates: { type: 'string' },
        timeout: { type: 'string' },
        certificate: { type: 'string' },
        json: { type: 'boolean', default: false },
        start: { type: 'boolean', default: false },
        abis: { type: 'boolean', default: false },
        prereg: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
  const text = (name: string) => values[name] as string | undefined;
  if (text('count') === undefined) throw new Error(`--count is required\n${USAGE}`);
  for (const name of ['centre', 'machine'])
    if (!/^\d{1,5}$/.test(text(name)!)) throw new Error(`--${name} must be 1 to 5 digits (it goes into the RID)\n${USAGE}`);
  if (!/^https?:\/\/[^\s]+$/.test(text('base')!)) throw new Error(`--base must be an http(s) URL\n${USAGE}`);
  // The mock ABIS needs the platform set up for it (de-duplication, queues, its client and certificate):
  // done only on a platform the simulator starts, never on someone's running one.
  if (values.abis && !values.start)
    throw new Error(`--abis needs --start (for a running platform with REGPROC_DEDUPE=abis, run \`npm run mock-abis\` beside it)\n${USAGE}`);
  const whole = (n: number) => Number.isInteger(n);
  return {
    count: numberOption(text('count'), 'count', 0, (n) => whole(n) && n >= 1 && n <= MAX_COUNT, `a whole number from 1 to ${MAX_COUNT}`),
    centreId: text('centre')!,
    machineId: text('machine')!,
    base: text('base')!.replace(/\/+$/, ''),
    concurrency: numberOption(text('concurrency'), 'concurrency', 8, (n) => whole(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64'),
    duplicates: numberOption(text('duplicates'), 'duplicates', 0, (n) => n >= 0 && n < 1, 'a share from 0 up to (not including) 1'),
    timeoutSeconds: numberOption(text('timeout'), 'timeout', 600, (n) => n > 0, 'a positive number of seconds'),
    ...(text('certificate') ? { certificate: text('certificate') } : {}),
    json: values.json === true,
    start: values.start === true,
    abis: values.abis === true,
    prereg: values.prereg === true,
  };
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface StartedPlatform {
  base: string;
  credentials: AdminCredentials;
  /** the temporary folder, removed by `stop` */
  dataDir: string;
  stop(): Promise<void>;
}

/** --start: the platform as `npm start` runs it, on the embedded database in a temporary folder, until `stop`. */
async function startPlatform(env: Record<string, string>): Promise<StartedPlatform> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-simulate-'));
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_PASSWORD: password,
      DATABASE_URL: '',
      STOMP_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const until = Date.now() + 180_000;
  while (
    !(await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error('the platform did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, credentials: { userName: 'admin', password }, dataDir, stop };
}

const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

/** Throws unless a STOMP broker at `url` answers CONNECT (the platform would not report healthy without it). */
async function checkBroker(url: string): Promise<void> {
  const connection = new StompConnection({
    url,
    login: process.env.STOMP_LOGIN,
    passcode: process.env.STOMP_PASSCODE,
    logger: createLogger('silent'),
    connectTimeoutMs: 5000,
  });
  try {
    await connection.connect();
  } catch (error) {
    throw new Error(
      `--abis: no STOMP broker answers at ${withoutCredentials(url)} (${(error as Error).message}); start one with \`npm run activemq -- start\` or set STOMP_URL`,
    );
  } finally {
    await connection.close(); // also ends the reconnects a failed attempt schedules
  }
}

/** --abis: the started platform's settings; one ABIS and the partner its certificate is uploaded for, whatever the environment says. */
const abisEnvironment = (stompUrl: string, queues: { request: string; response: string }) => ({
  REGPROC_DEDUPE: 'abis',
  STOMP_URL: stompUrl,
  ABIS_COUNT: '1',
  ABIS_PARTNER_ID: DEFAULT_PARTNER_ID,
  ABIS_REQUEST_QUEUE: queues.request,
  ABIS_RESPONSE_QUEUE: queues.response,
});

/**
 * --abis: the mock ABIS on the started platform's queues, as the ABIS
 * integration test sets it up: an ABIS client created by the admin, the
 * mock's certificate uploaded for partner-default-abis (data shares are
 * encrypted for it), its keys in the platform's temporary folder.
 */
async function startAbis(platform: StartedPlatform, stompUrl: string, queues: { request: string; response: string }): Promise<MockAbis> {
  const cookie = await signIn(platform.base, platform.credentials);
  const { clientId, secretKey } = await createAbisClient(platform.base, cookie);
  const mock = await startMockAbis({
    stompUrl,
    login: process.env.STOMP_LOGIN,
    passcode: process.env.STOMP_PASSCODE,
    requestQueue: `/queue/${queues.request}`,
    responseQueue: `/queue/${queues.response}`,
    base: platform.base,
    clientId,
    secretKey,
    appId: 'registrationprocessor',
    keysDir: path.join(platform.dataDir, 'mock-abis'),
  });
  try {
    await uploadAbisCertificate(platform.base, cookie, mock.keys.certificatePem);
  } catch (error) {
    await mock.close();
    throw error;
  }
  return mock;
}

async function main(): Promise<void> {
  let cli: SimulateCli;
  try {
    cli = parseSimulateArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // `||`: an empty STOMP_URL means no broker to the platform, and --abis needs one.
  const stompUrl = process.env.STOMP_URL || DEFAULT_STOMP_URL;
  if (cli.abis) {
    try {
      await checkBroker(stompUrl);
    } catch (error) {
      console.error((error as Error).message);
      process.exit(2);
    }
  }
  // Queues of this run's own: another platform or mock on the same broker must not take its messages.
  const run = randomBytes(4).toString('hex');
  const queues = { request: `platform-to-abis-${run}`, response: `abis-to-platform-${run}` };
  const platform = cli.start ? await startPlatform(cli.abis ? abisEnvironment(stompUrl, queues) : {}) : undefined;
  let mock: MockAbis | undefined;
  const summary = await (async () => {
    if (platform && cli.abis) mock = await startAbis(platform, stompUrl, queues);
    if (platform && !cli.json)
      console.log(`started a platform on the embedded database at ${platform.base}${mock ? `, with the mock ABIS on ${mock.requestQueue}` : ''}`);
    return simulate(platform?.base ?? cli.base, {
      ...(platform ? { credentials: platform.credentials } : {}),
      count: cli.count,
      centreId: cli.centreId,
      machineId: cli.machineId,
      concurrency: cli.concurrency,
      duplicates: cli.duplicates,
      timeoutSeconds: cli.timeoutSeconds,
      prereg: cli.prereg,
      ...(cli.certificate ? { certificatePem: readFileSync(cli.certificate, 'utf8') } : {}),
      log: cli.json ? undefined : (line) => console.log(line),
    });
  })().finally(async () => {
    await mock?.close();
    await platform?.stop();
  });
  if (cli.json) console.log(JSON.stringify(summary));
  else for (const line of reportLines(summary, { abis: cli.abis, timeoutSeconds: cli.timeoutSeconds })) console.log(line);
  process.exitCode = summary.ok ? 0 : 1;
}

// Run only as a script: the unit tests import parseSimulateArgs.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  });
}
