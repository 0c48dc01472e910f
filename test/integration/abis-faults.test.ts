// Faults on the ABIS queue, on a broker of the file's own (the shared one serves other files):
// - the broker stopped while 20 registrations wait to send their inserts: all 20 are delivered once it
//   is back, each registration PROCESSED with one insert and one identify;
// - the platform (`npm start`'s process) killed with SIGKILL after it committed a reply and before its
//   ACK reached the broker (a relay holds the ACK back), once at the insert's reply and once at the
//   identify's: the broker delivers the reply again to the restarted platform, which audits it as a
//   duplicate and acknowledges it; nothing is lost or applied twice.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { syncRecordOf } from '../../lib/packet/write.js';
import { createLogger } from '../../lib/log.js';
import { StompConnection, type StompMessage } from '../../lib/queue/stomp.js';
import { selfSignedKey } from '../support/certificates.js';
import { attachMockAbis } from '../support/abis.js';
import { privateBroker, relay, type PrivateBroker, type Relay } from '../support/activemq.js';
import { cookieHeader, envelopeOf, startTestPlatform, TEST_MASTER_KEY, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';
import { PROCESSED_TRANSACTIONS, REGPROC, registrationClient } from '../support/regproc.js';
import { freePort, waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PENDING = 20;

let broker: PrivateBroker;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  broker = await privateBroker();
  await broker.start();
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await broker?.remove();
});

const queuesOfRun = () => {
  const run = randomUUID().slice(0, 8);
  return { requests: `platform-to-abis-${run}`, responses: `abis-to-platform-${run}` };
};

describe('the broker stopped while requests are pending', () => {
  it(`delivers all ${PENDING} once it is back, each registration PROCESSED with one insert and one identify`, async () => {
    const queues = queuesOfRun();
    const t = await startTestPlatform({
      PLATFORM_SAMPLE_DATA: 'true',
      REGPROC_DEDUPE: 'abis',
      STOMP_URL: broker.url,
      ABIS_REQUEST_QUEUE: queues.requests,
      ABIS_RESPONSE_QUEUE: queues.responses,
      PLATFORM_UIN_POOL_SIZE: '40',
    });
    closers.push(() => t.close());
    const admin = cookieHeader(await t.adminToken());
    const mock = await attachMockAbis(t, admin, { stompUrl: broker.url, ...queues, reconnectDelayMs: 200, maxReconnectDelayMs: 1000 });
    closers.push(() => mock.close());
    const client = await registrationClient(t, admin);

    await broker.stop();
    await waitFor(() => t.platform.deps.queue.state !== 'UP', 'the platform to see the broker gone', 30_000);
    const packets = Array.from({ length: PENDING }, (_, index) => client.build(`outage-${index}`));
    await client.sync(packets.map((packet) => syncRecordOf(packet.rid, packet.sealed)));
    for (const packet of packets) {
      const { json } = await client.upload(`${packet.rid}.zip`, packet.sealed);
      expect(json.errors, JSON.stringify(json.errors)).toBeNull();
    }
    const rids = packets.map((packet) => packet.rid);
    const waitingInserts = () => t.platform.deps.prisma.abisRequest.count({ where: { rid: { in: rids }, operation: 'INSERT', status: 'IN_PROGRESS' } });
    await waitFor(async () => (await waitingInserts()) === PENDING, `${PENDING} inserts waiting for the broker`, 60_000);
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(503);
    expect(health.json.components.queue.status).not.toBe('UP');

    await broker.start();
    for (const rid of rids) expect(await client.settle(rid, undefined, 120_000)).toBe('PROCESSED');
    const requests = await t.platform.deps.prisma.abisRequest.findMany({ where: { rid: { in: rids } } });
    for (const rid of rids)
      expect(
        requests
          .filter((row) => row.rid === rid)
          .map((row) => `${row.operation}:${row.status}`)
          .sort(),
      ).toEqual(['IDENTIFY:PROCESSED', 'INSERT:PROCESSED']);
    expect(await t.platform.deps.prisma.identity.count({ where: { registrationId: { in: rids } } })).toBe(PENDING);
  }, 240_000);
});

