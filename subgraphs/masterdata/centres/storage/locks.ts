import type { PrismaClient } from '../../../../generated/prisma/client.js';
import { underLock, type Tx } from '../../../../lib/db/lock.js';
import { isUniqueViolation } from '../../../../lib/db/unique.js';

const ID_TABLES = { centre: 'md_registration_center', machine: 'md_machine' } as const;
/** MOSIP's generated centre and machine ids: five digits from 10001 (platform.kernel.*id.length). */
const FIRST_ID = 10001;

/** The next numeric id of a table; call it under the table's lock. */
export async function nextId(tx: Tx, table: keyof typeof ID_TABLES): Promise<string> {
  const [row] = await tx.$queryRawUnsafe<{ max: string | null }[]>(`SELECT max(id::bigint)::text AS max FROM "${ID_TABLES[table]}" WHERE id ~ '^[0-9]{1,15}$'`);
  return String(Math.max(FIRST_ID, Number(row?.max ?? 0) + 1));
}

/**
 * `work` in one transaction under the advisory lock `key`, over the tables
 * `tables` gives for the transaction; a unique violation on the way (a
 * racing writer the index stopped) is `taken()` when given.
 */
export async function lockedWork<L, T>(
  prisma: PrismaClient,
  key: string,
  tables: (tx: Tx) => L,
  work: (tables: L) => Promise<T>,
  taken?: () => Error,
): Promise<T> {
  try {
    return await underLock(prisma, key, (tx) => work(tables(tx)));
  } catch (error) {
    if (taken && isUniqueViolation(error)) throw taken();
    throw error;
  }
}
