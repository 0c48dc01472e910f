import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Database, Subscription } from './client.js';

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

/** Installs the triggers that announce changes on `channel`, then listens to it. */
export async function listenToTriggers(
  database: Pick<Database, 'prisma' | 'subscribe'>,
  channel: string,
  triggers: string[],
  handlers: Parameters<Database['subscribe']>[1],
): Promise<Subscription> {
  await installTriggers(database.prisma, triggers);
  return database.subscribe(channel, handlers);
}
