// The operators' command line (`npm run platform -- <command>`, docs/admin-cli.md): most
// commands run in this process over the test platform (runCli with an admin context on
// it), and a few as the child process an operator starts, for its argv, exit codes and
// the real opening of the platform from the environment.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { migrationList } from '../../lib/db/migrate.js';
import type { JobQueue } from '../../lib/jobs/queue.js';
import { runCli } from '../../tools/admin/cli.js';
import { COMMANDS } from '../../tools/admin/commands.js';
import { contextOver } from '../../tools/admin/context.js';
import { progressOn } from '../../tools/admin/io.js';
import { envelopeOf, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let server: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
let t: TestPlatform;
/** The child's environment: the test platform's database, master key and data folder (its object store). */
let childEnv: Record<string, string>;

beforeAll(async () => {
  // A run from a terminal must not wait on a password prompt: the commands see no terminal.
  Object.defineProperty(process.stdin, 'isTTY', { value: false, configurable: true });
  server = await createTestDatabase(inject('postgresTemplate'));
  database = await openDatabase({ url: server.url, migrate: false });
  t = await startTestPlatform({}, { database });
  childEnv = { DATABASE_URL: server.url, PLATFORM_MASTER_KEY: TEST_MASTER_KEY, PLATFORM_DATA_DIR: t.platform.deps.config.dataDir, LOG_LEVEL: 'silent' };
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  await server?.drop();
});

type Answer = { code: number; stdout: string; stderr: string };

/** A command line run in this process over the test platform, as the bootstrap admin. */
async function cli(...argv: string[]): Promise<Answer> {
  let stdout = '';
  let stderr = '';
  const context = contextOver(t.platform.deps, database);
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    openContext: (actor) => Promise.resolve({ context: { ...context, actor }, close: () => Promise.resolve() }),
  });
  return { code, stdout, stderr };
}

/** A command line as an operator runs it: its own process, opening the platform from the environment. */
function child(argv: string[], env: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--import', 'tsx', 'scripts/platform.ts', ...argv], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    process_.on('error', reject);
    process_.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const json = (answer: Answer): any => JSON.parse(answer.stdout);
const login = (userName: string, password: string, appId: string) =>
  t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', { body: envelopeOf({ userName, password, appId }) });
const clientLogin = (clientId: string, secretKey: string, appId: string) =>
  t.request('POST', '/v1/authmanager/authenticate/clientidsecretkey', { body: envelopeOf({ clientId, secretKey, appId }) });

/** A variable set for one run in this process. */
async function withEnv<T>(name: string, value: string, run: () => Promise<T>): Promise<T> {
  process.env[name] = value;
  try {
    return await run();
  } finally {
    delete process.env[name];
  }
}

describe('the command line', () => {
  it('lists every command with --help, refuses an unknown one with one sentence and exit 2, and a password in argv before anything runs', async () => {
    const [help, unknown, password] = await Promise.all([
      child(['--help']),
      child(['frobnicate', '--json']),
      child(['users', 'create', '--username', 'argv-user', '--password', 'Secret-in-argv-1'], childEnv),
    ]);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) expect(help.stdout).toContain(command.path.join(' '));
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim().split('\n')).toEqual(['unknown command: frobnicate (npm run platform -- --help lists the commands)']);
    expect(password.code).toBe(2);
    expect(password.stderr.trim().split('\n')).toHaveLength(1);
    expect(password.stderr).toContain('PLATFORM_NEW_PASSWORD');
    expect(password.stdout + password.stderr).not.toContain('Secret-in-argv-1');
    expect(await t.platform.deps.services.users.user('argv-user')).toBeNull();
  }, 120_000);

  it('describes a command with --help, and refuses an unknown option with exit 2', async () => {
    const help = await cli('users', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--username <id>');
    expect(help.stdout).toContain('--as <userId>');
    const bad = await cli('users', 'list', '--colour', 'red');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe('unknown option --colour for users list (npm run platform -- users list --help lists its options)\n');
  });

  it('draws the progress bar in place on a terminal, and writes a plain line every few seconds elsewhere', () => {
    let now = 0;
    let terminal = '';
    const bar = progressOn({ write: (text: string) => (terminal += text), isTTY: true }, 'retrying', 1000, () => now);
    for (let i = 0; i < 1000; i++, now += 1) bar.tick();
    bar.done();
    expect(terminal.startsWith('\rretrying [')).toBe(true);
    expect(terminal.endsWith(`[${'#'.repeat(30)}] 1000/1000 100%\n`)).toBe(true);
    // Redrawn every 100 ms at most, not per tick.
    expect(terminal.split('\r').length).toBeLessThan(15);
    let log = '';
    const lines = progressOn({ write: (text: string) => (log += text) }, 'retrying', 1000, () => now);
    for (let i = 0; i < 1000; i++, now += 20) lines.tick();
    lines.done();
    expect(log).not.toContain('\r');
    expect(log.trim().split('\n')).toEqual(['retrying: 251/1000 (25%)', 'retrying: 501/1000 (50%)', 'retrying: 751/1000 (75%)', 'retrying: 1000/1000 (100%)']);
  });

  it('reports the migrations of a migrated database: none pending (db status opens only the database)', async () => {
    const answer = await child(['db', 'status', '--json'], { DATABASE_URL: server.url, LOG_LEVEL: 'silent' });
    expect(answer.code).toBe(0);
    const status = json(answer);
    expect([status.pending, status.failed, status.modified]).toEqual([[], [], []]);
    expect(status.applied.map((row: { name: string }) => row.name)).toEqual(migrationList().migrationDirectories.map((directory) => directory.path));
  }, 120_000);
});

