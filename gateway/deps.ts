import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { PlatformConfig } from '../lib/config.js';
import { openDatabase, type Database } from '../lib/db/client.js';
import type { PlatformDeps, PlatformServices } from '../lib/deps.js';
import { log as defaultLogger, type Logger } from '../lib/log.js';
import { MasterKey } from '../lib/master-key.js';
import { readSettings, SettingsError, type SettingValues, type Settings } from '../lib/settings.js';
import { buildComponentSchema } from '../lib/subgraph.js';
import { systemClock, type Clock } from '../lib/time.js';
import { RevocationList } from '../lib/revocations.js';
import { TokenService } from '../lib/tokens.js';
import type { AnyComponent } from '../subgraphs/component.js';
import { COMPONENTS } from '../subgraphs/index.js';

export interface DepsOptions {
  config: PlatformConfig;
  clock?: Clock;
  logger?: Logger;
  /** an already opened database (tests, or a subgraph sharing the gateway's process) */
  database?: Database;
  masterKey?: MasterKey;
}

/** Every component's settings, read at once so a bad configuration names all its mistakes before anything opens. */
function componentSettings(env: NodeJS.ProcessEnv): Map<AnyComponent, SettingValues<Settings>> {
  const values = new Map<AnyComponent, SettingValues<Settings>>();
  const problems: string[] = [];
  for (const component of COMPONENTS) {
    try {
      values.set(component, readSettings(component.settings ?? {}, env));
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length) throw new SettingsError(problems);
  return values;
}

export interface Dependencies {
  deps: PlatformDeps;
  database: Database;
  /** a component's subgraph schema, after its start-up work */
  buildSubgraph: (component: AnyComponent) => Promise<GraphQLSchema>;
  runCloseTasks: () => Promise<void>;
}

/** Opens the database (migrating it), loads the master key and the token signing key, and builds every component's services. */
export async function createDeps(options: DepsOptions): Promise<Dependencies> {
  const { config } = options;
  const settings = componentSettings(config.env);
  const logger = options.logger ?? defaultLogger;
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    (await (config.databaseUrl ? openDatabase({ url: config.databaseUrl }) : openDatabase({ dataDir: path.join(config.dataDir, 'pglite') })));
  const masterKey = options.masterKey ?? MasterKey.load(config.masterKey, config.dataDir, logger);
  const tokens = new TokenService(
    database.prisma,
    masterKey,
    {
      issuer: config.tokenIssuer,
      audience: 'identity-platform',
      accessLifeSeconds: config.tokenLifeSeconds,
      refreshLifeSeconds: config.refreshTokenLifeSeconds,
    },
    clock,
    new RevocationList(database, clock, logger.child({ component: 'revocations' })),
  );
  await tokens.init();
  const closeTasks: (() => Promise<void> | void)[] = [() => tokens.stop()];
  const deps: PlatformDeps = {
    config,
    prisma: database.prisma,
    database,
    masterKey,
    tokens,
    clock,
    logger,
    services: {} as PlatformServices,
    onClose: (task) => void closeTasks.push(task),
  };
  for (const component of COMPONENTS) Object.assign(deps.services, await component.services?.(deps, settings.get(component)!));
  return {
    deps,
    database,
    buildSubgraph: async (component) => {
      const values = settings.get(component)!;
      await component.start?.(deps, values);
      return buildComponentSchema(component.name, component.resolvers(deps, values), component.access, config.specOpenEndpoints, component.inputs);
    },
    runCloseTasks: async () => {
      for (const task of closeTasks.splice(0).reverse()) await task();
    },
  };
}
