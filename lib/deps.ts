import type { PrismaClient } from '../generated/prisma/client.js';
import type { PlatformConfig } from './config.js';
import type { Logger } from './log.js';
import type { MasterKey } from './master-key.js';
import type { Clock } from './time.js';
import type { TokenService } from './tokens.js';
import type { KeysService } from '../subgraphs/keys/service.js';
import type { LicenseService } from '../subgraphs/license/service.js';
import type { NotificationService } from '../subgraphs/notify/service.js';
import type { OtpService } from '../subgraphs/otp/service.js';

/**
 * What components offer each other: one instance of each per process, built
 * in COMPONENTS order, so a component may use those built before it.
 */
export interface PlatformServices {
  keys: KeysService;
  notify: NotificationService;
  otp: OtpService;
  license: LicenseService;
}

/** What every component is built from; one set per process. */
export interface PlatformDeps {
  config: PlatformConfig;
  prisma: PrismaClient;
  masterKey: MasterKey;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  /** the services of every component (subgraphs call each other only through these) */
  services: PlatformServices;
  /** work to finish before the database closes (timers, transports), run at shutdown in reverse order */
  onClose(task: () => Promise<void> | void): void;
}