describe('users', () => {
  it('creates a user with a password from the environment, sets its roles, and the user logs in', async () => {
    const password = 'Officer-password-42';
    const created = await withEnv('PLATFORM_NEW_PASSWORD', password, () =>
      cli('users', 'create', '--username', 'cli-officer', '--role', 'REGISTRATION_OFFICER', '--app', 'registrationclient,admin', '--name', 'CLI Officer'),
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('created user cli-officer');
    expect(created.stdout).not.toContain(password);

    const roles = await cli('users', 'roles', 'cli-officer', '--role', 'REGISTRATION_OFFICER', '--role', 'REGISTRATION_SUPERVISOR', '--json');
    expect(roles.code).toBe(0);
    expect(json(roles)).toEqual({ userId: 'cli-officer', roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'], appIds: ['registrationclient', 'admin'] });

    const { json: answer } = await login('cli-officer', password, 'registrationclient');
    expect(answer.errors).toBeNull();
    expect(answer.response.token).toEqual(expect.any(String));
    const listed = json(await cli('users', 'list', '--role', 'REGISTRATION_SUPERVISOR', '--json'));
    expect(listed.users).toContainEqual(
      expect.objectContaining({ userId: 'cli-officer', roles: ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR'], hasPassword: true }),
    );
  });

  it('refuses what the GraphQL mutations refuse, with one sentence and exit 1: a taken name, an unknown role, a zone or centre that does not exist', async () => {
    const noPassword = await cli('users', 'create', '--username', 'cli-nopass', '--no-password', '--role', 'NOT_A_ROLE');
    expect(noPassword).toMatchObject({ code: 1, stdout: '' });
    expect(noPassword.stderr).toBe('Invalid input: unknown role NOT_A_ROLE (KER-ATH-400)\n');
    const taken = await cli('users', 'create', '--username', 'admin', '--no-password');
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim().split('\n')).toHaveLength(1);
    const nowhere = await cli('users', 'create', '--username', 'cli-nowhere', '--no-password', '--zone', 'NOWHERE');
    expect(nowhere).toMatchObject({ code: 1, stderr: 'there is no zone NOWHERE: nothing was created\n' });
    expect(await t.platform.deps.services.users.user('cli-nowhere')).toBeNull();
    expect((await cli('users', 'zones', 'admin', '--add', 'NOWHERE')).stderr).toBe('Zone not found: NOWHERE (KER-MSD-392)\n');
    const centre = await cli('users', 'centre', 'admin', '--set', '99999', '--json');
    expect([centre.code, json(centre).error.code]).toEqual([1, 'KER-MSD-428']);
    // A password asked for with no terminal and no variable: refused, nothing made.
    expect((await cli('users', 'create', '--username', 'cli-nopass')).stderr).toContain('no password: set PLATFORM_NEW_PASSWORD');
    expect(await t.platform.deps.services.users.user('cli-nopass')).toBeNull();
  });

  it('acts as the account --as names, with its roles', async () => {
    await cli('users', 'create', '--username', 'cli-clerk', '--no-password', '--role', 'REGISTRATION_OFFICER');
    const refused = await cli('users', 'create', '--username', 'cli-other', '--no-password', '--as', 'cli-clerk');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cli-clerk may not do this (Mutation.createUser asks for one of GLOBAL_ADMIN)');
    expect((await cli('users', 'list', '--as', 'nobody')).stderr).toBe('there is no user nobody to act as: name an admin account with --as\n');
  });
});

describe('clients and policy groups', () => {
  it('creates a client whose secret is printed once, or taken from PLATFORM_NEW_CLIENT_SECRET; both log in', async () => {
    const made = json(await cli('clients', 'create', '--client-id', 'cli-ida', '--role', 'ID_AUTHENTICATION', '--app', 'ida', '--json'));
    expect(made).toMatchObject({ clientId: 'cli-ida', roles: ['ID_AUTHENTICATION'], appIds: ['ida'], secretKey: expect.any(String) });
    expect((await clientLogin('cli-ida', made.secretKey, 'ida')).json.errors).toBeNull();

    const secret = 'operator-chosen-secret-0123456789abcdef';
    const given = await withEnv('PLATFORM_NEW_CLIENT_SECRET', secret, () => cli('clients', 'create', '--client-id', 'cli-ida-2', '--app', 'ida'));
    expect(given.code).toBe(0);
    expect(given.stdout).not.toContain(secret);
    expect((await clientLogin('cli-ida-2', secret, 'ida')).json.errors).toBeNull();
    expect((await withEnv('PLATFORM_NEW_CLIENT_SECRET', 'short', () => cli('clients', 'create', '--client-id', 'cli-ida-3'))).code).toBe(1);

    const roles = json(await cli('clients', 'roles', 'cli-ida-2', '--role', 'ID_AUTHENTICATION,ID_REPOSITORY', '--json'));
    expect(roles.roles).toEqual(['ID_AUTHENTICATION', 'ID_REPOSITORY']);
    const listed = json(await cli('clients', 'list', '--role', 'ID_REPOSITORY', '--json'));
    expect(listed.clients.map((client: { clientId: string }) => client.clientId)).toContain('cli-ida-2');
  });

  it('creates and lists policy groups, refusing a second group of a name', async () => {
    const made = json(await cli('policy-groups', 'create', '--name', 'cli-group', '--desc', 'made by the command line', '--json'));
    expect(made).toMatchObject({ name: 'cli-group', isActive: true });
    expect((await cli('policy-groups', 'create', '--name', 'cli-group')).code).toBe(1);
    const listed = json(await cli('policy-groups', 'list', '--name', 'cli-group', '--json'));
    expect(listed.policyGroups).toEqual([expect.objectContaining({ name: 'cli-group', description: 'made by the command line', createdBy: 'admin' })]);
  });
});

describe('dead jobs', () => {
  it('lists the dead jobs (also from a process of its own), retries one that then runs, and drops another', async () => {
    const queue = t.platform.deps.jobs as JobQueue;
    let broken = true;
    const ran: number[] = [];
    queue.define({
      'test.flaky': {
        maxAttempts: 1,
        run: (payload: { n: number }) => {
          if (broken) return Promise.reject(new Error('the flaky service is down'));
          ran.push(payload.n);
          return Promise.resolve();
        },
      },
    });
    await queue.enqueue('test.flaky' as never, { n: 1 } as never);
    await queue.enqueue('test.flaky' as never, { n: 2 } as never);
    const deadJobs = () => database.prisma.platformJob.findMany({ where: { kind: 'test.flaky', state: 'DEAD' } });
    await waitFor(async () => (await deadJobs()).length === 2, 'two dead jobs', 30_000);

    const listed = json(await cli('jobs', 'dead', '--kind', 'test.flaky', '--json'));
    expect(listed.totalCount).toBe(2);
    expect(listed.jobs).toEqual([
      expect.objectContaining({ kind: 'test.flaky', attempts: 1, maxAttempts: 1, lastError: 'the flaky service is down', diedAt: expect.any(String) }),
      expect.objectContaining({ kind: 'test.flaky', attempts: 1, lastError: 'the flaky service is down' }),
    ]);
    const fromOutside = await child(['jobs', 'dead', '--kind', 'test.flaky', '--json'], childEnv);
    expect(fromOutside.code, fromOutside.stderr).toBe(0);
    expect(
      json(fromOutside)
        .jobs.map((job: { id: string }) => job.id)
        .sort(),
    ).toEqual(listed.jobs.map((job: { id: string }) => job.id).sort());

    const byPayload = new Map((await deadJobs()).map((row) => [(row.payload as { n: number }).n, row.id]));
    broken = false;
    const retried = await cli('jobs', 'retry', byPayload.get(1)!);
    expect(retried).toMatchObject({ code: 0, stderr: expect.any(String) });
    expect(retried.stdout).toContain('1 dead job(s) retried');
    const jobRow = (id: string) => database.prisma.platformJob.findUnique({ where: { id } });
    const done = await waitFor(
      async () => ((await jobRow(byPayload.get(1)!))?.state === 'DONE' ? jobRow(byPayload.get(1)!) : undefined),
      'the retry to run',
      30_000,
    );
    expect(done?.attempts).toBe(1);
    expect(ran).toEqual([1]);

    expect((await cli('jobs', 'drop', byPayload.get(2)!)).code).toBe(0);
    expect(await jobRow(byPayload.get(2)!)).toBeNull();
    expect(await cli('jobs', 'retry', byPayload.get(2)!)).toMatchObject({ code: 1, stderr: `there is no dead job ${byPayload.get(2)!}\n` });
    expect((await cli('jobs', 'retry', byPayload.get(2)!, '--all')).code).toBe(1);
    expect(json(await cli('jobs', 'retry', '--all', '--kind', 'test.flaky', '--json'))).toEqual({ retried: [], missed: [], jobRunnersAlive: 1 });
  }, 180_000);
});

describe('stuck registrations', () => {
  it('lists a failed registration as stuck, resumes it as the admin, and refuses one that is not stuck', async () => {
    const rid = '10001100010000120260101000000';
    const now = new Date();
    const packet = { centreId: '10001', machineId: '10001', registrationType: 'NEW', packetHashValue: 'AB'.repeat(32), packetSize: 1, langCode: 'eng' };
    const failed = { status: 'FAILED', stage: 'UPLOAD_PACKET', attempts: 1, lastError: 'the packet cannot be decrypted', progressAt: now };
    const record = { supervisorStatus: 'APPROVED', syncedBy: 'admin', createdAt: now, updatedAt: now };
    await database.prisma.registration.create({ data: { rid, ...packet, ...failed, ...record } });
    const stuck = json(await cli('registrations', 'stuck', '--stage', 'UPLOAD_PACKET', '--json'));
    expect(stuck.registrations).toContainEqual(
      expect.objectContaining({ rid, stage: 'UPLOAD_PACKET', status: 'FAILED', lastError: 'the packet cannot be decrypted' }),
    );

    const resumed = await cli('registrations', 'resume', rid, '--json');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json(resumed)).toEqual({ resumed: [rid], refused: [], jobRunnersAlive: 1 });
    const transactions = await database.prisma.registrationTransaction.findMany({ where: { rid, transactionTypeCode: 'WORKFLOW_RESUME' } });
    expect(transactions).toEqual([expect.objectContaining({ statusComment: 'UPLOAD_PACKET resumed by admin' })]);

    const unknown = await cli('registrations', 'resume', 'x'.repeat(29));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/is not a registration.*\(RPR-RGS-015\)\n$/);
  });

  it('says so when no job runner is alive to carry a resumed registration on (last: it stops the runner)', async () => {
    const rid = '10001100010000220260101000000';
    const now = new Date();
    await database.prisma.registration.create({
      data: {
        rid,
        ...{ centreId: '10001', machineId: '10001', registrationType: 'NEW', packetHashValue: 'CD'.repeat(32), packetSize: 1, langCode: 'eng' },
        ...{ status: 'FAILED', stage: 'UPLOAD_PACKET', attempts: 1, lastError: 'the packet cannot be decrypted', progressAt: now },
        ...{ supervisorStatus: 'APPROVED', syncedBy: 'admin', createdAt: now, updatedAt: now },
      },
    });
    await t.platform.jobs.stop();
    const resumed = await cli('registrations', 'resume', rid);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      'warning: no job runner is alive on this database: the resumed registrations wait until one runs (npm run worker, or npm start with JOBS_RUN=true)',
    );
    expect(json(await cli('registrations', 'resume', '--stage', 'UPLOAD_PACKET', '--json'))).toMatchObject({ jobRunnersAlive: 0 });
  });
});
