import type { Logger } from '../lib/log.js';

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
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    close().then(
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
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
