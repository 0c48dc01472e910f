import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { Database } from './client.js';

export type Tx = Prisma.TransactionClient;

/**
 * Runs `work` in a transaction holding an advisory lock on `key`: checks and
 * writes that no unique index covers (a machine name, a user's one centre, the
 * next generated id, the one certificate in force) stay consistent when
 * requests race, on one instance or several.
 */
export async function underLock<T>(prisma: PrismaClient, key: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${key}))) AS lock`;
    return work(tx);
  });
}

/** How long `whileLocked` holds its lock at most: the work it guards runs once per database, at its first start. */
const HOLD_MS = 10 * 60_000;

/**
 * Runs `work` while an advisory lock on `key` is held, but outside the lock's
 * transaction: for start-up work of many statements, each on its own (the
 * sample country's rows, a bad one reported and the rest loaded), that
 * instances starting together on one database must do once. The lock's
 * transaction does nothing else and ends with the work (or with the process).
 * Embedded PGlite is one process on one connection, which the lock's
 * transaction would take from the work: there the work runs as it is.
 */
export async function whileLocked<T>(database: Pick<Database, 'kind' | 'prisma'>, key: string, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: Promise<void>;
  await new Promise<void>((locked, failed) => {
    holding = database.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${key}))) AS lock`;
        locked();
        await released;
      },
      // The wait for another holder counts too.
      { timeout: HOLD_MS },
    );
    holding.catch(failed);
  });
  try {
    return await work();
  } finally {
    release();
    await holding;
  }
}
