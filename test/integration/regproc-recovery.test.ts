// A registration whose UIN stage fails for a reason of the platform (the object store, where the
// packets and the ID repository's documents live, stopped) is REPROCESS, then REPROCESS_FAILED after
// its attempts; it shows in the stuck view and in /health; a caller without the role cannot resume
// it; once the store is back, one resumeRegistrations takes it on to PROCESSED with one identity.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { adjudicator, REGPROC as BASE, registrationClient, type RegistrationClient } from '../support/regproc.js';
// Imported for s3rver's account, and for the DES shim it installs before s3rver is loaded.
import { S3RVER_KEY, S3RVER_SECRET } from '../support/s3.js';
import { freePort, waitFor } from '../support/wait.js';
import { refusalCode } from '../support/refusals.js';

/** The part of s3rver 3.7 used here (test/support/s3.ts removes its folder on stop; this one must come back with its data). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: { address: string; port: number; directory: string; silent: boolean; configureBuckets: { name: string }[] }) => S3rverInstance;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const BUCKET = 'objects';

/** An s3rver that can be stopped and started again on the same port over the same folder. */
class RestartableS3 {
  private server: S3rverInstance | undefined;
  readonly url: string;

  private constructor(
    readonly port: number,
    readonly directory: string,
  ) {
    this.url = `s3://${S3RVER_KEY}:${S3RVER_SECRET}@127.0.0.1:${port}/${BUCKET}`;
  }

