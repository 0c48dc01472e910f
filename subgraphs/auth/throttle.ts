import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../../lib/time.js';

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
 * instances. Unknown accounts are counted like known ones.
 */
export class LoginThrottle {
  private lastSweep = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits,
  ) {}

  /** True when this account and address may try again now. */
  async allows(account: string, address: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const [failures, attempts] = await Promise.all([
      this.limits.account ? this.count(`account:${account}`, now - ACCOUNT_WINDOW_MS, true) : 0,
      this.limits.address ? this.count(`address:${address}`, now - ADDRESS_WINDOW_MS) : 0,
    ]);
    return (!this.limits.account || failures < this.limits.account) && (!this.limits.address || attempts < this.limits.address);
  }

  private count(bucket: string, sinceMs: number, failedOnly = false): Promise<number> {
    return this.prisma.loginAttempt.count({
      where: { bucket, createdAt: { gte: new Date(sinceMs) }, ...(failedOnly ? { failed: true } : {}) },
    });
  }

  /**
   * Records an attempt from an address; `failed` ones count against the
   * account (for OTP sending every send does), and a success clears them.
   */
  async record(account: string, address: string, failed: boolean): Promise<void> {
    const createdAt = this.clock.now();
    const rows = [];
    if (this.limits.address) rows.push({ bucket: `address:${address}`, failed, createdAt });
    if (this.limits.account && failed) rows.push({ bucket: `account:${account}`, failed, createdAt });
    if (rows.length) await this.prisma.loginAttempt.createMany({ data: rows });
    if (!failed && this.limits.account) await this.prisma.loginAttempt.deleteMany({ where: { bucket: `account:${account}` } });
    await this.sweep(createdAt.getTime());
  }

  /** Drops rows older than the longest window, at most once a minute per instance. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.prisma.loginAttempt.deleteMany({ where: { createdAt: { lt: new Date(now - ACCOUNT_WINDOW_MS) } } });
  }
}
