import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import type { ThrottleStore } from '../../subgraphs/auth/storage/throttle.js';
import { LoginThrottle, type ThrottleLimits } from '../../subgraphs/auth/throttle.js';

/*
 * The login throttle's decisions (auth/throttle.ts) over an in-memory
 * auth_throttle: per-account failures in 15 minutes, per-address attempts in a
 * minute, success forgiving, counters named by HMAC. No database.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const MINUTE = 60_000;

/** auth_throttle in memory, with the SQL upsert's window rule; every statement recorded. */
class MemoryCounters implements ThrottleStore {
  readonly rows = new Map<string, { windowStart: Date; count: number }>();
  readonly sweeps: Date[] = [];

  increment(bucket: string, now: Date, expired: Date): Promise<number> {
    const row = this.rows.get(bucket);
    if (!row || row.windowStart <= expired) this.rows.set(bucket, { windowStart: now, count: 1 });
    else row.count += 1;
    return Promise.resolve(this.rows.get(bucket)!.count);
  }

  clear(bucket: string): Promise<void> {
    this.rows.delete(bucket);
    return Promise.resolve();
  }

  sweep(before: Date): Promise<void> {
    this.sweeps.push(before);
    for (const [bucket, row] of this.rows) if (row.windowStart < before) this.rows.delete(bucket);
    return Promise.resolve();
  }
}

let clock: ManualClock;
let counters: MemoryCounters;
const throttle = (limits: ThrottleLimits) => new LoginThrottle(counters, clock, limits, Buffer.alloc(32, 1));

/** Tries `times` attempts of the account from the address; the answers in order. */
async function reserve(limiter: LoginThrottle, times: number, account = 'user:officer1', address = '10.0.0.1'): Promise<boolean[]> {
  const answers: boolean[] = [];
  for (let i = 0; i < times; i++) answers.push(await limiter.reserve(account, address));
  return answers;
}

beforeEach(() => {
  clock = new ManualClock(NOW);
  counters = new MemoryCounters();
});

describe('the account limit', () => {
  it('lets the limit of failures through in 15 minutes, and refuses the next', async () => {
    expect(await reserve(throttle({ account: 3, address: 0 }), 4)).toEqual([true, true, true, false]);
  });

  it('counts accounts apart: another account is not throttled by the first', async () => {
    const limiter = throttle({ account: 2, address: 0 });
    await reserve(limiter, 3);
    expect(await reserve(limiter, 1, 'user:officer2')).toEqual([true]);
  });

  it('starts afresh once the 15-minute window has run out, not before', async () => {
    const limiter = throttle({ account: 2, address: 0 });
    await reserve(limiter, 3);
    clock.advance(15 * MINUTE - 1);
    expect(await reserve(limiter, 1)).toEqual([false]);
    clock.set(new Date(NOW.getTime() + 15 * MINUTE));
    expect(await reserve(limiter, 3)).toEqual([true, true, false]);
  });

  it('forgives the failures on success', async () => {
    const limiter = throttle({ account: 2, address: 0 });
    await reserve(limiter, 2);
    await limiter.succeeded('user:officer1');
    expect(await reserve(limiter, 3)).toEqual([true, true, false]);
  });

  it('is off at 0: no counter is kept', async () => {
    expect(await reserve(throttle({ account: 0, address: 0 }), 50)).toEqual(Array<boolean>(50).fill(true));
    expect(counters.rows.size).toBe(0);
  });
});

describe('the address limit', () => {
  it('counts every attempt of an address in a minute, whichever account, success or not', async () => {
    const limiter = throttle({ account: 0, address: 3 });
    expect(await limiter.reserve('user:a', '10.0.0.1')).toBe(true);
    await limiter.succeeded('user:a');
    expect(await limiter.reserve('user:b', '10.0.0.1')).toBe(true);
    expect(await limiter.reserve('user:c', '10.0.0.1')).toBe(true);
    expect(await limiter.reserve('user:d', '10.0.0.1')).toBe(false);
    expect(await limiter.reserve('user:d', '10.0.0.2')).toBe(true);
    clock.advance(MINUTE);
    expect(await limiter.reserve('user:d', '10.0.0.1')).toBe(true);
  });

  it('refuses when either limit is passed', async () => {
    const limiter = throttle({ account: 5, address: 2 });
    expect(await reserve(limiter, 3)).toEqual([true, true, false]);
  });
});

describe('an attempt', () => {
  const refuse = { throttled: () => new Error('throttled'), denied: () => new Error('denied') };

  it('checks only within the limits, refuses a wrong check, and clears the account on success', async () => {
    const limiter = throttle({ account: 2, address: 0 });
    let checks = 0;
    const check = (ok: boolean) => () => (checks++, Promise.resolve(ok));
    await expect(limiter.attempt('user:officer1', 'a', refuse, check(false))).rejects.toThrow('denied');
    await expect(limiter.attempt('user:officer1', 'a', refuse, check(true))).resolves.toBeUndefined();
    await expect(limiter.attempt('user:officer1', 'a', refuse, check(false))).rejects.toThrow('denied');
    await expect(limiter.attempt('user:officer1', 'a', refuse, check(false))).rejects.toThrow('denied');
    await expect(limiter.attempt('user:officer1', 'a', refuse, check(true))).rejects.toThrow('throttled');
    expect(checks).toBe(4);
  });
});

describe('the counters', () => {
  it('name no account or address in clear', async () => {
    await throttle({ account: 3, address: 3 }).reserve('user:someone@example.org', '203.0.113.9');
    const names = [...counters.rows.keys()];
    expect(names).toHaveLength(2);
    expect(names.some((name) => name.startsWith('account:'))).toBe(true);
    expect(names.some((name) => name.startsWith('address:'))).toBe(true);
    for (const name of names) {
      expect(name).not.toContain('someone');
      expect(name).not.toContain('203.0.113');
    }
  });

  it('are swept of windows older than 15 minutes, at most once a minute per instance', async () => {
    const limiter = throttle({ account: 3, address: 3 });
    await reserve(limiter, 2);
    clock.advance(30_000);
    await reserve(limiter, 1);
    expect(counters.sweeps).toEqual([new Date(NOW.getTime() - 15 * MINUTE)]);
    clock.advance(30_000);
    await reserve(limiter, 1, 'user:other', '10.9.9.9');
    expect(counters.sweeps).toEqual([new Date(NOW.getTime() - 15 * MINUTE), new Date(NOW.getTime() + MINUTE - 15 * MINUTE)]);
  });
});