describe('the platform killed between the commit of a reply and its acknowledgement', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let database: Database;
  let dataDir: string;
  let t: TestPlatform;
  let link: Relay;
  let abis: StompConnection;
  const queues = queuesOfRun();
  const requests: Record<string, string>[] = [];

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    database = await openDatabase({ url: server.url, migrate: false });
    dataDir = mkdtempSync(path.join(tmpdir(), 'abis-faults-'));
    // This instance takes the registrations but neither runs jobs nor reaches the broker: the killed process does both.
    t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', JOBS_RUN: 'false', PLATFORM_DATA_DIR: dataDir }, { database });
    link = await relay(broker.url);
    // The test is the ABIS: it reads the requests and answers them itself.
    abis = new StompConnection({ url: broker.url, logger: createLogger('silent'), reconnectDelayMs: 100 });
    await abis.connect();
    abis.subscribe(
      `/queue/${queues.requests}`,
      (message: StompMessage) => {
        requests.push(JSON.parse(message.body.toString('utf8')) as Record<string, string>);
        message.ack();
      },
      { ack: 'client-individual' },
    );
  }, 120_000);

  afterAll(async () => {
    await abis?.close();
    await link?.close();
    await t?.close();
    await database?.close();
    await server?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The platform as `npm start` runs it (node itself, so that SIGKILL reaches it), on the shared database and data folder, through the relay. */
  async function startPlatformProcess(): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string; kill: () => Promise<void> }> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: server.url,
        // where the ABIS fetches its data shares: a process on PostgreSQL with an ABIS refuses to start without it
        PLATFORM_PUBLIC_URL: `http://127.0.0.1:${port}`,
        PLATFORM_MASTER_KEY: TEST_MASTER_KEY,
        PLATFORM_DATA_DIR: dataDir,
        PLATFORM_SAMPLE_DATA: 'false',
        STOMP_URL: link.url,
        REGPROC_DEDUPE: 'abis',
        ABIS_REQUEST_QUEUE: queues.requests,
        ABIS_RESPONSE_QUEUE: queues.responses,
        ABIS_PING_INTERVAL_SECONDS: '0',
        JOBS_POLL_MS: '100',
        REGPROC_STAGE_LEASE_MS: '1000',
        LOG_LEVEL: 'info',
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    closers.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the platform exited (${child.exitCode}):\n${output}`);
        const health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
        return health?.status === 200;
      },
      'the platform process to serve with the queue UP',
      120_000,
    );
    return {
      child,
      output: () => output,
      kill: async () => {
        child.kill('SIGKILL');
        await exited;
      },
    };
  }

  const rowOf = (requestId: string) => database.prisma.abisRequest.findUnique({ where: { id: requestId } });

  it('applies the reply once: the broker delivers it again after the restart, and it is audited as a duplicate and acknowledged', async () => {
    const admin = cookieHeader(await t.adminToken());
    // The ABIS's certificate: the platform creates a data share for it with each insert (the test never fetches it).
    const uploaded = await t.request('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
      body: envelopeOf({ applicationId: 'PARTNER', referenceId: 'partner-default-abis', certificateData: (await selfSignedKey('test ABIS')).certificatePem }),
      headers: admin,
    });
    expect(uploaded.json.errors).toBeNull();
    const client = await registrationClient(t, admin);
    let platform = await startPlatformProcess();
    const packet = client.build('killed-before-ack');
    await client.submit(packet);

    for (const [operation, auditCode] of [
      ['insert', 'RPR-ABIS-MIDDLEWARE-009'],
      ['identify', 'RPR-ABIS-MIDDLEWARE-010'],
    ] as const) {
      const request = await waitFor(() => requests.find((message) => message.id === `platform.abis.${operation}`), `the ${operation} request`, 60_000);
      // From here the platform's writes to the broker (its ACK among them) stay in the relay.
      link.hold();
      const reply = { id: request.id, requestId: request.requestId, responsetime: new Date().toISOString(), returnValue: '1' };
      await abis.send(
        `/queue/${queues.responses}`,
        JSON.stringify(operation === 'identify' ? { ...reply, candidateList: { count: '0', candidates: [] } } : reply),
      );
      await waitFor(async () => (await rowOf(request.requestId!))?.status === 'PROCESSED', `the ${operation} reply committed`, 30_000);
      await platform.kill();
      link.dropAll();
      link.release();

      platform = await startPlatformProcess();
      const restarted = platform;
      const audit = await waitFor(
        () =>
          restarted
            .output()
            .split('\n')
            .find((line) => line.includes('duplicate ABIS reply') && line.includes(request.requestId!)),
        `the ${operation} reply delivered again`,
        60_000,
      );
      expect(JSON.parse(audit)).toMatchObject({ requestId: request.requestId, operation: operation.toUpperCase(), code: auditCode });
    }

    expect(await client.settle(packet.rid, undefined, 60_000)).toBe('PROCESSED');
    const rows = await database.prisma.abisRequest.findMany({ where: { rid: packet.rid }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((row) => `${row.operation}:${row.status}`)).toEqual(['INSERT:PROCESSED', 'IDENTIFY:PROCESSED']);
    expect(requests.filter((message) => message.referenceId === rows[0]!.referenceId).map((message) => message.id)).toEqual([
      'platform.abis.insert',
      'platform.abis.identify',
    ]);
    const { json } = await t.request('GET', `${REGPROC}/registrationtransaction/search/eng/${packet.rid}`, { headers: admin });
    // Each stage once; de-duplication also records its wait for the ABIS.
    expect((json.response as { transactionTypeCode: string; statusCode: string }[]).map((row) => `${row.transactionTypeCode}:${row.statusCode}`)).toEqual(
      PROCESSED_TRANSACTIONS.flatMap((entry) => (entry === 'BIOGRAPHIC_VERIFICATION:SUCCESS' ? ['BIOGRAPHIC_VERIFICATION:IN_PROGRESS', entry] : [entry])),
    );
    expect(await database.prisma.identity.count({ where: { registrationId: packet.rid } })).toBe(1);

    // Every reply was acknowledged: once the platform is gone, nothing is left on the response queue.
    await platform.kill();
    const left: StompMessage[] = [];
    const stop = abis.subscribe(`/queue/${queues.responses}`, (message) => void left.push(message), { ack: 'client-individual' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop();
    expect(left).toEqual([]);
  }, 300_000);
});
