import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PlatformConfig } from '../lib/config.js';
import type { Database } from '../lib/db/client.js';
import { PlatformMarkers } from '../lib/db/markers.js';
import type { Logger } from '../lib/log.js';
import { MasterKey } from '../lib/master-key.js';
import type { ObjectStore } from '../lib/object-store/index.js';

/**
 * A start that would break the platform, said in one plain sentence. The
 * entry points print it alone and exit 2: a process refuses at once instead
 * of failing later on a request, or corrupting what other processes share.
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefused';
  }
}

const MASTER_KEY_MARKER = 'master-key-check';
const MASTER_KEY_PURPOSE = 'platform/master-key-check';
const STORE_MARKER = 'object-store';
const STORE_ID_KEY = 'platform/store-id';

const OTHER_KEY =
  "PLATFORM_MASTER_KEY does not open this database's keys: it is not the master key the database was set up with, and every process of the platform needs that same key";

function opens(masterKey: MasterKey, sealed: string): boolean {
  try {
    masterKey.unwrap(sealed, MASTER_KEY_PURPOSE);
    return true;
  } catch {
    return false;
  }
}

/**
 * The master key, checked against the value the first process sealed with
 * it. Without PLATFORM_MASTER_KEY beside a database set up by another
 * process, no development key is generated: it could open nothing.
 */
export async function loadMasterKey(config: PlatformConfig, database: Database, logger: Logger): Promise<MasterKey> {
  const sealed = await new PlatformMarkers(database.prisma).read(MASTER_KEY_MARKER);
  if (sealed && !config.masterKey && !existsSync(path.join(config.dataDir, 'master-key'))) {
    throw new StartRefused(
      'PLATFORM_MASTER_KEY is not set, and this database was set up by a process with a master key: give this process the PLATFORM_MASTER_KEY of the others',
    );
  }
  return checkMasterKey(MasterKey.load(config.masterKey, config.dataDir, logger), database, sealed);
}

/** Refuses a key that does not open the sealed check value; answers the key otherwise (or when nothing is sealed yet). */
export async function checkMasterKey(masterKey: MasterKey, database: Database, sealed?: string | null): Promise<MasterKey> {
  const value = sealed === undefined ? await new PlatformMarkers(database.prisma).read(MASTER_KEY_MARKER) : sealed;
  if (value && !opens(masterKey, value)) throw new StartRefused(OTHER_KEY);
  return masterKey;
}

/** Seals the check value once the keys have opened (a database from before the check gets one at its next start). */
export async function sealMasterKeyCheck(masterKey: MasterKey, database: Database, replace = false): Promise<void> {
  const sealed = masterKey.wrap(randomBytes(16), MASTER_KEY_PURPOSE);
  const markers = new PlatformMarkers(database.prisma);
  await (replace ? markers.replace(MASTER_KEY_MARKER, sealed) : markers.claim(MASTER_KEY_MARKER, sealed));
}

/** A failure to open the keys of a database sealed before the check existed, said as the check says it. */
export function explainKeyFailure(error: unknown): never {
  if (error instanceof Error && /unable to authenticate data|bad decrypt/i.test(error.message)) throw new StartRefused(OTHER_KEY);
  throw error;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * On PostgreSQL every process must reach the same object store: a packet one
 * stores, another reads. The database names the store its first process
 * used (an id the store keeps); a process whose store holds another id, or
 * none while the database names one, uses a store of its own, and refuses.
 */
export async function checkObjectStore(config: PlatformConfig, database: Database, objects: ObjectStore): Promise<void> {
  if (!config.databaseUrl) return;
  const { value: expected, created } = await new PlatformMarkers(database.prisma).claim(STORE_MARKER, randomUUID());
  // Processes starting together on an empty database: the first one writes the id just after claiming it.
  for (let wait = 0; ; wait++) {
    const held = (await objects.get(STORE_ID_KEY))?.toString('utf8').trim();
    if (held === expected) return;
    if (!held && created) return objects.put(STORE_ID_KEY, Buffer.from(expected));
    if (held || wait >= 25) break;
    await sleep(200);
  }
  throw new StartRefused(
    objects.kind === 'files'
      ? `this process keeps its files in its own folder (${path.join(config.dataDir, 'objects')}), not in the object store the platform's other processes use: set OBJECT_STORE_URL to the shared store, as every process must`
      : "OBJECT_STORE_URL names another store than the one the platform's other processes use: give every process the same OBJECT_STORE_URL",
  );
}

/** Settings a process on a shared PostgreSQL database needs beside the others: checked before anything opens. */
export function checkSharedSettings(config: PlatformConfig): void {
  if (config.databaseUrl && config.env.REGPROC_DEDUPE === 'abis' && !config.publicUrl) {
    // Data shares carry the platform's address: without it they name this machine's default port, which the ABIS cannot fetch.
    throw new StartRefused(
      'de-duplication by an ABIS sends data share addresses, and this process would name its own machine in them: set PLATFORM_PUBLIC_URL to the address the ABIS reaches the platform at',
    );
  }
}
