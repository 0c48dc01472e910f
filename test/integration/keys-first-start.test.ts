// Several instances starting at the same moment on one empty PostgreSQL
// database: each start generates the keys it needs (the root, the platform's,
// the ID repository's), and together they must leave one key per pair, not one
// per instance and start-up path.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import type { Clock } from '../../lib/time.js';
import { IdrepoCipher } from '../../subgraphs/idrepo/cipher.js';
import { KeyStore } from '../../subgraphs/keys/key-store.js';
import { DEFAULT_KEY_POLICY } from '../../subgraphs/keys/policy.js';
import { KeysService } from '../../subgraphs/keys/service.js';
import { testMasterKey } from '../support/platform.js';
import { createTestDatabase } from '../support/postgres.js';

const INSTANCES = 3;
const IDREPO_KEY = { applicationId: 'IDREPO', referenceId: '' };

/**
 * What a platform's start does with keys, in its order: the key manager makes
 * the platform's own keys, then the ID repository opens (or makes) its keys,
 * sealed by the IDREPO key. The whole platform is not started here: the auth
 * manager's first start has races of its own (its signing key, the bootstrap
 * admin) that would stop the starts before the keys are reached.
 */
async function startKeys(database: Database, clock: Clock) {
  const keys = new KeysService(database.prisma, new KeyStore(database.prisma, testMasterKey, clock, DEFAULT_KEY_POLICY), clock);
  await keys.ensurePlatformKeys();
  const cipher = new IdrepoCipher(database.prisma, keys, clock);
  await cipher.start();
  return { keys, cipher };
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
    const prisma = databases[0]!.prisma;
    const now = new Date();
    const rows = await prisma.keyStoreEntry.findMany({ select: { applicationId: true, referenceId: true, validTo: true, retiredAt: true } });
    const count = (list: typeof rows) =>
      list.reduce<Record<string, number>>((counts, row) => {
        const pair = `${row.applicationId}/${row.referenceId}`;
        counts[pair] = (counts[pair] ?? 0) + 1;
        return counts;
      }, {});
    // Every start needs these: without them the test would prove nothing.
    const one = { 'ROOT/': 1, 'PLATFORM/': 1, 'PLATFORM/RESPONSE_SIGN': 1, 'PLATFORM/NOTIFY': 1, 'IDREPO/': 1 };
    expect(count(rows.filter((row) => row.validTo > now && (!row.retiredAt || row.retiredAt > now)))).toEqual(one);
    // Nor was a second key made and retired: a racing start stored nothing.
    expect(count(rows)).toEqual(one);
  });

  it('leaves one active ID repository key per purpose', async () => {
    const active = await databases[0]!.prisma.idrepoKey.groupBy({ by: ['purpose'], where: { active: true }, _count: { _all: true } });
    expect(Object.fromEntries(active.map((row) => [row.purpose, row._count._all]))).toEqual({ DATA: 1, LOOKUP: 1, HASH: 1 });
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
