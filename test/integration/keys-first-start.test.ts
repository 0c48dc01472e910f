// Several instances starting at the same moment on one empty PostgreSQL
// database: each start generates the keys it needs (the root, the platform's,
// the ID repository's), and together they must leave one key per pair, not one
// per instance and start-up path. Whole platforms too: one signing key, one
// admin, the sample country loaded once, and every instance serving.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDeps, type Dependencies } from '../../gateway/deps.js';
import { loadConfig } from '../../lib/config.js';
import { openDatabase, type Database } from '../../lib/db/client.js';
import type { Clock } from '../../lib/time.js';
import { IdrepoCipher } from '../../subgraphs/idrepo/cipher.js';
import { idrepoKeyStorage } from '../../subgraphs/idrepo/storage.js';
import { KeyStore } from '../../subgraphs/keys/key-store.js';
import { KeysStorage } from '../../subgraphs/keys/storage.js';
import { DEFAULT_KEY_POLICY } from '../../subgraphs/keys/policy.js';
import { KeysService } from '../../subgraphs/keys/service.js';
import { SAMPLE_COUNTRY_DIR } from '../../subgraphs/masterdata/import/loader.js';
import { masterdata } from '../../subgraphs/masterdata/index.js';
import { cookieHeader, envelopeOf, startTestPlatform, TEST_MASTER_KEY, testMasterKey, type TestPlatform } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';

const INSTANCES = 3;
const IDREPO_KEY = { applicationId: 'IDREPO', referenceId: '' };

/**
 * What a platform's start does with keys, in its order: the key manager makes
 * the platform's own keys, then the ID repository opens (or makes) its keys,
 * sealed by the IDREPO key (whole platforms start together further down).
 */
async function startKeys(database: Database, clock: Clock) {
  const tables = new KeysStorage(database.prisma);
  const keys = new KeysService(tables, new KeyStore(tables, testMasterKey, clock, DEFAULT_KEY_POLICY), clock);
  await keys.ensurePlatformKeys();
  const cipher = new IdrepoCipher(idrepoKeyStorage(database.prisma), keys, clock);
  await cipher.start();
  return { keys, cipher };
}

/** Every start needs these keys: without them the checks would prove nothing. */
const ONE_KEY_PER_PAIR = { 'ROOT/': 1, 'PLATFORM/': 1, 'PLATFORM/RESPONSE_SIGN': 1, 'PLATFORM/NOTIFY': 1, 'IDREPO/': 1 };

/**
 * One key per pair in the key store, in force, and no other made and retired.
 * `exactly`: the pairs expected; without it, these at least, and whatever else
 * a whole platform's start makes, once each too.
 */
async function expectOneKeyPerPair(database: Database, exactly?: Record<string, number>): Promise<void> {
  const now = new Date();
  const rows = await database.prisma.keyStoreEntry.findMany({ select: { applicationId: true, referenceId: true, validTo: true, retiredAt: true } });
  const count = (list: typeof rows) =>
    list.reduce<Record<string, number>>((counts, row) => {
      const pair = `${row.applicationId}/${row.referenceId}`;
      counts[pair] = (counts[pair] ?? 0) + 1;
      return counts;
    }, {});
  const all = count(rows);
  const expected = exactly ?? { ...Object.fromEntries(Object.keys(all).map((pair) => [pair, 1])), ...ONE_KEY_PER_PAIR };
  expect(count(rows.filter((row) => row.validTo > now && (!row.retiredAt || row.retiredAt > now)))).toEqual(expected);
  // Nor was a second key made and retired: a racing start stored nothing.
  expect(all).toEqual(expected);
}

async function expectOneIdrepoKeyPerPurpose(database: Database): Promise<void> {
  const active = await database.prisma.idrepoKey.groupBy({ by: ['purpose'], where: { active: true }, _count: { _all: true } });
  expect(Object.fromEntries(active.map((row) => [row.purpose, row._count._all]))).toEqual({ DATA: 1, LOOKUP: 1, HASH: 1 });
}