  static async create(): Promise<RestartableS3> {
    const s3 = new RestartableS3(await freePort(), mkdtempSync(path.join(tmpdir(), 's3rver-recovery-')));
    await s3.start();
    return s3;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = new S3rver({ address: '127.0.0.1', port: this.port, directory: this.directory, silent: true, configureBuckets: [{ name: BUCKET }] });
    await server.run();
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    // Clients keep connections alive; close would wait for them.
    server.httpServer?.closeAllConnections();
    await server.close();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

const STUCK =
  'query($stage: RegistrationStage) { stuckRegistrations(stage: $stage) { totalCount edges { node { registrationId stage status attempts lastError nextAttemptAt } } } }';
const RESUME =
  'mutation($input: ResumeRegistrationsInput!) { resumeRegistrations(input: $input) { resumedRegistrations { resumed } userErrors { field code message } } }';

let s3: RestartableS3;
let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;

beforeAll(async () => {
  s3 = await RestartableS3.create();
  t = await startTestPlatform({
    PLATFORM_SAMPLE_DATA: 'true',
    OBJECT_STORE_URL: s3.url,
    REGPROC_REPROCESS_ELAPSE_SECONDS: '1',
    REGPROC_REPROCESS_MAX_ATTEMPTS: '2',
    REGPROC_DEDUPE: 'local',
  });
  admin = cookieHeader(await t.adminToken());
  client = await registrationClient(t, admin);
});

afterAll(async () => {
  await t?.close();
  await s3?.dispose();
});

const registrationOf = (rid: string) => t.platform.deps.prisma.registration.findUniqueOrThrow({ where: { rid } });

const transactionsOf = async (rid: string): Promise<string[]> => {
  const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${rid}`, { headers: admin });
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return (json.response as { transactionTypeCode: string; statusCode: string }[]).map((row) => `${row.transactionTypeCode}:${row.statusCode}`);
};

const stuckCount = async (): Promise<number> => (await t.request('GET', '/health')).json.components.registrations.details.stuck;

/** Whether `items` holds `expected` in this order (others may come between). */
const inOrder = (items: string[], expected: string[]): boolean => {
  let at = 0;
  for (const item of items) if (item === expected[at]) at++;
  return at === expected.length;
};

describe('a registration whose UIN stage failed for a reason of the platform', () => {
  it('is REPROCESS then REPROCESS_FAILED, listed as stuck, and one resume takes it on to PROCESSED with one identity once the store is back', async () => {
    const identitiesBefore = await t.platform.deps.prisma.identity.count();
    // A first resident, processed while the store is up.
    const first = client.build('recovery-first');
    await client.submit(first);
    expect(await client.settle(first.rid)).toBe('PROCESSED');

    // A second carrying the first one's biometrics waits for an adjudicator, its packet already stored.
    const second = client.build('recovery-second', { duplicateOf: first.resident });
    await client.submit(second);
    expect(await client.reachStage(second.rid, 'MANUAL_ADJUDICATION')).toBe('MANUAL_ADJUDICATION');
    expect(await client.statusOf(second.rid)).toBe('PROCESSING');
    expect(await stuckCount()).toBe(0);

    // The store goes away; the adjudicator approves: the UIN stage cannot read the packet.
    await s3.stop();
    const { assign, decide } = adjudicator(t, admin);
    const assigned = await assign();
    expect(assigned.json.errors, JSON.stringify(assigned.json.errors)).toBeNull();
    expect(assigned.json.response).toMatchObject({ regId: second.rid, statusCode: 'ASSIGNED' });
    const decided = await decide(second.rid, 'APPROVED');
    expect(decided.json.errors, JSON.stringify(decided.json.errors)).toBeNull();

    const reprocess = await waitFor(
      async () => {
        const row = await registrationOf(second.rid);
        return row.status === 'REPROCESS' && row;
      },
      'the UIN stage to fail into REPROCESS',
      30_000,
    );
    expect(reprocess).toMatchObject({ stage: 'UIN_GENERATOR', attempts: 1 });
    expect(reprocess.nextAttemptAt).toBeInstanceOf(Date);
    // The store's own text (its address, the object's key) stays in the log: the operator gets its reference.
    expect(reprocess.lastError).toMatch(/^the object store failed: internal error [0-9a-f]{8}: see the platform's log$/);
    expect(await client.statusOf(second.rid)).toBe('REPROCESS');
    expect(await stuckCount()).toBe(1);

    // The reprocessor takes it on once its time has come (the platform's clock is moved past it), and it fails again: spent.
    const failed = await waitFor(
      async () => {
        const row = await registrationOf(second.rid);
        if (row.status === 'REPROCESS_FAILED') return row;
        if (row.status === 'REPROCESS' && row.nextAttemptAt && row.nextAttemptAt >= t.clock.now()) t.clock.set(new Date(row.nextAttemptAt.getTime() + 1000));
        return false;
      },
      'the registration to be REPROCESS_FAILED',
      30_000,
    );
    expect(failed).toMatchObject({ stage: 'UIN_GENERATOR', attempts: 2, nextAttemptAt: null });
    expect(await client.statusOf(second.rid)).toBe('REPROCESS_FAILED');
    expect(await t.platform.deps.services.identities.byRegistration(second.rid)).toBeNull();

    const { data, errors } = await t.graphql(STUCK, { stage: 'UIN_GENERATOR' }, admin);
    expect(errors).toBeUndefined();
    const listed = data.stuckRegistrations.edges.map((edge: { node: unknown }) => edge.node);
    expect(listed).toEqual([
      {
        registrationId: second.rid,
        stage: 'UIN_GENERATOR',
        status: 'REPROCESS_FAILED',
        attempts: 2,
        lastError: expect.stringMatching(/^the object store failed: internal error [0-9a-f]{8}: see the platform's log$/),
        nextAttemptAt: null,
      },
    ]);
    expect(listed[0].lastError).not.toContain(s3.url);
    expect(listed[0].lastError).not.toContain(`${S3RVER_KEY}:${S3RVER_SECRET}`);
    expect(data.stuckRegistrations.totalCount).toBe(1);
    expect((await t.graphql(STUCK, { stage: 'UPLOAD_PACKET' }, admin)).data.stuckRegistrations.totalCount).toBe(0);
    expect(await stuckCount()).toBe(1);

    const failedTransactions = await transactionsOf(second.rid);
    expect(failedTransactions.filter((item) => item.startsWith('UIN_GENERATOR:'))).toEqual(['UIN_GENERATOR:REPROCESS', 'UIN_GENERATOR:REPROCESS_FAILED']);

    // A caller without the role cannot resume it, and nothing changes.
    const officer = bearer((await t.clientToken(['REGISTRATION_OFFICER'])).token);
    const before = await t.snapshot();
    const rowBefore = await registrationOf(second.rid);
    const refused = await t.graphql(RESUME, { input: { stage: 'UIN_GENERATOR' } }, officer);
    expect(refusalCode(refused)).toBe('KER-ATH-403');
    expect(refused.data?.resumeRegistrations.resumedRegistrations ?? null).toBeNull();
    const refusedOne = await t.graphql(RESUME, { input: { registrationId: second.rid } }, officer);
    expect(refusalCode(refusedOne)).toBe('KER-ATH-403');
    expect(await registrationOf(second.rid)).toEqual(rowBefore);
    expect(await t.snapshot()).toEqual(before);
    expect(await transactionsOf(second.rid)).toEqual(failedTransactions);

    // The store is back (same port, same data): one resume of the stage takes it on to PROCESSED.
    await s3.start();
    const resumed = await t.graphql(RESUME, { input: { stage: 'UIN_GENERATOR' } }, admin);
    expect(resumed.errors).toBeUndefined();
    expect(resumed.data.resumeRegistrations.resumedRegistrations.resumed).toEqual([second.rid]);
    expect(await client.settle(second.rid)).toBe('PROCESSED');
    expect(await registrationOf(second.rid)).toMatchObject({ status: 'PROCESSED', attempts: 0, lastError: null, nextAttemptAt: null });

    const identity = await t.platform.deps.services.identities.byRegistration(second.rid);
    expect(identity).not.toBeNull();
    expect(identity?.status).toBe('ACTIVATED');
    expect(await t.platform.deps.services.identities.uinOfRow(identity!)).toMatch(/^\d{10}$/);
    // One identity per registration: the first's and the second's, no other.
    const firstIdentity = await t.platform.deps.services.identities.byRegistration(first.rid);
    expect(firstIdentity).not.toBeNull();
    expect(firstIdentity!.id).not.toBe(identity!.id);
    expect(await t.platform.deps.prisma.identity.count()).toBe(identitiesBefore + 2);
    expect(await t.platform.deps.prisma.identity.count({ where: { registrationId: second.rid } })).toBe(1);

    const transactions = await transactionsOf(second.rid);
    expect(transactions.filter((item) => item.includes('REPROCESS') || item.startsWith('WORKFLOW_RESUME') || item.startsWith('UIN_GENERATOR'))).toEqual([
      'UIN_GENERATOR:REPROCESS',
      'PACKET_REPROCESS:IN_PROGRESS',
      'UIN_GENERATOR:REPROCESS_FAILED',
      'WORKFLOW_RESUME:SUCCESS',
      'UIN_GENERATOR:SUCCESS',
    ]);
    expect(
      inOrder(transactions, [
        'MANUAL_ADJUDICATION:SUCCESS',
        'UIN_GENERATOR:REPROCESS',
        'UIN_GENERATOR:REPROCESS_FAILED',
        'WORKFLOW_RESUME:SUCCESS',
        'UIN_GENERATOR:SUCCESS',
      ]),
    ).toBe(true);
    expect(transactions.at(-1)).toBe('NOTIFICATION:SUCCESS');

    expect(await stuckCount()).toBe(0);
    expect((await t.graphql(STUCK, { stage: 'UIN_GENERATOR' }, admin)).data.stuckRegistrations.totalCount).toBe(0);
  });
});
