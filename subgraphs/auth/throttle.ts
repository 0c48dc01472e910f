import { createHmac } from 'node:crypto';
import type { Clock } from '../../lib/time.js';
import type { ThrottleStore } from './storage/throttle.js';

const ACCOUNT_WINDOW_MS = 15 * 60_000;
const ADDRESS_WINDOW_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface ThrottleLimits {
  /** failed attempts per account per 15 minutes; 0 turns it off */
  account: number;
  /** attempts per client address per minute; 0 turns it off */
  address: number;
}

/**
 * Login throttling counted in the database, so it holds across restarts and
 * instances. An attempt is reserved before the credentials are checked, with
 * one atomic increment-and-read per bucket: of any number of parallel
 * attempts, at most the limit get through. Unknown accounts are counted like
 * known ones. Counters are named by an HMAC of the account or address: a
 * pre-registration applicant's e-mail or phone, or a caller's IP address,
 * never lies in clear beside the times of its attempts.
 */
export class LoginThrottle {
  private lastSweep = 0;

  constructor(
    private readonly store: ThrottleStore,
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits,
    /** the HMAC key counters are named under */
    private readonly bucketKey: Buffer,
  ) {}

  /** A counter's name: its kind, and the HMAC of what it counts. */
  private bucket(kind: 'account' | 'address', value: string): string {
    return `${kind}:${createHmac('sha256', this.bucketKey).update(value, 'utf8').digest('base64url')}`;
  }

  /**
   * Counts one attempt of the address and one against the account, and
   * answers whether both are still within their limits. The account's count
   * stands as a failure until `succeeded` clears it.
   */
  async reserve(account: string, address: string): Promise<boolean> {
    const now = this.clock.now();
    const [accountCount, addressCount] = await Promise.all([
      this.limits.account ? this.increment(this.bucket('account', account), now, ACCOUNT_WINDOW_MS) : 0,
      this.limits.address ? this.increment(this.bucket('address', address), now, ADDRESS_WINDOW_MS) : 0,
    ]);
    await this.sweep(now);
    return accountCount <= this.limits.account && addressCount <= this.limits.address;
  }

  /** One attempt: reserved against the limits first, then checked; refused with the caller's errors, cleared on success. */
  async attempt(account: string, address: string, refuse: { throttled: () => Error; denied: () => Error }, check: () => Promise<boolean>): Promise<void> {
    if (!(await this.reserve(account, address))) throw refuse.throttled();
    if (!(await check())) throw refuse.denied();
    await this.succeeded(account);
  }

  /** A successful login wipes the account's failures. */
  async succeeded(account: string): Promise<void> {
    if (this.limits.account) await this.store.clear(this.bucket('account', account));
  }

  /** The bucket's count after this attempt, in a window that starts afresh once it has run out. */
  private increment(bucket: string, now: Date, windowMs: number): Promise<number> {
    return this.store.increment(bucket, now, new Date(now.getTime() - windowMs));
  }

  /** Drops counters whose window has run out, at most once a minute per instance. */
  private async sweep(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    await this.store.sweep(new Date(now.getTime() - ACCOUNT_WINDOW_MS));
  }
}
