import type { PrismaClient } from '../generated/prisma/client.js';
import type { PlatformConfig } from './config.js';
import type { ConfigMap } from './global-configuration.js';
import type { Database } from './db/client.js';
import type { EventBus } from './events.js';
import type { Jobs } from './jobs/types.js';
import type { Logger } from './log.js';
import type { MasterKey } from './master-key.js';
import type { ObjectStore } from './object-store/index.js';
import type { MessageQueue } from './queue/index.js';
import type { AccessTable } from './subgraph.js';
import type { UploadSpool } from './uploads/spool.js';
import type { Clock } from './time.js';
import type { TokenService } from './tokens.js';

/**
 * What components offer each other: one instance of each per process. Each
 * component adds its own services here (declaration merging in its index.ts)
 * and sees, when it is built, only those of the components it declares it
 * uses (gateway/dependencies.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the components
export interface PlatformServices {}

/** What every component is built from; one set per process. */
export interface PlatformDeps {
  config: PlatformConfig;
  /** the platform's global configuration (PLATFORM_SYNC_GLOBAL_CONFIG): the UIN, VID and contact rules */
  globalConfiguration: ConfigMap;
  prisma: PrismaClient;
  /** the database itself: notifications (LISTEN), health */
  database: Database;
  masterKey: MasterKey;
  tokens: TokenService;
  clock: Clock;
  logger: Logger;
  /** what components tell each other happened (in-process) */
  events: EventBus;
  /** work done later: enqueue in the transaction of the change that causes it */
  jobs: Jobs;
  /** the message broker (ActiveMQ over STOMP, or DISABLED) */
  queue: MessageQueue;
  /** packets, documents and biometrics: files under the data folder or an S3 bucket */
  objects: ObjectStore;
  /** large uploads spooled to disk by the REST edge, claimed by the operation it runs */
  uploads: UploadSpool;
  /** the services of every component (subgraphs call each other only through these) */
  services: PlatformServices;
  /** every component's role table, as the gateway enforces it (what Viewer.permissions tells a portal) */
  accessTable: AccessTable;
  /** work to finish before the database closes (timers, transports), run at shutdown in reverse order */
  onClose(task: () => Promise<void> | void): void;
}
