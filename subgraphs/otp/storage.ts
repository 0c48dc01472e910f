import type { OtpEntry, PrismaClient } from '../../generated/prisma/client.js';

export type OtpEntryRow = OtpEntry;

/** The OTP entries as the rules see them: the seam a test fills with rows in memory. */
export interface OtpStore {
  entry(id: string): Promise<OtpEntryRow | null>;
  /** A new OTP for the entry (created when absent); `thaw`: its failures and freeze are cleared too. */
  saveOtp(id: string, otpHash: string, expiresAt: Date, thaw: boolean): Promise<void>;
  /** Deletes the entry only while it still holds this very hash: true for the one caller that did. */
  consume(id: string, otpHash: string): Promise<boolean>;
  /** One more wrong entry (the count starting at 1 again after a thaw): the failures now counted. */
  countFailure(id: string, thawed: boolean): Promise<number>;
  /** Freezes the entry until `until`, its OTP dropped. */
  freeze(id: string, until: Date): Promise<void>;
}

/** The OTP manager's table (otp_entry): the only code that touches it. */
export class OtpStorage implements OtpStore {
  constructor(private readonly prisma: PrismaClient) {}

  entry(id: string): Promise<OtpEntryRow | null> {
    return this.prisma.otpEntry.findUnique({ where: { id } });
  }

  async saveOtp(id: string, otpHash: string, expiresAt: Date, thaw: boolean): Promise<void> {
    const thawed = thaw ? { failedAttempts: 0, frozenUntil: null } : {};
    await this.prisma.otpEntry.upsert({ where: { id }, create: { id, otpHash, expiresAt }, update: { otpHash, expiresAt, ...thawed } });
  }

  async consume(id: string, otpHash: string): Promise<boolean> {
    const { count } = await this.prisma.otpEntry.deleteMany({ where: { id, otpHash } });
    return count === 1;
  }

  async countFailure(id: string, thawed: boolean): Promise<number> {
    const updated = await this.prisma.otpEntry.update({
      where: { id },
      data: thawed ? { failedAttempts: 1, frozenUntil: null } : { failedAttempts: { increment: 1 } },
    });
    return updated.failedAttempts;
  }

  async freeze(id: string, until: Date): Promise<void> {
    await this.prisma.otpEntry.update({ where: { id }, data: { frozenUntil: until, otpHash: null, expiresAt: null } });
  }
}
