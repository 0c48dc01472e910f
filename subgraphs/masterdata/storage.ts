import type { PrismaClient } from '../../generated/prisma/client.js';
import { isUniqueViolation } from '../../lib/db/unique.js';
import { LIVE } from './audit.js';
import { masterdataErrors } from './errors.js';

/*
 * What the storage of master data's areas shares: the languages table (every
 * area's rows are written in one of its languages) and how a write that
 * breaks a unique key reads to the rules.
 */

/** The languages rows may be written in (md_language), as the rules see them: the seam a test fills in memory. */
export interface LanguageStore {
  /** whether the code is a live, active language */
  isSupported(code: string): Promise<boolean>;
}

/** The languages' table (md_language), read by every area's rules through LanguageStore. */
export class LanguageStorage implements LanguageStore {
  constructor(private readonly prisma: PrismaClient) {}

  async isSupported(code: string): Promise<boolean> {
    return (await this.prisma.language.findFirst({ where: { code, isActive: true, ...LIVE }, select: { code: true } })) !== null;
  }
}

/** A language rows may be written in: a live, active row of Language (KER-MSD-999 otherwise); for code that holds a Prisma client. */
export async function requireLanguage(prisma: PrismaClient, code: string): Promise<void> {
  if (!(await new LanguageStorage(prisma).isSupported(code))) throw masterdataErrors.languageNotSupported(code);
}

/**
 * Inserts a row, or brings back its soft-deleted namesake (an update that
 * matches only a deleted row). A live namesake, found before or inserted by
 * a racing writer (P2002, or a revival that matched nothing), is `duplicate`.
 */
export async function insertOrRevive<T>(write: {
  existing: { isDeleted: boolean } | null | undefined;
  duplicate: () => Error;
  create: () => Promise<T>;
  revive: () => Promise<{ count: number }>;
  read: () => Promise<T>;
}): Promise<T> {
  if (write.existing && !write.existing.isDeleted) throw write.duplicate();
  try {
    if (!write.existing) return await write.create();
    if (!(await write.revive()).count) throw write.duplicate();
    return await write.read();
  } catch (error) {
    if (isUniqueViolation(error)) throw write.duplicate();
    throw error;
  }
}