describe('instances starting together on an empty database', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let databases: Database[] = [];
  let instances: Awaited<ReturnType<typeof startKeys>>[] = [];

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    // Each instance its own pool, as separate processes have, and its own clock a few milliseconds off the others', as separate machines'.
    databases = await Promise.all(Array.from({ length: INSTANCES }, () => openDatabase({ url: server.url, migrate: false })));
    instances = await Promise.all(databases.map((database, i) => startKeys(database, { now: () => new Date(Date.now() - i * 25) })));
  });
  afterAll(async () => {
    for (const database of databases) await database.close();
    await server?.drop();
  });

  it('leaves one key per application and reference, in force', async () => {
    await expectOneKeyPerPair(databases[0]!, ONE_KEY_PER_PAIR);
  });

  it('leaves one active ID repository key per purpose', async () => {
    await expectOneIdrepoKeyPerPurpose(databases[0]!);
  });

  it('lets every instance open what another sealed, and agree on look-ups', async () => {
    for (const from of instances) {
      const sealed = await from.keys.seal(IDREPO_KEY, Buffer.from('shared'));
      const encrypted = from.cipher.encrypt(Buffer.from('identity'), 'test/context');
      for (const to of instances) {
        expect((await to.keys.open(IDREPO_KEY, sealed)).toString()).toBe('shared');
        expect((await to.cipher.decrypt(encrypted, 'test/context')).toString()).toBe('identity');
        expect(to.cipher.lookup('1234567890')).toBe(from.cipher.lookup('1234567890'));
      }
    }
  });
});

/** A logger that keeps an instance's records, to tell which instance did what while starting. */
function capturingLogger(lines: string[]) {
  return pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
}

/** The instances (by their logs) that loaded the sample country or added its rows, and the lines saying a row was refused. */
function sampleLoaders(logs: string[][]) {
  return {
    loaders: logs.flatMap((lines, i) => (lines.some((line) => line.includes('sample country:')) ? [i] : [])),
    refused: logs
      .flat()
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
      .filter((message) => message.includes('rejected') || message.includes('an event listener failed')),
  };
}

const SAMPLE_LANGUAGES = (JSON.parse(readFileSync(path.join(SAMPLE_COUNTRY_DIR, '01-languages.json'), 'utf8')) as unknown[]).length;

// The whole platforms' starts below reach master data at moments their other start-up work spreads apart; here the
// sample country's step of three starts runs at the very same moment, every time.
describe("the sample country's load, by starts at the same moment", () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let databases: Database[] = [];
  let instances: Dependencies[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-test-'));
  const logs: string[][] = Array.from({ length: INSTANCES }, () => []);

  beforeAll(async () => {
    server = await createTestDatabase(inject('postgresTemplate'));
    databases = await Promise.all(Array.from({ length: INSTANCES }, () => openDatabase({ url: server.url, migrate: false })));
    const config = loadConfig({ PLATFORM_DATA_DIR: dataDir, PLATFORM_SAMPLE_DATA: 'true', PLATFORM_MASTER_KEY: TEST_MASTER_KEY });
    instances = await Promise.all(
      databases.map((database, i) => createDeps({ config, database, masterKey: testMasterKey, logger: capturingLogger(logs[i]!) })),
    );
    await Promise.all(instances.map((instance) => instance.buildSubgraph(masterdata)));
  });
  afterAll(async () => {
    for (const instance of instances) await instance.runCloseTasks();
    for (const database of databases) await database.close();
    await server?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is done by one of them, whole, and the others leave it alone', async () => {
    expect(sampleLoaders(logs)).toEqual({ loaders: [expect.any(Number)], refused: [] });
    expect(await databases[0]!.prisma.language.count()).toBe(SAMPLE_LANGUAGES);
  });
});

