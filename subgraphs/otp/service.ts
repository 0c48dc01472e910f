import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { OtpSettings } from './settings.js';
import type { MasterKey } from '../../lib/master-key.js';
import type { Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import { otpErrors } from './errors.js';
import type { OtpStore } from './storage.js';

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

/**
 * Who generates and validates an OTP through the API: a token's principal,
 * or nobody in particular when PLATFORM_SPEC_OPEN_ENDPOINTS lets a call
 * without a token through (all such callers share one scope).
 */
export type OtpCaller = Pick<Principal, 'subject' | 'subjectType' | 'appId'> | null;

/** A client's OTPs are its own; a user's belong to the application it logged in to. */
function scopeOf(caller: OtpCaller): string {
  if (!caller) return 'anonymous';
  return caller.subjectType === 'client' ? `client:${caller.subject}` : `app:${caller.appId}`;
}

/** One-time passwords: numeric, expiring, stored only as keyed hashes, consumed atomically, frozen after too many wrong tries. */
export class OtpService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly store: OtpStore,
    masterKey: MasterKey,
    private readonly clock: Clock,
    readonly settings: OtpSettings,
  ) {
    this.hmacKey = masterKey.derive(HMAC_PURPOSE);
  }

  /** The row of a key: namespace, the caller's scope and the key, hashed together so one caller never meets another's entry. */
  private entryId(namespace: OtpNamespace, key: string, scope: string): string {
    return createHmac('sha256', this.hmacKey).update(`${namespace}\0${scope}\0${key}`).digest('base64url');
  }

  /** Binds the OTP to its entry, so equal OTPs of two keys hash differently. */
  private otpHash(entryId: string, otp: string): Buffer {
    return createHmac('sha256', this.hmacKey).update(`${entryId}\0${otp}`).digest();
  }

  private newOtp(): string {
    return randomInt(0, 10 ** this.settings.length)
      .toString()
      .padStart(this.settings.length, '0');
  }

  async generate(namespace: OtpNamespace, key: string, scope = ''): Promise<OtpGeneration> {
    const id = this.entryId(namespace, key, scope);
    const now = this.clock.now();
    const entry = await this.store.entry(id);
    if (entry?.frozenUntil && entry.frozenUntil > now) return { otp: null, status: 'USER_BLOCKED' };
    const otp = this.newOtp();
    const otpHash = this.otpHash(id, otp).toString('base64');
    const expiresAt = new Date(now.getTime() + this.settings.expirySeconds * 1000);
    // A thawed key starts counting again.
    await this.store.saveOtp(id, otpHash, expiresAt, Boolean(entry?.frozenUntil));
    return { otp, status: 'GENERATION_SUCCESSFUL' };
  }

  async check(namespace: OtpNamespace, key: string, otp: string, scope = ''): Promise<OtpCheck> {
    const id = this.entryId(namespace, key, scope);
    const now = this.clock.now();
    const entry = await this.store.entry(id);
    if (!entry) return 'NOT_GENERATED';
    if (entry.frozenUntil && entry.frozenUntil > now) return 'BLOCKED';
    if (!entry.otpHash) return 'NOT_GENERATED';
    const stored = Buffer.from(entry.otpHash, 'base64');
    const given = this.otpHash(id, otp);
    if (stored.length === given.length && timingSafeEqual(stored, given)) {
      if (!entry.expiresAt || entry.expiresAt <= now) return 'EXPIRED';
      // Consumed by whoever deletes the row holding this very hash: of two parallel validations one wins.
      return (await this.store.consume(id, entry.otpHash)) ? 'VALID' : 'INVALID';
    }
    return this.recordFailure(id, now, entry.frozenUntil !== null);
  }

  private async recordFailure(id: string, now: Date, thawed: boolean): Promise<OtpCheck> {
    const failures = await this.store.countFailure(id, thawed);
    if (failures <= this.settings.attemptThreshold) return 'INVALID';
    await this.store.freeze(id, new Date(now.getTime() + this.settings.freezeSeconds * 1000));
    return 'BLOCKED';
  }

  /** POST /otp/generate for a caller: the key is checked as MOSIP does; the OTP belongs to the caller's scope. */
  generateForKey(caller: OtpCaller, key: string): Promise<OtpGeneration> {
    const { keyMinLength: min, keyMaxLength: max } = this.settings;
    if (key.length < min || key.length > max) throw otpErrors.badGenerateKey(min, max);
    return this.generate('api', key, scopeOf(caller));
  }

  /** /otp/validate for a caller, against the OTPs of its own scope only: MOSIP's answers and KER-OTV codes. */
  async validateForKey(caller: OtpCaller, key: string, otp: string): Promise<OtpValidation> {
    const { keyMinLength: min, keyMaxLength: max } = this.settings;
    if (!key) throw otpErrors.emptyKey();
    if (key.length < min || key.length > max) throw otpErrors.badKeyLength(min, max);
    if (!otp) throw otpErrors.emptyOtp();
    if (!/^\d+$/.test(otp)) throw otpErrors.nonNumericOtp();
    switch (await this.check('api', key, otp, scopeOf(caller))) {
      case 'VALID':
        return { status: 'success', message: 'VALIDATION_SUCCESSFUL' };
      case 'EXPIRED':
        return { status: 'failure', message: 'OTP_EXPIRED' };
      case 'BLOCKED':
        return { status: 'failure', message: 'USER_BLOCKED' };
      case 'NOT_GENERATED':
        throw otpErrors.notGenerated();
      default:
        return { status: 'failure', message: 'VALIDATION_UNSUCCESSFUL' };
    }
  }
}
