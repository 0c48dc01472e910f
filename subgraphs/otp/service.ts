import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { OtpSettings } from '../../lib/config.js';
import type { MasterKey } from '../../lib/master-key.js';
import type { Clock } from '../../lib/time.js';
import { otpErrors } from './errors.js';

/**
 * Keys live in namespaces: `api` for /otp/generate callers, `login` for the
 * OTPs the platform sends for logins, so an OTP obtained from the API for a
 * user id never logs anyone in.
 */
export type OtpNamespace = 'api' | 'login';

export type OtpCheck = 'VALID' | 'INVALID' | 'EXPIRED' | 'BLOCKED' | 'NOT_GENERATED';

export interface OtpGeneration {
  otp: string | null;
  status: 'GENERATION_SUCCESSFUL' | 'USER_BLOCKED';
}

export interface OtpValidation {
  status: 'success' | 'failure';
  message: 'VALIDATION_SUCCESSFUL' | 'VALIDATION_UNSUCCESSFUL' | 'OTP_EXPIRED' | 'USER_BLOCKED';
}

const HMAC_PURPOSE = 'otp/hmac';

/** One-time passwords: numeric, expiring, stored only as keyed hashes, consumed atomically, frozen after too many wrong tries. */
export class OtpService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly prisma: PrismaClient,
    masterKey: MasterKey,
    private readonly clock: Clock,
    readonly settings: OtpSettings,
  ) {
    this.hmacKey = masterKey.derive(HMAC_PURPOSE);
  }

  private entryId(namespace: OtpNamespace, key: string): string {
    return createHmac('sha256', this.hmacKey).update(`${namespace}\0${key}`).digest('base64url');
  }

  /** Binds the OTP to its entry, so equal OTPs of two keys hash differently. */
  private otpHash(entryId: string, otp: string): Buffer {
    return createHmac('sha256', this.hmacKey).update(`${entryId}\0${otp}`).digest();
  }

  private newOtp(): string {
    return randomInt(0, 10 ** this.settings.length).toString().padStart(this.settings.length, '0');
  }

  async generate(namespace: OtpNamespace, key: string): Promise<OtpGeneration> {
    const id = this.entryId(namespace, key);
    const now = this.clock.now();
    const entry = await this.prisma.otpEntry.findUnique({ where: { id } });
    if (entry?.frozenUntil && entry.frozenUntil > now) return { otp: null, status: 'USER_BLOCKED' };
    const otp = this.newOtp();
    const otpHash = this.otpHash(id, otp).toString('base64');
    const expiresAt = new Date(now.getTime() + this.settings.expirySeconds * 1000);
    // A thawed key starts counting again.
    const thawed = entry?.frozenUntil ? { failedAttempts: 0, frozenUntil: null } : {};
    await this.prisma.otpEntry.upsert({ where: { id }, create: { id, otpHash, expiresAt }, update: { otpHash, expiresAt, ...thawed } });
    return { otp, status: 'GENERATION_SUCCESSFUL' };
  }

  async check(namespace: OtpNamespace, key: string, otp: string): Promise<OtpCheck> {
    const id = this.entryId(namespace, key);
    const now = this.clock.now();
    const entry = await this.prisma.otpEntry.findUnique({ where: { id } });
    if (!entry) return 'NOT_GENERATED';
    if (entry.frozenUntil && entry.frozenUntil > now) return 'BLOCKED';
    if (!entry.otpHash) return 'NOT_GENERATED';
    const stored = Buffer.from(entry.otpHash, 'base64');
    const given = this.otpHash(id, otp);
    if (stored.length === given.length && timingSafeEqual(stored, given)) {
      if (!entry.expiresAt || entry.expiresAt <= now) return 'EXPIRED';
      // Consumed by whoever deletes the row holding this very hash: of two parallel validations one wins.
      const { count } = await this.prisma.otpEntry.deleteMany({ where: { id, otpHash: entry.otpHash } });
      return count === 1 ? 'VALID' : 'INVALID';
    }
    return this.recordFailure(id, now, entry.frozenUntil !== null);
  }

  private async recordFailure(id: string, now: Date, thawed: boolean): Promise<OtpCheck> {
    const updated = await this.prisma.otpEntry.update({
      where: { id },
      data: thawed ? { failedAttempts: 1, frozenUntil: null } : { failedAttempts: { increment: 1 } },
    });
    if (updated.failedAttempts <= this.settings.attemptThreshold) return 'INVALID';
    await this.prisma.otpEntry.update({
      where: { id },
      data: { frozenUntil: new Date(now.getTime() + this.settings.freezeSeconds * 1000), otpHash: null, expiresAt: null },
    });
    return 'BLOCKED';
  }

  /** POST /otp/generate: the key is checked as MOSIP does. */
  generateForKey(key: string): Promise<OtpGeneration> {
    const { keyMinLength: min, keyMaxLength: max } = this.settings;
    if (key.length < min || key.length > max) throw otpErrors.badGenerateKey(min, max);
    return this.generate('api', key);
  }

  /** /otp/validate: MOSIP's answers, and its KER-OTV codes for bad input. */
  async validateForKey(key: string, otp: string): Promise<OtpValidation> {
    const { keyMinLength: min, keyMaxLength: max } = this.settings;
    if (!key) throw otpErrors.emptyKey();
    if (key.length < min || key.length > max) throw otpErrors.badKeyLength(min, max);
    if (!otp) throw otpErrors.emptyOtp();
    if (!/^\d+$/.test(otp)) throw otpErrors.nonNumericOtp();
    switch (await this.check('api', key, otp)) {
      case 'VALID': return { status: 'success', message: 'VALIDATION_SUCCESSFUL' };
      case 'EXPIRED': return { status: 'failure', message: 'OTP_EXPIRED' };
      case 'BLOCKED': return { status: 'failure', message: 'USER_BLOCKED' };
      case 'NOT_GENERATED': throw otpErrors.notGenerated();
      default: return { status: 'failure', message: 'VALIDATION_UNSUCCESSFUL' };
    }
  }
}
