import type { PrismaClient } from '../../../generated/prisma/client.js';

/** One stored lock: `authType` is the lock key (`otp`, `bio-Finger`, …). */
export interface LockRow {
  identityId: string;
  authType: string;
  locked: boolean;
  updatedAt: Date;
}

/** The locks' table as the rules see it: the seam a test fills with rows in memory. */
export interface LockStore {
  /** each key locked or unlocked for the identity, all or none */
  save(identityId: string, changes: ReadonlyMap<string, boolean>, updatedBy: string, now: Date): Promise<void>;
  /** the stored locks of these identities, by identity then key */
  ofIdentities(identityIds: readonly string[]): Promise<LockRow[]>;
}

/** The authentication-type locks' table (idrepo_auth_type_lock): the only code that touches it. */
export class LockStorage implements LockStore {
  constructor(private readonly prisma: PrismaClient) {}

  async save(identityId: string, changes: ReadonlyMap<string, boolean>, updatedBy: string, now: Date): Promise<void> {
    await this.prisma.$transaction(
      [...changes].map(([authType, locked]) =>
        this.prisma.authTypeLock.upsert({
          where: { identityId_authType: { identityId, authType } },
          create: { identityId, authType, locked, updatedBy, updatedAt: now },
          update: { locked, updatedBy, updatedAt: now },
        }),
      ),
    );
  }

  ofIdentities(identityIds: readonly string[]): Promise<LockRow[]> {
    return this.prisma.authTypeLock.findMany({
      where: { identityId: { in: [...identityIds] } },
      orderBy: [{ identityId: 'asc' }, { authType: 'asc' }],
      select: { identityId: true, authType: true, locked: true, updatedAt: true },
    });
  }
}
