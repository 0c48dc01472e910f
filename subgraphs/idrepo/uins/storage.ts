import type { PrismaClient } from '../../../generated/prisma/client.js';
import { underLock, type Tx } from '../../../lib/db/lock.js';
import { identityTables } from '../identities/storage.js';

export interface PoolRow {
  uinHash: string;
  uinEncrypted: string;
  createdAt: Date;
}

/** Takes a stored identity's UIN out of the pool, in the identity's transaction (handed to the identities' storage). */
export async function leavePool(tx: Tx, uinHash: string): Promise<void> {
  await tx.uinPool.deleteMany({ where: { uinHash } });
}

/** The UIN pool's table (idrepo_uin_pool): the only code that touches it. */
export class UinPoolStorage {
  constructor(private readonly prisma: PrismaClient) {}

  unused(): Promise<number> {
    return this.prisma.uinPool.count();
  }

  /** The oldest unused UIN, deleted as it is read; racing takes skip each other's rows, so none is handed out twice. */
  async take(): Promise<Omit<PoolRow, 'createdAt'> | undefined> {
    const [row] = await this.prisma.$queryRaw<Omit<PoolRow, 'createdAt'>[]>`
      DELETE FROM idrepo_uin_pool WHERE "uinHash" = (
        SELECT "uinHash" FROM idrepo_uin_pool ORDER BY "createdAt", "uinHash" LIMIT 1 FOR UPDATE SKIP LOCKED
      ) RETURNING "uinHash", "uinEncrypted"`;
    return row;
  }

  /** Whether an identity holds the UIN of this look-up. */
  async held(uinHash: string): Promise<boolean> {
    return (await identityTables.heldUinHashes(this.prisma, [uinHash])).size > 0;
  }

  /**
   * Adds rows up to `size` unused UINs, under a lock (instances filling
   * together do not overshoot): `counted`, the unused UINs before, and
   * `added`. A number an identity already holds never goes (back) into the
   * pool; one in the pool is skipped.
   */
  topUp(size: number, rows: readonly PoolRow[]): Promise<{ counted: number; added: number }> {
    return underLock(this.prisma, 'idrepo_uin_pool', async (tx) => {
      const counted = await tx.uinPool.count();
      const wanted = rows.slice(0, Math.max(0, size - counted));
      if (!wanted.length) return { counted, added: 0 };
      const held = await identityTables.heldUinHashes(
        tx,
        wanted.map((row) => row.uinHash),
      );
      const { count } = await tx.uinPool.createMany({ data: wanted.filter((row) => !held.has(row.uinHash)), skipDuplicates: true });
      return { counted, added: count };
    });
  }
}
