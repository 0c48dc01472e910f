import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

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
