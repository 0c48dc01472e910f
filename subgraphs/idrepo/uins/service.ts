import type { Jobs } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import { generateNumber, type NumberRules } from '../../../lib/numbers.js';
import { BackgroundPacer } from '../../../lib/pacing.js';
import type { IdrepoSettings } from '../settings.js';
import type { PoolRow, UinPoolStorage } from './storage.js';

const BATCH = 1_000;
/** Numbers made between two turns of the event loop: well under a millisecond of work. */
const YIELD_EVERY = 20;
const contextOf = (uinHash: string) => `uin-pool/${uinHash}`;
const REFILL_JOB = 'idrepo.uin-pool.refill';

export interface PoolSize {
  /** how many unused UINs the pool is filled up to (platform.kernel.uin.uins-to-generate) */
  size: number;
  /** below this many, it is filled again in the background (platform.kernel.uin.min-unused-threshold) */
  threshold: number;
  /**
   * the share of one core (%) the fill may take: after each batch it rests
   * in proportion, and longer while requests keep the process busy, so a
   * fresh start is quiet within seconds and requests beside it are not
   * slowed (a draw from an empty pool still answers, with a number made on
   * the spot)
   */
  fillPercent: number;
}

/** The pool's size and threshold: the settings, else the global configuration's platform.kernel.uin keys. */
export function poolSize(settings: IdrepoSettings, global: Readonly<Record<string, string>>): PoolSize {
  const size = settings.uinPoolSize ?? Number(global['platform.kernel.uin.uins-to-generate']);
  const threshold = settings.uinPoolThreshold ?? Number(global['platform.kernel.uin.min-unused-threshold']);
  if (!(size > 0) || !(threshold >= 0) || threshold > size) throw new Error(`UIN pool: size ${size} and threshold ${threshold} do not make a pool`);
  return { size, threshold, fillPercent: settings.uinPoolFillPercent };
}

/**
 * UINs generated ahead under the platform.kernel.uin rules, as MOSIP's
 * kernel UIN generator keeps them: the registration processor draws one per
 * new identity, and the pool fills up again in the background (a job on any
 * runner) when it runs below its threshold. A UIN is unique across the pool and the stored
 * identities (both keyed by its HMAC); in the pool it is encrypted like every
 * other UIN, so a dump does not reveal the numbers residents will get.
 */
export class UinPool {
  private filling: Promise<void> | undefined;
  private readonly pacer: BackgroundPacer;
  private stopped = false;
  /**
   * How many unused UINs this process believes the pool holds: counted at a
   * fill, less its own draws since. A draw compares it with the threshold
   * instead of counting the whole table; another instance's draws are its
   * own to notice, and a fill counts again under its lock.
   */
  private believed: number | undefined;

  constructor(
    private readonly store: UinPoolStorage,
    private readonly clock: Clock,
    private readonly cipher: IdrepoCipher,
    private readonly rules: NumberRules,
    private readonly pool: PoolSize,
    private readonly logger: Logger,
    private readonly jobs: Jobs,
  ) {
    this.pacer = new BackgroundPacer({ sharePercent: pool.fillPercent });
  }

  get limits(): PoolSize {
    return this.pool;
  }

  unused(): Promise<number> {
    return this.store.unused();
  }

  /**
   * One unused UIN, taken out of the pool for good (a draw whose identity is
   * never stored loses its number, as MOSIP's ISSUED numbers do). Racing
   * draws skip each other's rows, so no UIN is handed out twice.
   */
  async draw(): Promise<string> {
    const row = await this.store.take();
    if (row && this.believed !== undefined) this.believed--;
    if (this.believed !== undefined && this.believed < this.pool.threshold) await this.requestRefill();
    if (!row) return this.fresh();
    return (await this.cipher.decrypt(row.uinEncrypted, contextOf(row.uinHash))).toString('utf8');
  }

  /** An empty pool (a burst beyond it) still answers: a number generated now, held by no identity. */
  private async fresh(): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const uin = generateNumber(this.rules);
      if (!(await this.store.held(this.cipher.lookup(uin)))) return uin;
    }
    throw idrepoErrors.unknown();
  }

  /** Asks for a fill (the `idrepo.uin-pool.refill` job) when the pool is below its threshold: at start, and when a draw takes it there. */
  async refillIfLow(): Promise<void> {
    this.believed = await this.unused();
    if (this.believed < this.pool.threshold) await this.requestRefill();
  }

  /** One refill job queued or running at a time, whichever instance asks: the others' requests are dropped. */
  private requestRefill(): Promise<void> {
    return this.jobs.enqueue('idrepo.uin-pool.refill', {}, { singletonKey: REFILL_JOB });
  }

  /**
   * Fills up to the size (the refill job; one fill at a time per process), in
   * batches paced to `fillPercent` of a core and held back while the process
   * is busy serving (lib/pacing.ts; for a bounded time when the pool is below
   * its threshold). Numbers are made outside any transaction, a few at a time
   * between turns of the event loop (a request waiting in a socket is read at
   * once, even while the pool fills); each batch is then added under the
   * storage's lock, so instances filling together do not overshoot.
   */
  fill(stopping?: AbortSignal): Promise<void> {
    const wake = () => this.pacer.interrupt();
    stopping?.addEventListener('abort', wake);
    this.filling ??= (async () => {
      try {
        let added = 0;
        while (!this.stopped && !stopping?.aborted) {
          const started = performance.now();
          const batch = await this.store.topUp(this.pool.size, await this.makeBatch(stopping));
          this.believed = batch.counted;
          if (batch.counted >= this.pool.size) break;
          added += batch.added;
          // A stop that came during the batch ends the fill here, rather than after a rest nothing would wake.
          if (!this.stopped && !stopping?.aborted) await this.pacer.after(performance.now() - started, batch.counted < this.pool.threshold);
        }
        if (added)
          this.logger.info(
            { added, unused: this.believed },
            this.stopped || stopping?.aborted ? 'UIN pool fill paused by a stop: the next start goes on' : 'UIN pool filled',
          );
      } finally {
        stopping?.removeEventListener('abort', wake);
        this.filling = undefined;
      }
    })();
    return this.filling;
  }

  private async makeBatch(stopping?: AbortSignal): Promise<PoolRow[]> {
    const rows: PoolRow[] = [];
    const now = this.clock.now();
    for (let made = 0; made < BATCH && !this.stopped && !stopping?.aborted; made++) {
      const uin = generateNumber(this.rules);
      const uinHash = this.cipher.lookup(uin);
      rows.push({ uinHash, uinEncrypted: this.cipher.encrypt(Buffer.from(uin, 'utf8'), contextOf(uinHash)), createdAt: now });
      if (made % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return rows;
  }

  /** Stops filling after the current batch (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pacer.interrupt();
    await this.filling?.catch(() => undefined);
  }
}
