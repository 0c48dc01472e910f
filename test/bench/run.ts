// npm run bench: the platform in its own process (as `npm start` runs it), the baselines in
// another (test/bench/baseline.ts), the load generator in a third (test/bench/load.ts), one
// process per case. Cases:
//   validateToken over REST and over GraphQL, against an RS256-only handler
//   clientidsecretkey login (absolute)
//   OTP generate + validate pairs (absolute)
//   cryptomanager/encrypt, against a handler doing the same node:crypto work
//   holiday search at 1,000 and at 100,000 rows (the growth of its latency: indexes, not scans)
//   identity read by UIN at 1,000 and at 100,000 identities, and identity create (absolute)
//   slots: a centre's slot availability over 30 days at 100 and at 10,000 bookings, and bookings/s through REST
//   validatePartnerMisp, as ID authentication calls it on every authentication (absolute)
//   startup (only when named in BENCH_CASES): a fresh start's first minute against the same calls at rest (test/bench/startup.ts)
//   packets: registration packets end to end (test/bench/packets.ts: its own platform with the sample
//   country, BENCH_WORKERS job workers (1), the simulator with BENCH_PACKETS packets (500))
// Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (16), BENCH_DB (postgres), BENCH_CASES (parts of
// case names, comma-separated), BENCH_PROFILE (a folder for a CPU profile of the platform), BENCH_ABIS
// (true: the packets de-duplicated by the mock ABIS in its own process over ActiveMQ at STOMP_URL),
// BENCH_SHORT (true: every case briefly on small tables, both packet modes and the startup included;
// test/bench/sizes.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/wait.js';
import { holidaySearches, seedHolidays } from './holidays.js';
import { seedIdentities } from './identities.js';
import { benchPackets } from './packets.js';
import { partnerChain } from './partners.js';
import { benchSlots } from './slots.js';
import { benchStartup } from './startup.js';
import { DOCUMENTS, identityOf, newRid } from '../support/identity-data.js';
import { generateNumber, uinRules } from '../../lib/numbers.js';
import { loadGlobalConfiguration } from '../../lib/global-configuration.js';
import type { LoadCase, LoadResult } from './load.js';
import { load } from './load-process.js';
import { adminLogin, envelope, MASTER_KEY, platformEnv } from './platform.js';
import { SHORT, sizes } from './sizes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const seconds = sizes.seconds;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const kind = process.env.BENCH_DB ?? 'postgres';
/** BENCH_CASES: a comma-separated part of the case names to run (default all) */
const only = process.env.BENCH_CASES?.split(',').map((part) => part.trim().toLowerCase());
/** BENCH_PROFILE: a folder for a V8 CPU profile of the platform (written when it stops) */
const profileDir = process.env.BENCH_PROFILE;

