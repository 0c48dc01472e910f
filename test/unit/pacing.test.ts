import { describe, expect, it } from 'vitest';
import { BackgroundPacer } from '../../lib/pacing.js';

/** Keeps the event loop busy in short slices (as a stream of requests would) until `stop` says so. */
function busyLoop(): { stop(): void; running(): boolean } {
  let running = true;
  const slice = () => {
    if (!running) return;
    const until = performance.now() + 8;
    while (performance.now() < until);
    setTimeout(slice, 1);
  };
  slice();
  return { stop: () => void (running = false), running: () => running };
}

describe('background pacing', () => {
  it('rests in proportion to its share when the process is otherwise idle', async () => {
    const pacer = new BackgroundPacer({ sharePercent: 50 });
    const started = performance.now();
    await pacer.after(20, false);
    // 20 ms of work at half a core: a rest of 20 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });

  it('goes on resting while the process is busy, and resumes once it is not', async () => {
    const pacer = new BackgroundPacer({ sharePercent: 50, checkMs: 50 });
    const load = busyLoop();
    let resumedWhileBusy: boolean | undefined;
    const rest = pacer.after(10, false).then(() => void (resumedWhileBusy = load.running()));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(resumedWhileBusy).toBeUndefined();
    load.stop();
    await rest;
    expect(resumedWhileBusy).toBe(false);
  });

  it('yields to a busy process for a bounded time only when the work is urgent', async () => {
    const pacer = new BackgroundPacer({ sharePercent: 50, checkMs: 50, maxYieldMs: 300 });
    const load = busyLoop();
    try {
      await pacer.after(10, true);
      expect(load.running()).toBe(true);
    } finally {
      load.stop();
    }
  });

  it('never rests at a share of 100 %, and a stop ends a rest at once', async () => {
    const load = busyLoop();
    try {
      await new BackgroundPacer({ sharePercent: 100 }).after(1_000_000, false);
      const pacer = new BackgroundPacer({ sharePercent: 1 });
      const rest = pacer.after(60_000, false);
      pacer.interrupt();
      await rest;
      await pacer.after(60_000, false);
      expect(load.running()).toBe(true);
    } finally {
      load.stop();
    }
  });
});
