import { randomUUID } from 'node:crypto';
import type { IdrepoKey, PrismaClient } from '../../generated/prisma/client.js';
import { underLock } from '../../lib/db/lock.js';

export type KeyPurpose = 'DATA' | 'LOOKUP' | 'HASH';
export type SealedKey = Pick<IdrepoKey, 'id' | 'purpose' | 'sealedKey'>;

/** The cipher's keys (idrepo_key), sealed: the only code that touches that table. */
export class IdrepoKeyStorage {
  constructor(private readonly prisma: PrismaClient) {}

  active(): Promise<SealedKey[]> {
    return this.prisma.idrepoKey.findMany({ where: { active: true } });
  }

  byId(id: string): Promise<SealedKey | null> {
    return this.prisma.idrepoKey.findUnique({ where: { id } });
  }

  /** Stores each candidate whose purpose has no active key yet, under a lock: instances starting together agree on one key per purpose. */
  async addMissing(candidates: readonly { purpose: KeyPurpose; sealedKey: string }[], now: Date): Promise<void> {
    await underLock(this.prisma, 'idrepo_key', async (tx) => {
      for (const { purpose, sealedKey } of candidates) {
        if (await tx.idrepoKey.findFirst({ where: { purpose, active: true }, select: { id: true } })) continue;
        await tx.idrepoKey.create({ data: { id: randomUUID(), purpose, sealedKey, active: true, createdAt: now } });
      }
    });
  }
}
