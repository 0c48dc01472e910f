import type { PrismaClient } from '../../../generated/prisma/client.js';

/** The login counters as the throttle sees them: the seam a test fills with counters in memory. */
export interface ThrottleStore {
  /**
   * Counts one attempt in the bucket, atomically: a bucket whose window
   * started at or before `expired` starts afresh at `now` with 1. Answers the
   * count after this attempt.
   */
  increment(bucket: string, now: Date, expired: Date): Promise<number>;
  /** Drops the bucket (its failures are forgiven). */
  clear(bucket: string): Promise<void>;
  /** Drops every bucket whose window started before `before`. */
  sweep(before: Date): Promise<void>;
}

/** The login counters (auth_throttle): the only code that touches the table. */
export class ThrottleStorage implements ThrottleStore {
  constructor(private readonly prisma: PrismaClient) {}

  async increment(bucket: string, now: Date, expired: Date): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ count: number }[]>`
      INSERT INTO auth_throttle (bucket, "windowStart", count) VALUES (${bucket}, ${now}, 1)
      ON CONFLICT (bucket) DO UPDATE SET
        count = CASE WHEN auth_throttle."windowStart" <= ${expired} THEN 1 ELSE auth_throttle.count + 1 END,
        "windowStart" = CASE WHEN auth_throttle."windowStart" <= ${expired} THEN ${now} ELSE auth_throttle."windowStart" END
      RETURNING count`;
    return Number(row?.count ?? 1);
  }

  async clear(bucket: string): Promise<void> {
    await this.prisma.throttleCounter.deleteMany({ where: { bucket } });
  }

  async sweep(before: Date): Promise<void> {
    await this.prisma.throttleCounter.deleteMany({ where: { windowStart: { lt: before } } });
  }
}
