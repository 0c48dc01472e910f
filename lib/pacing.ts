import { performance } from 'node:perf_hooks';

export interface PaceOptions {
  /** the share of one core (%) the background work may take when the process is otherwise idle; 100: no rest */
  sharePercent: number;
  /** the event loop's utilization during a rest above which the process counts as busy with other work */
  busyUtilization?: number;
  /** how long each further rest lasts while the process is busy */
  checkMs?: number;
  /** the longest an urgent batch yields to a busy process */
  maxYieldMs?: number;
}

/**
 * Paces background work done in batches (the UIN pool's fill) so that
 * requests beside it are served as if it were not there: after each batch it
 * rests in proportion to its share of a core, and goes on resting while the
 * process serves other work (the event loop's utilization during the rest,
 * which the batch's own work is not part of). Urgent work (a pool below its
 * threshold) yields for a bounded time only.
 */
export class BackgroundPacer {
  private wake: (() => void) | undefined;
  private interrupted = false;

  constructor(private readonly options: PaceOptions) {}

  async after(workedMs: number, urgent: boolean): Promise<void> {
    const { sharePercent, busyUtilization = 0.25, checkMs = 250, maxYieldMs = 10_000 } = this.options;
    if (sharePercent >= 100 || this.interrupted) return;
    let restMs = (workedMs * (100 - sharePercent)) / sharePercent;
    const yieldUntil = performance.now() + maxYieldMs;
    for (;;) {
      const before = performance.eventLoopUtilization();
      await this.sleep(restMs);
      if (this.interrupted) return;
      if (performance.eventLoopUtilization(before).utilization < busyUtilization) return;
      if (urgent && performance.now() >= yieldUntil) return;
      restMs = checkMs;
    }
  }

  /** Ends the current rest and every later one at once (a stop). */
  interrupt(): void {
    this.interrupted = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}
