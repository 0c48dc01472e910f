// Live updates (subscriptions over WebSocket, graphql-ws) across two platform instances on one
// PostgreSQL database: a packet processed by the first instance's job runner moves the counts a
// client subscribed on the second sees, and the registration it follows; a caller without the
// role, without a token, or on a page of a foreign origin gets nothing.
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { bearer, cookieHeader, freshDatabase, startTestPlatform, type TestDatabase, type TestPlatform } from '../support/platform.js';
import { syncRecordOf } from '../../lib/packet/write.js';
import { registrationClient, type RegistrationClient } from '../support/regproc.js';

let owned: TestDatabase;
let secondDatabase: Database;
let processing: TestPlatform;
let watching: TestPlatform;
let adminToken: string;
let client: RegistrationClient;
const clients: Client[] = [];

beforeAll(async () => {
  owned = await freshDatabase({ kind: 'postgres' });
  processing = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, { database: owned.database });
  secondDatabase = await openDatabase({ url: owned.url!, migrate: false, poolSize: 4 });
  // The second instance runs no jobs: whatever it reports, the first one did.
  watching = await startTestPlatform({ JOBS_RUN: 'false' }, { database: secondDatabase });
  adminToken = await watching.adminToken();
  client = await registrationClient(processing, cookieHeader(await processing.adminToken()));
});

afterAll(async () => {
  for (const live of clients) await live.dispose();
  await watching?.close();
  await processing?.close();
  await secondDatabase?.close();
  await owned?.drop();
});

const socketUrl = (t: TestPlatform) => `${t.baseUrl.replace(/^http/, 'ws')}/graphql`;

/** A graphql-ws client on an instance, signed in with a bearer token in its connection_init payload. */
function liveClient(t: TestPlatform, token: string | undefined, headers: Record<string, string> = {}): Client {
  const live = createClient({
    url: socketUrl(t),
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers });
      }
    },
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
  clients.push(live);
  return live;
}

interface Watch {
  results: any[];
  errors: unknown[];
  /** resolves with the first answer that satisfies `test`, among those received and those to come */
  until(test: (result: any) => boolean, timeoutMs?: number): Promise<any>;
  done: Promise<void>;
}

function watch(live: Client, query: string, variables: Record<string, unknown> = {}): Watch {
  const results: any[] = [];
  const errors: unknown[] = [];
  const waiters: { test: (result: any) => boolean; resolve: (result: any) => void }[] = [];
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  live.subscribe(
    { query, variables },
    {
      next: (result) => {
        results.push(result);
        for (const waiter of [...waiters]) if (waiter.test(result)) waiter.resolve(result);
      },
      error: (error) => {
        errors.push(error);
        finish();
      },
      complete: finish,
    },
  );
  return {
    results,
    errors,
    done,
    until: (test, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const found = results.find(test);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error(`no matching answer; last: ${JSON.stringify(results.at(-1))}`)), timeoutMs);
        waiters.push({
          test,
          resolve: (result) => {
            clearTimeout(timer);
            resolve(result);
          },
        });
      }),
  };
}

const COUNTS = 'subscription { registrationCounts { stage status count } }';
const processed = (result: any): number =>
  (result.data?.registrationCounts ?? []).filter((row: any) => row.status === 'PROCESSED').reduce((sum: number, row: any) => sum + row.count, 0);

describe('subscriptions across instances', () => {
  it('moves the counts a client watches on one instance when a packet is processed on the other, and follows the registration', async () => {
    const live = liveClient(watching, adminToken);
    const counts = watch(live, COUNTS);
    const first = await counts.until((result) => Array.isArray(result.data?.registrationCounts));
    const before = processed(first);

    const built = client.build('live-one');
    const progress = watch(live, 'subscription($rid: ID!) { registration(registrationId: $rid) { registrationId status stage } }', { rid: built.rid });
    await client.submit(built);
    expect(await client.settle(built.rid)).toBe('PROCESSED');
    const settledAt = Date.now();

    // Heard through PostgreSQL NOTIFY by the instance that did not process it, within a second.
    const moved = await counts.until((result) => processed(result) === before + 1, 1000);
    expect(Date.now() - settledAt).toBeLessThan(1000);
    expect(moved.errors).toBeUndefined();
    const last = await progress.until((result) => result.data?.registration?.status === 'PROCESSED', 1000);
    expect(last.data.registration).toMatchObject({ registrationId: built.rid, status: 'PROCESSED' });
    // Answers are sent when they change: the progress seen is a sequence of distinct states.
    const states = progress.results.map((result) => JSON.stringify(result.data));
    expect(new Set(states).size).toBe(states.length);
  });

  it('answers the ABIS view live, and ends a subscription whose token is revoked at the next change', async () => {
    const token = await watching.adminToken();
    const live = liveClient(watching, token);
    const systems = watch(live, 'subscription { abisSystems { name liveness } }');
    await systems.until((result) => Array.isArray(result.data?.abisSystems));
    const counts = watch(live, COUNTS);
    await counts.until((result) => Array.isArray(result.data?.registrationCounts));
    // Signed out on the processing instance: the watching one hears the revocation, and the next answer is refused.
    const out = await processing.graphql('mutation { invalidateToken { tokenInvalidation { message } userErrors { code } } }', {}, bearer(token));
    expect(out.data.invalidateToken.userErrors).toEqual([]);
    await client.sync([syncRecordOf(client.build('live-revoked').rid, Buffer.from('x'))]);
    await counts.done;
    expect(counts.results.at(-1)).toMatchObject({ errors: [{ extensions: { code: expect.stringMatching(/^KER-ATH-/) } }] });
  });

  it('gives a caller without the role an error and no data', async () => {
    const officer = await watching.clientToken(['REGISTRATION_OFFICER'], 'registrationclient');
    const refused = watch(liveClient(watching, officer.token), COUNTS);
    await refused.done;
    expect(refused.results).toEqual([]);
    expect(JSON.stringify(refused.errors)).toContain('KER-ATH-403');
  });

  it('refuses a connection without a token, a query sent as a subscription, and a page of a foreign origin', async () => {
    const anonymous = watch(liveClient(watching, undefined), COUNTS);
    await anonymous.done;
    expect(anonymous.results).toEqual([]);
    expect((anonymous.errors[0] as { code?: number }).code).toBe(4403);

    const query = watch(liveClient(watching, adminToken), '{ registrationCounts { count } }');
    await query.done;
    expect(query.results).toEqual([]);
    expect(JSON.stringify(query.errors)).toContain('only subscriptions');

    // The session cookie rides a WebSocket from any page: one of another origin is refused at the upgrade.
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(socketUrl(watching), 'graphql-transport-ws', { headers: { ...cookieHeader(adminToken), origin: 'https://evil.example' } });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => undefined);
    });
    expect(status).toBe(403);
    // The same cookie from no page (a server-side client) is accepted.
    const cookied = watch(liveClient(watching, undefined, cookieHeader(adminToken)), COUNTS);
    await cookied.until((result) => Array.isArray(result.data?.registrationCounts));
  });
});
