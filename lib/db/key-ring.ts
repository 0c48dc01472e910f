import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { KeyPurpose, KeyRingStorage, SealedKey } from '../crypto/field-cipher.js';
import { underLock, type Tx } from './lock.js';

/** The calls a key ring makes on its table (idrepo_key, prereg_key: one shape). */
export interface KeyRingTable {
  findMany(args: { where: { active: true } }): Promise<SealedKey[]>;
  findUnique(args: { where: { id: string } }): Promise<SealedKey | null>;
  findFirst(args: { where: { purpose: string; active: true }; select: { id: true } }): Promise<{ id: string } | null>;
  create(args: { data: { id: string; purpose: string; sealedKey: string; active: boolean; createdAt: Date } }): Promise<unknown>;
}

/**
 * A component's key ring over its own table (`table` picks it from the client
 * or a transaction): the cipher's sealed keys, one active per purpose, added
 * under an advisory lock so that instances starting together agree.
 */
export function keyRing(prisma: PrismaClient, lockName: string, table: (client: PrismaClient | Tx) => KeyRingTable): KeyRingStorage {
  return {
    active: () => table(prisma).findMany({ where: { active: true } }),
    byId: (id) => table(prisma).findUnique({ where: { id } }),
    async addMissing(candidates: readonly { purpose: KeyPurpose; sealedKey: string }[], now: Date) {
      await underLock(prisma, lockName, async (tx) => {
        for (const { purpose, sealedKey } of candidates) {
          if (await table(tx).findFirst({ where: { purpose, active: true }, select: { id: true } })) continue;
          await table(tx).create({ data: { id: randomUUID(), purpose, sealedKey, active: true, createdAt: now } });
        }
      });
    },
  };
}
