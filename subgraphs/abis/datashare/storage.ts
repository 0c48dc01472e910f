import type { DataShare, PrismaClient } from '../../../generated/prisma/client.js';

export type DataShareRow = DataShare;

/** The data shares' table (abis_datashare): the only code that touches it. */
export class DataShareStorage {
  constructor(private readonly prisma: PrismaClient) {}

  async create(row: DataShareRow): Promise<void> {
    await this.prisma.dataShare.create({ data: row });
  }

  find(shareKey: string): Promise<DataShareRow | null> {
    return this.prisma.dataShare.findUnique({ where: { shareKey } });
  }

  /** A registration's shares for this policy and subscriber still valid at `now` with a fetch left, newest first (a few: shares are made per ABIS attempt). */
  live(rid: string, policyId: string, subscriberId: string, now: Date): Promise<DataShareRow[]> {
    return this.prisma.dataShare.findMany({
      where: { rid, policyId, subscriberId, expiresAt: { gt: now }, transactionsLeft: { not: 0 } },
      orderBy: { createdAt: 'desc' },
      take: 5,
    });
  }

  /** Takes one fetch of a share still valid at `now`: false when it expired or its fetches are spent (racing fetches take one each). */
  async consume(shareKey: string, now: Date): Promise<boolean> {
    const limited = await this.prisma.dataShare.updateMany({
      where: { shareKey, expiresAt: { gt: now }, transactionsLeft: { gt: 0 } },
      data: { transactionsLeft: { decrement: 1 } },
    });
    if (limited.count) return true;
    return (await this.prisma.dataShare.count({ where: { shareKey, expiresAt: { gt: now }, transactionsLeft: -1 } })) === 1;
  }

  /** Shares expired before `before`: their addresses answer as not found. */
  async purge(before: Date): Promise<number> {
    return (await this.prisma.dataShare.deleteMany({ where: { expiresAt: { lt: before } } })).count;
  }
}
