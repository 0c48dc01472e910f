import type { Logger } from '../lib/log.js';
import { stopTracing } from '../lib/tracing.js';

/** How long after `stopped` the process may take to exit by itself before it is made to. */
const EXIT_WAIT_MS = 1000;

/**
 * SIGTERM/SIGINT: drain and close, log `stopped`, then let the event loop
 * empty so the process exits by itself. Anything still holding it open
 * (a timer, a socket) is a bug: it is logged and the process exits anyway.
 */
export function stopOnSignals(logger: Logger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A signal to the process group reaches node twice (from the terminal or
    // supervisor, and forwarded by npm): the repeat must not end the drain.
    if (stopping) {
      logger.info({ signal }, 'already shutting down: signal ignored');
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    // The spans still buffered go out last, after everything that could add one has closed.
    close()
      .then(() => stopTracing())
      .then(
        () => {
          logger.info('stopped');
          process.exitCode = 0;
          setTimeout(() => {
            logger.warn({ resources: process.getActiveResourcesInfo() }, 'forced exit: something still held the process open after stopping');
            process.exit(0);
          }, EXIT_WAIT_MS).unref();
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  // `on`, not `once`: without a listener a second signal would kill the process mid-drain.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
