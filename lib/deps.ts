import type { PrismaClient } from '../generated/prisma/client.js';
import type { PlatformConfig } from './config.js';
import type { Logger } from './log.js';
import type { MasterKey } from './master-key.js';
import type { Clock } from './time.js';
import type { TokenService } from './tokens.js';

/** What every component is built from; one set per process. */
export interface PlatformDeps {
  config: PlatformConfig;
  prisma: PrismaClient;
  masterKey: MasterKey;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  /** work to finish before the database closes (timers, transports), run at shutdown in reverse order */
  onClose(task: () => Promise<void> | void): void;
}
