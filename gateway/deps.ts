import path from 'node:path';
import type { PlatformConfig } from '../lib/config.js';
import { openDatabase, type Database } from '../lib/db/client.js';
import type { PlatformDeps, PlatformServices } from '../lib/deps.js';
import { log as defaultLogger, type Logger } from '../lib/log.js';
import { MasterKey } from '../lib/master-key.js';
import { systemClock, type Clock } from '../lib/time.js';
import { TokenService } from '../lib/tokens.js';
import { COMPONENTS } from '../subgraphs/index.js';

export interface DepsOptions {
  config: PlatformConfig;
  clock?: Clock;
  logger?: Logger;
  /** an already opened database (tests, or a subgraph sharing the gateway's process) */
  database?: Database;
  masterKey?: MasterKey;
}

/** Opens the database (migrating it), loads the master key and the token signing key, and builds every component's services. */
export async function createDeps(options: DepsOptions): Promise<{ deps: PlatformDeps; database: Database; runCloseTasks(): Promise<void> }> {
  const { config } = options;
  const logger = options.logger ?? defaultLogger;
  const clock = options.clock ?? systemClock;
  const database = options.database ?? (await (config.databaseUrl
    ? openDatabase({ url: config.databaseUrl })
    : openDatabase({ dataDir: path.join(config.dataDir, 'pglite') })));
  const masterKey = options.masterKey ?? MasterKey.load(config.masterKey, config.dataDir, logger);
  const tokens = new TokenService(database.prisma, masterKey, {
    issuer: config.tokenIssuer,
    audience: 'identity-platform',
    accessLifeSeconds: config.tokenLifeSeconds,
    refreshLifeSeconds: config.refreshTokenLifeSeconds,
  }, clock);
  await tokens.init();
  const closeTasks: (() => Promise<void> | void)[] = [];
  const runCloseTasks = async () => {
    for (const task of closeTasks.splice(0).reverse()) await task();
  };
  const deps: PlatformDeps = {
    config, prisma: database.prisma, masterKey, tokens, clock, logger,
    services: {} as PlatformServices,
    onClose: (task) => void closeTasks.push(task),
  };
  for (const component of COMPONENTS) Object.assign(deps.services, await component.services?.(deps));
  return { deps, database, runCloseTasks };
}