describe('whole platforms starting together on an empty database', () => {
  let server: Awaited<ReturnType<typeof createTestDatabase>>;
  let databases: Database[] = [];
  let starts: PromiseSettledResult<TestPlatform>[] = [];
  let platforms: TestPlatform[] = [];
  const logs: string[][] = Array.from({ length: INSTANCES }, () => []);

  beforeAll(async () => {
    // A database without even the schema, as `npm start` meets it: each instance migrates it first (under Prisma's lock).
    server = await createTestDatabase();
    databases = await Promise.all(Array.from({ length: INSTANCES }, () => openDatabase({ url: server.url })));
    // No admin password or client secret: a first start generates the admin's password, which one instance alone may hand
    // out. The sample country asked for outright, as on PostgreSQL it is not loaded by default.
    const env = { PLATFORM_SAMPLE_DATA: 'true', PLATFORM_ADMIN_PASSWORD: '', PLATFORM_ADMIN_CLIENT_SECRET: '' };
    starts = await Promise.allSettled(databases.map((database, i) => startTestPlatform(env, { database }, { logger: capturingLogger(logs[i]!) })));
    platforms = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
  });
  afterAll(async () => {
    for (const platform of platforms) await platform.close();
    for (const database of databases) await database.close();
    await server?.drop();
  });

  it('starts every instance, and each serves', async () => {
    expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'started'))).toEqual(Array(INSTANCES).fill('started'));
    for (const platform of platforms) {
      const { status, json } = await platform.request('GET', '/health');
      expect(status).toBe(200);
      expect(json.status).toBe('UP');
    }
  });

  it('creates one admin, whose generated password one instance alone hands out', async () => {
    const prisma = databases[0]!.prisma;
    // The admin, and the sample centre's staff the sample country adds (once, as the country is loaded once).
    const users = await prisma.user.findMany({ select: { userId: true }, orderBy: { userId: 'asc' } });
    expect(users.map((user) => user.userId)).toEqual(['admin', 'sample-officer', 'sample-operator', 'sample-supervisor']);
    const files = platforms
      .map((platform) => path.join(platform.platform.deps.config.dataDir, 'bootstrap-credentials.json'))
      .filter((file) => existsSync(file));
    expect(files).toHaveLength(1);
    // The one handed out is the stored one: it logs in on every instance.
    const { password } = JSON.parse(readFileSync(files[0]!, 'utf8')) as { password: string };
    expect(platforms).toHaveLength(INSTANCES);
    for (const platform of platforms) {
      const { json } = await platform.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
        body: envelopeOf({ userName: 'admin', password, appId: 'admin' }),
      });
      expect(json.errors ?? null).toBeNull();
    }
  });

  it('signs with one key: a token one instance issues is accepted by the others', async () => {
    expect(await databases[0]!.prisma.signingKey.count({ where: { active: true } })).toBe(1);
    const file = platforms.map((platform) => path.join(platform.platform.deps.config.dataDir, 'bootstrap-credentials.json')).find((f) => existsSync(f));
    const { password } = JSON.parse(readFileSync(file!, 'utf8')) as { password: string };
    expect(platforms).toHaveLength(INSTANCES);
    for (const from of platforms) {
      const { json } = await from.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
        body: envelopeOf({ userName: 'admin', password, appId: 'admin' }),
      });
      const token = json.response.token as string;
      for (const to of platforms) expect((await to.graphql('{ viewer { id } }', {}, cookieHeader(token))).data).toEqual({ viewer: { id: 'admin' } });
    }
  });

  it('leaves one key per application and reference, and one active ID repository key per purpose', async () => {
    await expectOneKeyPerPair(databases[0]!);
    await expectOneIdrepoKeyPerPurpose(databases[0]!);
  });

  it('loads the sample country once, by one instance', async () => {
    const prisma = databases[0]!.prisma;
    expect(await prisma.language.count()).toBe(SAMPLE_LANGUAGES);
    // One loader: the others neither loaded a row nor saw one refused as already there.
    expect(sampleLoaders(logs)).toEqual({ loaders: [expect.any(Number)], refused: [] });
    // What the other components add once it is loaded: the default policy group, managed by the admin.
    expect(await prisma.policyGroup.findMany({ select: { id: true } })).toEqual([{ id: 'default' }]);
    expect(await prisma.policyGroupManager.findMany({ select: { policyGroupId: true, userId: true } })).toEqual([
      { policyGroupId: 'default', userId: 'admin' },
    ]);
  });
});
