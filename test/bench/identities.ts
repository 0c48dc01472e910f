// The identity read benchmark's data: identities written straight into PostgreSQL through the
// ID repository's own cipher, opened on the benchmark platform's key store (same database, same
// master key), so that reads by UIN meet 1,000 and then 100,000 identities while only the table
// grows. The rows are what the platform itself writes (encrypted identity, HMACs); no documents.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../lib/db/client.js';
import { MasterKey } from '../../lib/master-key.js';
import { systemClock } from '../../lib/time.js';
import { IdrepoCipher } from '../../subgraphs/idrepo/cipher.js';
import { idrepoKeyStorage } from '../../subgraphs/idrepo/storage.js';
import { sealedIdentity, sealedUin } from '../../subgraphs/idrepo/identities/records.js';
import { generateNumber, uinRules } from '../../lib/numbers.js';
import { loadGlobalConfiguration } from '../../lib/global-configuration.js';
import { DEFAULT_KEY_POLICY } from '../../subgraphs/keys/policy.js';
import { KeyStore } from '../../subgraphs/keys/key-store.js';
import { KeysStorage } from '../../subgraphs/keys/storage.js';
import { KeysService } from '../../subgraphs/keys/service.js';
import { identityOf, newRid } from '../support/identity-data.js';

const BATCH = 1_000;

/** Adds `count` identities whose UINs are not among `taken` (those seeded before); answers their UINs. */
export async function seedIdentities(url: string, passphrase: string, count: number, taken: readonly string[] = []): Promise<string[]> {
  const database = await openDatabase({ url, migrate: false, poolSize: 4 });
  try {
    const prisma = database.prisma;
    const tables = new KeysStorage(prisma);
    const keys = new KeysService(tables, new KeyStore(tables, MasterKey.fromPassphrase(passphrase), systemClock, DEFAULT_KEY_POLICY), systemClock);
    const cipher = new IdrepoCipher(idrepoKeyStorage(prisma), keys, systemClock);
    await cipher.start();
    const rules = uinRules(loadGlobalConfiguration(undefined));
    const uins: string[] = [];
    const seen = new Set<string>(taken);
    const started = Date.now();
    while (uins.length < count) {
      const now = new Date();
      const batch: { uin: string; id: string; rid: string }[] = [];
      while (batch.length < Math.min(BATCH, count - uins.length)) {
        const uin = generateNumber(rules);
        if (seen.has(uin)) continue;
        seen.add(uin);
        batch.push({ uin, id: randomUUID(), rid: newRid() });
      }
      await prisma.identity.createMany({
        data: batch.map(({ uin, id, rid }) => ({
          id,
          ...sealedUin(cipher, id, uin),
          registrationId: rid,
          status: 'ACTIVATED',
          ...sealedIdentity(cipher, id, identityOf(uin)),
          schemaVersion: 1,
          createdBy: 'bench',
          createdAt: now,
        })),
      });
      await prisma.identityRegistration.createMany({ data: batch.map(({ id, rid }) => ({ registrationId: rid, identityId: id, createdAt: now })) });
      uins.push(...batch.map(({ uin }) => uin));
      // Progress of a long seeding (a million identities takes minutes), on standard error.
      if (count >= 100_000 && uins.length % 50_000 === 0)
        process.stderr.write(
          `seeded ${uins.length.toLocaleString('en')} of ${count.toLocaleString('en')} identities, ${Math.round(uins.length / ((Date.now() - started) / 1000))}/s\n`,
        );
    }
    await prisma.$executeRawUnsafe('VACUUM ANALYZE idrepo_identity');
    return uins;
  } finally {
    await database.close();
  }
}
