import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDeps } from '../../gateway/deps.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { runNpmScript } from '../support/process.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/wait.js';

const MASTER_KEY = 'start-refusals-master-key';

/**
 * Processes started wrong beside a platform on PostgreSQL: each refuses at
 * once with one plain sentence on its output and exit code 2, instead of a
 * stack trace or a later failure (a packet retried 80 minutes on).
 */
describe('a process that would break the platform refuses to start', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'start-refusals-'));
    folders.push(dir);
    return dir;
  };
  let sharedDir: string;

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    sharedDir = folder();
    // The platform's first process: seals its master key check and names its object store in the database.
    const config = loadConfig({ DATABASE_URL: server.url, PLATFORM_MASTER_KEY: MASTER_KEY, PLATFORM_DATA_DIR: sharedDir, LOG_LEVEL: 'silent' });
    const first = await createDeps({ config, logger: createLogger('silent') });
    await first.runCloseTasks();
    await first.database.close();
  });
  afterAll(async () => {
    await server?.drop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the npm script to its end; answers its exit code and the lines that are not JSON log records. */
  async function refusal(script: string[], env: Record<string, string>) {
    const child = runNpmScript(script, { PLATFORM_MASTER_KEY: '', STOMP_URL: '', LOG_LEVEL: 'info', PORT: String(await freePort()), ...env });
    const timer = setTimeout(() => child.child.kill('SIGKILL'), 240_000);
    const code = await child.exited;
    clearTimeout(timer);
    const plain = child
      .output()
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('{'));
    // What a process said when it did not refuse as expected, for the failure's reader.
    if (code !== 2) console.log(child.output());
    return { code, plain };
  }

  it('says each mistake in one sentence, and a process set up right starts', async () => {
    const ownDir = folder();
    const bare = folder();
    const [noKey, otherKey, ownStore, abisAddress, noDatabase] = await Promise.all([
      refusal(['run', 'worker'], { DATABASE_URL: server.url, PLATFORM_DATA_DIR: bare }),
      refusal(['run', 'worker'], { DATABASE_URL: server.url, PLATFORM_DATA_DIR: sharedDir, PLATFORM_MASTER_KEY: 'another-key' }),
      refusal(['run', 'worker'], { DATABASE_URL: server.url, PLATFORM_DATA_DIR: ownDir, PLATFORM_MASTER_KEY: MASTER_KEY }),
      refusal(['start'], { DATABASE_URL: server.url, PLATFORM_DATA_DIR: sharedDir, PLATFORM_MASTER_KEY: MASTER_KEY, REGPROC_DEDUPE: 'abis' }),
      refusal(['run', 'worker'], { DATABASE_URL: '', PLATFORM_DATA_DIR: folder() }),
    ]);

    expect(noKey).toEqual({
      code: 2,
      plain: [
        'PLATFORM_MASTER_KEY is not set, and this database was set up by a process with a master key: give this process the PLATFORM_MASTER_KEY of the others',
      ],
    });
    // No development key was made where it could open nothing.
    expect(existsSync(path.join(bare, 'master-key'))).toBe(false);
    expect(otherKey).toEqual({
      code: 2,
      plain: [
        "PLATFORM_MASTER_KEY does not open this database's keys: it is not the master key the database was set up with, and every process of the platform needs that same key",
      ],
    });
    expect(ownStore).toEqual({
      code: 2,
      plain: [
        `this process keeps its files in its own folder (${path.join(ownDir, 'objects')}), not in the object store the platform's other processes use: set OBJECT_STORE_URL to the shared store, as every process must`,
      ],
    });
    expect(abisAddress).toEqual({
      code: 2,
      plain: [
        'de-duplication by an ABIS sends data share addresses, and this process would name its own machine in them: set PLATFORM_PUBLIC_URL to the address the ABIS reaches the platform at',
      ],
    });
    expect(noDatabase).toEqual({
      code: 2,
      plain: ['a worker shares the PostgreSQL database of the platform: set DATABASE_URL (on the embedded database, npm start runs the jobs)'],
    });

    // The same worker with the shared key and the shared store runs.
    const worker = runNpmScript(['run', 'worker'], {
      DATABASE_URL: server.url,
      PLATFORM_DATA_DIR: sharedDir,
      PLATFORM_MASTER_KEY: MASTER_KEY,
      STOMP_URL: '',
      LOG_LEVEL: 'info',
    });
    try {
      await worker.waitForOutput('job worker running', 'the worker start');
      const line = worker.logLines().find((record) => record.msg === 'job worker running');
      expect(line).toMatchObject({ role: 'worker', instance: expect.any(String), objectStore: 'files' });
    } finally {
      await worker.stop();
    }
    // Six processes compile and start at once: a bound against a hang on a loaded machine, not a speed check.
  }, 300_000);
});