/** Starts a node process running a TypeScript file, resolving once `probe` answers. */
async function startProcess(file: string, args: string[], env: Record<string, string>, probe: string, nodeOptions: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const until = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`${file} exited (${exited}) before it answered ${probe}`);
    if (Date.now() > until) throw new Error(`${file} did not answer ${probe}`);
    if (
      await fetch(probe).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-bench-'));
  const database = kind === 'postgres' ? await createTestDatabase() : undefined;
  const port = await freePort();
  const platformUrl = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [];
  try {
    children.push(
      await startProcess(
        'gateway/main.ts',
        [],
        // A small UIN pool: a fresh platform's first fill (200,000 numbers by the shipped configuration) is a one-off start-up cost, not the steady state measured here.
        platformEnv(port, dataDir, database?.url ?? '', { PLATFORM_UIN_POOL_SIZE: '1000', PLATFORM_UIN_POOL_THRESHOLD: '100' }),
        `http://127.0.0.1:${port}/health/live`,
        profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      ),
    );

    const call = async (method: string, urlPath: string, body?: unknown, cookie?: string) => {
      const response = await fetch(platformUrl + urlPath, {
        method,
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        json: (await response.json()) as { response: Record<string, unknown> | null; errors: unknown; data?: Record<string, Record<string, string>> },
        setCookie: response.headers.get('set-cookie') ?? '',
      };
    };
    const admin = (await call('POST', '/v1/authmanager/authenticate/internal/useridPwd', adminLogin())).json.response!;
    const adminCookie = `Authorization=Platform-Token${admin.token as string}`;
    const client = async (clientId: string, role: string, appId: string) => {
      const created = await call(
        'POST',
        '/graphql',
        {
          query: `mutation { createClient(input: {clientId: "${clientId}", roles: [${role}], appIds: ["${appId}"]}) { clientCredentials { secretKey } userErrors { field code message } } }`,
        },
        adminCookie,
      );
      // createClient answers its payload: the credentials, or userErrors.
      const secretKey = (created.json.data!.createClient as unknown as { clientCredentials: { secretKey: string } }).clientCredentials.secretKey;
      const login = await call('POST', '/v1/authmanager/authenticate/clientidsecretkey', envelope({ clientId, secretKey, appId }));
      return { secretKey, cookie: /Authorization=Platform-Token[^;]+/.exec(login.setCookie)![0] };
    };
    const ida = await client('bench-ida', 'ID_AUTHENTICATION', 'ida');
    const regproc = await client('bench-regproc', 'REGISTRATION_PROCESSOR', 'registrationprocessor');

    // The baselines get the platform's own keys: its token public key and the REGISTRATION certificate.
    const keyDir = mkdtempSync(path.join(tmpdir(), 'platform-bench-keys-'));
    const certificate = (await call('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', undefined, regproc.cookie)).json.response!
      .certificate as string;
    let publicKey: string;
    if (database) {
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      publicKey = (await db.query<{ publicKey: string }>('SELECT "publicKey" FROM auth_signing_key')).rows[0]!.publicKey;
      await db.end();
    } else {
      throw new Error('BENCH_DB=pglite: the baseline needs the token public key from the database; use PostgreSQL');
    }
    writeFileSync(path.join(keyDir, 'token.pem'), publicKey);
    writeFileSync(path.join(keyDir, 'certificate.pem'), certificate);
    const baselinePort = await freePort();
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    children.push(
      await startProcess(
        'test/bench/baseline.ts',
        [String(baselinePort), path.join(keyDir, 'token.pem'), path.join(keyDir, 'certificate.pem')],
        {},
        `${baselineUrl}/validate`,
      ),
    );

    const validatePath = !only || only.some((part) => 'validatepartnermisp'.includes(part)) ? await partnerChain(call, adminCookie) : '';
    const payload = 'x'.repeat(1024);
    const cases: { name: string; spec: Omit<LoadCase, 'connections' | 'seconds'>; baselineOf?: string }[] = [
      { name: 'baseline: RS256 verification only', spec: { url: baselineUrl, path: '/validate', headers: { cookie: adminCookie } } },
      {
        name: 'validateToken over REST',
        spec: { url: platformUrl, path: '/v1/authmanager/authorize/admin/validateToken', headers: { cookie: adminCookie } },
        baselineOf: 'baseline: RS256 verification only',
      },
      {
        name: 'validateToken over GraphQL',
        spec: { url: platformUrl, method: 'POST', path: '/graphql', body: { query: '{ validateToken { userId roles } }' }, headers: { cookie: adminCookie } },
        baselineOf: 'baseline: RS256 verification only',
      },
      {
        name: 'clientidsecretkey login',
        spec: {
          url: platformUrl,
          method: 'POST',
          path: '/v1/authmanager/authenticate/clientidsecretkey',
          body: envelope({ clientId: 'bench-ida', secretKey: ida.secretKey, appId: 'ida' }),
        },
      },
      {
        name: 'OTP generate + validate (pairs)',
        spec: {
          url: platformUrl,
          path: '/v1/otpmanager/otp/generate',
          headers: { cookie: ida.cookie },
          otpPairs: { validatePath: '/v1/otpmanager/otp/validate' },
        },
      },
      {
        name: 'baseline: the same node:crypto encryption',
        spec: { url: baselineUrl, method: 'POST', path: '/encrypt', body: envelope({ applicationId: 'REGISTRATION', data: payload }) },
      },
      {
        name: 'cryptomanager/encrypt over REST (1 KB)',
        spec: {
          url: platformUrl,
          method: 'POST',
          path: '/v1/cryptomanager/encrypt',
          body: envelope({ applicationId: 'REGISTRATION', data: payload }),
          headers: { cookie: regproc.cookie },
        },
        baselineOf: 'baseline: the same node:crypto encryption',
      },
      { name: 'validatePartnerMisp over REST', spec: { url: platformUrl, path: validatePath, headers: { cookie: ida.cookie } } },
    ];

    console.log(`${connections} connections, ${seconds} s per case (after a ${sizes.warmupSeconds} s warm-up), database ${kind}, Node ${process.version}`);
    const results = new Map<string, LoadResult>();
    for (const { name, spec, baselineOf } of cases.filter((c) => !only || only.some((part) => c.name.toLowerCase().includes(part)))) {
      await load({ ...spec, connections, seconds: sizes.warmupSeconds });
      const result = await load({ ...spec, connections, seconds });
      if (result.non2xx || result.errors || result.failedAnswers)
        throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.failedAnswers} failed answers`);
      results.set(name, result);
      const base = baselineOf ? results.get(baselineOf) : undefined;
      const ratio = base ? `   ratio ${(result.requestsPerSecond / base.requestsPerSecond).toFixed(2)}` : '';
      const unit = spec.otpPairs ? 'pairs/s' : 'req/s';
      // autocannon counts each request of a chain: a pair is two.
      const rate = spec.otpPairs ? result.requestsPerSecond / 2 : result.requestsPerSecond;
      console.log(`${name.padEnd(44)} ${rate.toFixed(0).padStart(7)} ${unit.padEnd(7)}  p50 ${result.p50ms} ms  p99 ${result.p99ms} ms${ratio}`);
    }
    rmSync(keyDir, { recursive: true, force: true });

    // Holiday search, the same searches at 1,000 rows and after the table grows to 100,000.
    const holidayNames = Object.keys(holidaySearches).filter((name) => !only || only.some((part) => name.includes(part)));
    if (holidayNames.length && database) {
      const atSize = new Map<string, LoadResult>();
      const [smallRows, largeRows] = sizes.holidayRows as [number, number];
      for (const [rows, from] of [
        [smallRows, 1],
        [largeRows, smallRows + 1],
      ] as const) {
        await seedHolidays(database.url, from, rows);
        for (const name of holidayNames) {
          const spec = {
            url: platformUrl,
            method: 'POST' as const,
            path: '/v1/masterdata/holidays/search',
            body: envelope(holidaySearches[name as keyof typeof holidaySearches]),
            headers: { cookie: adminCookie },
          };
          // A longer warm-up: the first search case otherwise measures the JIT and Prisma's query caches.
          await load({ ...spec, connections, seconds: sizes.tableWarmupSeconds });
          const result = await load({ ...spec, connections, seconds });
          if (result.non2xx || result.errors || result.failedAnswers) throw new Error(`${name}: failed answers`);
          const small = atSize.get(name);
          const growth = small
            ? `   p50 ×${(result.p50ms / small.p50ms).toFixed(2)} of ${smallRows.toLocaleString('en')}, req/s ×${(result.requestsPerSecond / small.requestsPerSecond).toFixed(2)}`
            : '';
          if (!small) atSize.set(name, result);
          console.log(
            `${`${name} (${rows.toLocaleString('en')} rows)`.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s    p50 ${result.p50ms} ms  p99 ${result.p99ms} ms${growth}`,
          );
        }
      }
    }

    // Identity reads by UIN at 1,000 and at 100,000 identities (random UINs of the table), and creates.
    const identityCases = ['identity read by UIN', 'identity create'].filter((name) => !only || only.some((part) => name.includes(part)));
    if (identityCases.length && database) {
      const schema = JSON.parse(readFileSync(path.join(ROOT, 'subgraphs/masterdata/sample-country/19-id-schemas.json'), 'utf8')) as Record<string, unknown>[];
      const { title, description, schemaVersion, effectiveFrom, schema: fields } = schema[0]!;
      const draft = await call('POST', '/v1/masterdata/idschema', envelope({ title, description, schemaVersion, effectiveFrom, schema: fields }), adminCookie);
      await call('PUT', '/v1/masterdata/idschema/publish', envelope({ id: draft.json.response!.id, effectiveFrom: new Date().toISOString() }), adminCookie);
      const uins: string[] = [];
      if (identityCases.includes('identity read by UIN')) {
        const atSize = new Map<string, LoadResult>();
        for (const size of sizes.identities) {
          const seedStarted = Date.now();
          // One by one: spreading a million arguments overflows the stack.
          for (const uin of await seedIdentities(database.url, MASTER_KEY, size - uins.length, uins)) uins.push(uin);
          const seedSeconds = (Date.now() - seedStarted) / 1000;
          const db = new pg.Client({ connectionString: database.url });
          await db.connect();
          const bytes = Number(
            (
              await db.query<{ bytes: string }>(
                `SELECT pg_total_relation_size('idrepo_identity') + pg_total_relation_size('idrepo_identity_registration') AS bytes`,
              )
            ).rows[0]!.bytes,
          );
          await db.end();
          console.log(
            `${`identities seeded to ${size.toLocaleString('en')}`.padEnd(44)} ${seedSeconds.toFixed(0).padStart(7)} s        ${(bytes / uins.length).toFixed(0)} bytes on disk per identity (tables and indexes)`,
          );
          // At most 100,000 UINs to pick from at random: the load generator takes its paths as one JSON text.
          const picked = uins.length <= 100_000 ? uins : Array.from({ length: 100_000 }, () => uins[Math.floor(Math.random() * uins.length)]!);
          const spec = {
            url: platformUrl,
            path: '/idrepository/v1/identity/uin/0',
            paths: picked.map((uin) => `/idrepository/v1/identity/uin/${uin}`),
            headers: { cookie: ida.cookie },
          };
          await load({ ...spec, connections, seconds: sizes.tableWarmupSeconds });
          const result = await load({ ...spec, connections, seconds });
          if (result.non2xx || result.errors || result.failedAnswers) throw new Error('identity read: failed answers');
          const small = atSize.get('read');
          if (!small) atSize.set('read', result);
          const growth = small
            ? `   p50 ×${(result.p50ms / small.p50ms).toFixed(2)} of ${sizes.identities[0]!.toLocaleString('en')}, req/s ×${(result.requestsPerSecond / small.requestsPerSecond).toFixed(2)}`
            : '';
          console.log(
            `${`identity read by UIN (${size.toLocaleString('en')})`.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s    p50 ${result.p50ms} ms  p99 ${result.p99ms} ms${growth}`,
          );
        }
      }
      if (identityCases.includes('identity create')) {
        // Each request a new identity: a body per request, so autocannon's paths are not enough — a fixed pool of bodies.
        const rules = uinRules(loadGlobalConfiguration(undefined));
        // A UIN already stored (seeded, or drawn by an earlier create) would be refused (IDR-IDC-012): drawn again.
        const taken = new Set(uins);
        const freeUin = (): string => {
          for (;;) {
            const uin = generateNumber(rules);
            if (taken.has(uin)) continue;
            taken.add(uin);
            return uin;
          }
        };
        const started = Date.now();
        let created = 0;
        const until = started + seconds * 1000;
        await Promise.all(
          Array.from({ length: connections }, async () => {
            while (Date.now() < until) {
              const rid = newRid();
              const body = {
                ...envelope({ registrationId: rid, biometricReferenceId: `bio-${rid}`, identity: identityOf(freeUin()), documents: DOCUMENTS }),
                // the id the repository requires of a create
                id: 'platform.id.create',
              };
              const answer = await call('POST', '/idrepository/v1/identity/', body, regproc.cookie);
              if (answer.json.response?.status !== 'ACTIVATED') throw new Error(`identity create: ${JSON.stringify(answer.json.errors)}`);
              created++;
            }
          }),
        );
        console.log(`${'identity create (2 documents)'.padEnd(44)} ${(created / ((Date.now() - started) / 1000)).toFixed(0).padStart(7)} req/s`);
      }
    }

    if ((!only || only.some((part) => 'slots'.includes(part))) && database)
      await benchSlots({ platformUrl, databaseUrl: database.url, adminCookie, call, load, connections, seconds });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// The request cases share one platform; the packets and startup cases bring their own (the sample country's centre and ID schema; a fresh start).
const own = ['packets', 'startup'];
if (!only || only.some((part) => !own.some((name) => name.includes(part)))) await main();
// The startup case waits for a full UIN pool: only when named, or briefly in the short form.
if (only ? only.some((part) => 'startup'.includes(part)) : SHORT) await benchStartup({ load, connections, seconds });
if (!only || only.some((part) => 'packets'.includes(part)))
  // The short form runs both de-duplications: within the platform, and by the mock ABIS over ActiveMQ.
  for (const abis of SHORT ? [false, true] : [process.env.BENCH_ABIS === 'true'])
    await benchPackets({
      count: sizes.packets,
      workers: Number(process.env.BENCH_WORKERS ?? 1),
      concurrency: connections,
      platformJobs: process.env.BENCH_PLATFORM_JOBS !== 'false',
      abis,
    });
