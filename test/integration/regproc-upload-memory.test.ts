// A 50 MB packet upload is streamed to disk and to the object store, never held whole in memory:
// the platform (its own process, as `npm start` runs it) grows by less than 40 MB of resident memory.
// A later stage decrypts a packet in memory; JOBS_RUN=false keeps this process to the receiver.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeRid, syncRecordOf, syncRequestBody } from '../../lib/packet/format.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort, waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Upload-memory-password-1';
const BASE = '/registrationprocessor/v1';

let platform: ChildProcess;
let url: string;
let cookie: string;
let certificate: string;
let dataDir: string;
let dropDatabase: () => Promise<void>;

/** Resident memory of the platform's process, in bytes. */
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${platform.pid}/status`, 'utf8'))![1]) * 1024;

beforeAll(async () => {
  const database = await createTestDatabase();
  dropDatabase = () => database.drop();
  dataDir = mkdtempSync(path.join(tmpdir(), 'platform-upload-memory-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  platform = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: database.url,
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_PASSWORD: PASSWORD,
      PLATFORM_SAMPLE_DATA: 'true',
      // The receiver alone: the stages (which decrypt a packet in memory) run elsewhere.
      JOBS_RUN: 'false',
      STOMP_URL: '',
      LOG_LEVEL: 'warn',
      PLATFORM_UIN_POOL_SIZE: '20',
      PLATFORM_UIN_POOL_THRESHOLD: '5',
    },
    stdio: 'ignore',
  });
  await waitFor(
    () =>
      fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      ),
    'platform start',
    120_000,
  );
  const login = await fetch(`${url}/v1/authmanager/authenticate/internal/useridPwd`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'x',
      version: '1.0',
      requesttime: new Date().toISOString(),
      request: { userName: 'admin', password: PASSWORD, appId: 'admin' },
    }),
  });
  cookie = `Authorization=Platform-Token${((await login.json()) as { response: { token: string } }).response.token}`;
  const cert = await fetch(`${url}/v1/keymanager/getCertificate?applicationId=REGISTRATION`, { headers: { cookie } });
  certificate = ((await cert.json()) as { response: { certificate: string } }).response.certificate;
}, 180_000);

afterAll(async () => {
  platform?.kill('SIGTERM');
  await new Promise((resolve) => (platform.exitCode !== null ? resolve(null) : platform.once('exit', resolve)));
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

async function receive(sequence: number, bytes: Buffer): Promise<unknown> {
  const rid = makeRid('10001', '10001', sequence, new Date());
  const sync = await fetch(`${url}${BASE}/registrationstatus/sync`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'Center-Machine-RefId': '10001_10001', timestamp: new Date().toISOString() },
    body: syncRequestBody([syncRecordOf(rid, bytes)], certificate, new Date()),
  });
  expect(((await sync.json()) as { errors: unknown }).errors).toBeNull();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), `${rid}.zip`);
  const answer = (await (await fetch(`${url}${BASE}/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers: { cookie } })).json()) as {
    errors: unknown;
  };
  expect(answer.errors).toBeNull();
  return rid;
}

it('receives a 50 MB packet with less than 40 MB of resident memory growth, and stores it whole', async () => {
  // The first large uploads after start grow V8's heap and the allocator to their working size for
  // streaming (about 19 MB on an idle machine; under load garbage is collected later, and a second
  // upload was once measured at 34 MB): two are not what is measured. A packet held whole would
  // add at least its own 50 MB (and a base64 copy for the operation), which the bound stays below.
  for (const sequence of [1, 2]) await receive(sequence, randomBytes(50 * 1024 * 1024));
  const before = rss();
  const large = randomBytes(50 * 1024 * 1024);
  const rid = await receive(3, large);
  expect(rss() - before).toBeLessThan(40 * 1024 * 1024);
  const stored = path.join(dataDir, 'objects', 'regproc', 'packets', `${String(rid)}.zip`);
  expect(statSync(stored).size).toBe(large.length);
  expect(createHash('sha256').update(readFileSync(stored)).digest('hex')).toBe(createHash('sha256').update(large).digest('hex'));
}, 180_000);
