// The platform in a process of its own, started as `npm start` starts it (node on gateway/main.ts, so
// that the pid is the platform's), on a fresh PostgreSQL database with the sample country: for tests
// that read its memory or time its answers from outside. The admin is signed in and the REGISTRATION
// certificate read, so a test syncs and uploads packets as a registration client does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { syncRecordOf, syncRequestBody } from '../../lib/packet/write.js';
import { createTestDatabase } from './postgres.js';
import { freePort, waitFor } from './wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = 'Platform-process-password-1';
export const REGPROC = '/registrationprocessor/v1';

export interface PlatformProcess {
  url: string;
  dataDir: string;
  /** the admin's cookie */
  cookie: string;
  /** the REGISTRATION certificate packets and syncs are sealed for */
  certificate: string;
  /** the process's resident memory, in bytes */
  rss(): number;
  /** syncs a sealed packet for centre and machine 10001 and uploads it; both must succeed */
  submit(rid: string, sealed: Buffer): Promise<void>;
  /** the RID's status as registrationstatus/search answers it */
  statusOf(rid: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

/** Starts the platform with these settings (over a fresh database, the sample country, no queue) and signs the admin in. */
export async function startPlatformProcess(name: string, env: Record<string, string>): Promise<PlatformProcess> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), `platform-${name}-`));
  const url = `http://127.0.0.1:${await freePort()}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: new URL(url).port,
      DATABASE_URL: database.url,
      PLATFORM_DATA_DIR: dataDir,
      PLATFORM_ADMIN_PASSWORD: PASSWORD,
      PLATFORM_SAMPLE_DATA: 'true',
      STOMP_URL: '',
      LOG_LEVEL: 'warn',
      PLATFORM_UIN_POOL_SIZE: '20',
      PLATFORM_UIN_POOL_THRESHOLD: '5',
      ...env,
    },
    stdio: 'ignore',
  });
  await waitFor(
    () =>
      fetch(`${url}/health/live`).then(
        (r) => r.ok,
        () => false,
      ),
    `${name}: platform start`,
    120_000,
  );
  const call = async <T>(route: string, init: RequestInit = {}): Promise<T> => (await (await fetch(`${url}${route}`, init)).json()) as T;
  const login = await call<{ response: { token: string } }>('/v1/authmanager/authenticate/internal/useridPwd', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'x',
      version: '1.0',
      requesttime: new Date().toISOString(),
      request: { userName: 'admin', password: PASSWORD, appId: 'admin' },
    }),
  });
  const cookie = `Authorization=Platform-Token${login.response.token}`;
  const certificate = (await call<{ response: { certificate: string } }>('/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: { cookie } }))
    .response.certificate;
  return {
    url,
    dataDir,
    cookie,
    certificate,
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    async submit(rid, sealed) {
      const sync = await call<{ errors: unknown }>(`${REGPROC}/registrationstatus/sync`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'Center-Machine-RefId': '10001_10001', timestamp: new Date().toISOString() },
        body: syncRequestBody([syncRecordOf(rid, sealed)], certificate, new Date()),
      });
      expect(sync.errors).toBeNull();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(sealed)]), `${rid}.zip`);
      expect(
        (await call<{ errors: unknown }>(`${REGPROC}/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers: { cookie } })).errors,
      ).toBeNull();
    },
    async statusOf(rid) {
      const answer = await call<{ response: { statusCode: string }[] | null }>(`${REGPROC}/registrationstatus/search`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'platform.registration.status', version: '1.0', requesttime: new Date().toISOString(), request: [{ registrationId: rid }] }),
      });
      return answer.response?.[0]?.statusCode;
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
