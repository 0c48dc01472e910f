import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { claimDataFolder } from './data-lock.js';
import { openPGlite } from './pglite.js';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
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
  /** PostgreSQL only: the connection pool's counts (metrics) */
  poolCounts?(): { total: number; idle: number; waiting: number; max: number };
  close: () => Promise<void>;
  /** embedded only: the PGlite instance (tests read its data folder) */
  pglite?: PGlite;
  /**
   * LISTENs on a channel: `message` per notification; `up` once listening
   * (again, after a loss: the caller reloads what it may have missed);
   * `down` when the listening connection is lost (it is re-made in the background).
   */
  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<Subscription>;
}

export interface SubscriptionHandlers {
  message: (payload: string) => void;
  up: () => void | Promise<void>;
  down: () => void;
}

export interface Subscription {
  /** the application_name of the listening connection (PostgreSQL), to find it in pg_stat_activity */
  connectionName: string | undefined;
  close: () => Promise<void>;
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
  /** called with the SQL of every query the client sends (tests count queries per request) */
  onQuery?: (sql: string) => void;
}

/** A Prisma client over the adapter, reporting each query's SQL when asked to. */
function clientOf(adapter: SqlDriverAdapterFactory, onQuery: OpenOptions['onQuery']): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onQuery(event.query));
  return prisma;
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

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

/**
 * A connection of its own that LISTENs (a pooled one would be handed to
 * other queries). Lost, it is re-made with backoff; `up` follows every
 * successful LISTEN so the caller can reload what it missed meanwhile.
 */
async function listenOnPostgres(url: string, channel: string, handlers: SubscriptionHandlers): Promise<Subscription> {
  const connectionName = `platform-listen-${randomBytes(4).toString('hex')}`;
  let client: pg.Client | undefined;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;
  const lost = () => {
    if (closed || !client) return;
    client = undefined;
    handlers.down();
    timer = setTimeout(() => void connect(), delay).unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, application_name: connectionName });
    next.on('error', () => {
      if (client === next) lost();
    });
    next.on('end', () => {
      if (client === next) lost();
    });
    next.on('notification', (notification) => {
      if (notification.payload !== undefined) handlers.message(notification.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
      client = next;
      delay = RECONNECT_MIN_MS;
      await handlers.up();
    } catch {
      void next.end().catch(() => undefined);
      client = next;
      lost();
    }
  };
  await connect();
  return {
    connectionName,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** Closing twice (a test that cut the database, then its clean-up) closes once. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Our own lock around a migration, distinct from the schema engine's. */
const MIGRATION_LOCK = 7_244_201;

/**
 * Processes starting together each migrate: the schema engine's own lock
 * gives up after 10 s, which a slow first migration (or a loaded machine)
 * exceeds. They queue here instead, on a lock that waits, so the engine's
 * is never contended; the followers then find nothing to apply.
 */
async function oneAtATime<T>(url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // A connection lost while waiting fails the query below; without a listener it would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return await work();
  } finally {
    await client.end();
  }
}

/** Opens PostgreSQL (DATABASE_URL) or embedded PGlite, migrated to the current schema. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  let database: Database;
  if (options.url) {
    const max = options.poolSize ?? 10;
    // The pool is made here, not by the adapter, so that its counts can be read (metrics); it is ended here too.
    const pool = new pg.Pool({ connectionString: options.url, max });
    // An idle connection that breaks (a server restart) leaves the pool; without a listener the error would end the process.
    pool.on('error', () => undefined);
    const prisma = clientOf(new PrismaPg(pool), options.onQuery);
    // The schema engine's own connections, closed when it disposes them: one returned to the shared pool instead
    // would keep Prisma's session advisory lock, and every other process's migration would time out behind it.
    const adapter = new PrismaPg({ connectionString: options.url, max: 2 });
    const url = options.url;
    database = {
      prisma,
      kind: 'postgresql',
      description: redactUrl(url),
      adapter,
      ping: async () => void (await prisma.$queryRawUnsafe('SELECT 1')),
      poolCounts: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
      subscribe: (channel, handlers) => listenOnPostgres(url, channel, handlers),
    };
  } else {
    const dataDir = options.dataDir ?? 'memory://';
    const onDisk = !dataDir.startsWith('memory://');
    if (onDisk) mkdirSync(dataDir, { recursive: true });
    // A second process on the folder would corrupt it (data-lock.ts): refused before PGlite touches it.
    const release = onDisk ? claimDataFolder(dataDir) : () => undefined;
    // PGlite is one connection in this process: the client and the migrations share the instance.
    const pglite = await openPGlite(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}).catch((error: unknown) => {
      release();
      throw error;
    });
    const adapter = new PrismaPGlite(pglite);
    const prisma = clientOf(adapter, options.onQuery);
    database = {
      prisma,
      kind: 'pglite',
      description: `pglite:${dataDir}`,
      adapter,
      pglite,
      // One process owns an embedded database: its notifications never travel, and never get lost.
      subscribe: async (channel, handlers) => {
        const unsubscribe = await pglite.listen(channel, handlers.message);
        await handlers.up();
        return { connectionName: undefined, close: () => (pglite.closed ? Promise.resolve() : unsubscribe()) };
      },
      ping: async () => void (await pglite.query('SELECT 1')),
      close: async () => {
        await prisma.$disconnect();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  }
  database.close = once(database.close);
  if (options.migrate ?? true) {
    try {
      await (options.url ? oneAtATime(options.url, () => applyMigrations(database.adapter)) : applyMigrations(database.adapter));
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
