// How long and how large a benchmark run is: the full run, or its short form (BENCH_SHORT=true,
// `npm run bench:short`), which CI runs so that a change breaking a case fails there. The short
// form exercises every case, the startup and both packet modes included, for a second or so each
// on small tables; its figures mean nothing and are not compared.
export const SHORT = process.env.BENCH_SHORT === 'true';

const fromEnv = (name: string, fallback: number): number => (process.env[name] ? Number(process.env[name]) : fallback);

export const sizes = {
  /** seconds of each measured window (BENCH_SECONDS) */
  seconds: fromEnv('BENCH_SECONDS', SHORT ? 1 : 10),
  /** the warm-up before a request case */
  warmupSeconds: SHORT ? 1 : 2,
  /** the warm-up before a search or read over a grown table: the JIT and Prisma's caches first */
  tableWarmupSeconds: SHORT ? 1 : 6,
  /** holiday rows searched at first, then after the table grows */
  holidayRows: SHORT ? [100, 1_000] : [1_000, 100_000],
  /** identities read by UIN at first, then after the table grows (BENCH_IDENTITIES, comma-separated: 1000,1000000 for the million) */
  identities: process.env.BENCH_IDENTITIES ? process.env.BENCH_IDENTITIES.split(',').map(Number) : SHORT ? [100, 1_000] : [1_000, 100_000],
  /** a centre's bookings when its availability is read at first, then after it grows */
  bookings: SHORT ? [10, 200] : [100, 10_000],
  /** packets the simulator sends end to end (BENCH_PACKETS) */
  packets: fromEnv('BENCH_PACKETS', SHORT ? 10 : 500),
  /** the startup case's first stretch, measured window after window */
  startupSeconds: SHORT ? 5 : 60,
  /** how long the startup case waits for the UIN pool to fill before its at-rest window (BENCH_STARTUP_WAIT_SECONDS) */
  startupWaitSeconds: fromEnv('BENCH_STARTUP_WAIT_SECONDS', SHORT ? 0 : 600),
  /** the idle stretch over which the startup case measures the fill's own CPU share */
  startupIdleSeconds: SHORT ? 1 : 10,
};
