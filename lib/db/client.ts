import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../../generated/prisma/client.js';
import { applyMigrations } from './migrate.js';

export interface Database {
  prisma: PrismaClient;
  kind: 'postgresql' | 'pglite';
  /** where the data lives, with any password removed (printed at start-up) */
  description: string;
  /** the adapter factory, for the schema engine (migrations) */
  adapter: SqlMigrationAwareDriverAdapterFactory;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** embedded only: the PGlite instance (tests read its data folder) */
  pglite?: PGlite;
}

export interface OpenOptions {
  /** postgresql://… ; unset: embedded PGlite */
  url?: string;
  /** PGlite folder, or 'memory://' for a throw-away database */
  dataDir?: string;
  /** apply pending migrations first (default true) */
  migrate?: boolean;
  /** connections in the PostgreSQL pool */
  poolSize?: number;
  /** PGlite: start from this dump of a data folder (PGlite's dumpDataDir), e.g. a migrated template */
  loadDataDir?: Blob;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgresql://(unparseable url)';
  }
}

/** Closing twice (a test that cut the database, then its clean-up) closes once. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Opens PostgreSQL (DATABASE_URL) or embedded PGlite, migrated to the current schema. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let database: Database;
  if (options.url) {
    const adapter = new PrismaPg({ connectionString: options.url, max: options.poolSize ?? 10 });
    const prisma = new PrismaClient({ adapter });
    database = {
      prisma, kind: 'postgresql', description: redactUrl(options.url), adapter,
      ping: async () => void (await prisma.$queryRawUnsafe('SELECT 1')),
      close: () => prisma.$disconnect(),
    };
  } else {
    const dataDir = options.dataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    // PGlite is one connection in this process: the client and the migrations share the instance.
    const pglite = await PGlite.create(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    const adapter = new PrismaPGlite(pglite);
    const prisma = new PrismaClient({ adapter });
    database = {
      prisma, kind: 'pglite', description: `pglite:${dataDir}`, adapter, pglite,
      ping: async () => void (await pglite.query('SELECT 1')),
      close: async () => {
        await prisma.$disconnect();
        if (!pglite.closed) await pglite.close();
      },
    };
  }
  database.close = once(database.close);
  if (options.migrate ?? true) {
    try {
      await applyMigrations(database.adapter);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
