import type { PrismaClient } from '../../generated/prisma/client.js';

/** One lock for every trigger installation: instances starting at once would race on CREATE OR REPLACE. */
const TRIGGER_LOCK = 7_202_611;

/**
 * Installs trigger functions and triggers at start-up, idempotently. Not in a
 * migration: PL/pgSQL bodies hold semicolons, which the migration runner of
 * the PostgreSQL adapter splits statements on.
 */
export async function installTriggers(prisma: PrismaClient, statements: string[]): Promise<void> {
  await prisma.$transaction([
    prisma.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${TRIGGER_LOCK})`),
    ...statements.map((sql) => prisma.$executeRawUnsafe(sql)),
  ]);
}
