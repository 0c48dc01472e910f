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
}
