import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import type { PlatformConfig } from '../lib/config.js';
import { loadGlobalConfiguration } from '../lib/global-configuration.js';
import { TokenStorage } from '../lib/tokens/storage.js';
import { openDatabase, type Database } from '../lib/db/client.js';
import type { PlatformDeps, PlatformServices } from '../lib/deps.js';
import { instanceId, log as defaultLogger, type Logger, type ProcessRole } from '../lib/log.js';
import type { MasterKey } from '../lib/master-key.js';
import { readSettings, SettingsError, type SettingValues, type Settings } from '../lib/settings.js';
import { buildComponentSchema } from '../lib/subgraph.js';
import { systemClock, type Clock } from '../lib/time.js';
import { RevocationList } from '../lib/revocations.js';
import { TokenService } from '../lib/tokens.js';
import type { AnyComponent } from '../subgraphs/component.js';
import { COMPONENTS, REGISTRY, ROLE_TABLE } from './components.js';
import { servicesSeenBy } from './dependencies.js';
import { EventBus } from '../lib/events.js';
import { JobQueue } from '../lib/jobs/queue.js';
import { JobRunner } from '../lib/jobs/runner.js';
import { openQueue } from '../lib/queue/index.js';
import { openObjectStore } from '../lib/object-store/index.js';
import { UploadSpool } from '../lib/uploads/spool.js';
import { checkMasterKey, checkObjectStore, checkSharedSettings, explainKeyFailure, loadMasterKey, sealMasterKeyCheck } from './preflight.js';

export interface DepsOptions {
  config: PlatformConfig;
  clock?: Clock;
  logger?: Logger;
  /** an already opened database (tests, or a subgraph sharing the gateway's process) */
  database?: Database;
  masterKey?: MasterKey;
  /** what this process is, for its job runner's heartbeat */
  role?: ProcessRole;
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
  /** the job handlers of every component, declared in the registry */
  jobQueue: JobQueue;
  /** a runner of every declared job, started by the caller (`npm start` unless JOBS_RUN=false, `npm run worker`) */
  jobRunner: JobRunner;
  runCloseTasks: () => Promise<void>;
}

/** Opens the database (migrating it), loads the master key and the token signing key, and builds every component's services. */
export async function createDeps(options: DepsOptions): Promise<Dependencies> {
  const { config } = options;
  const settings = componentSettings(config.env);
  checkSharedSettings(config);
  // Read before anything opens: a bad file is a start-up error that names its setting.
  const globalConfiguration = loadGlobalConfiguration(config.globalConfigFile);
  const logger = options.logger ?? defaultLogger;
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    (await (config.databaseUrl ? openDatabase({ url: config.databaseUrl }) : openDatabase({ dataDir: path.join(config.dataDir, 'pglite') })));
  const masterKey = options.masterKey ? await checkMasterKey(options.masterKey, database) : await loadMasterKey(config, database, logger);
  const tokenTables = new TokenStorage(database.prisma);
  const tokens = new TokenService(
    tokenTables,
    masterKey,
    {
      issuer: config.tokenIssuer,
      audience: 'identity-platform',
      accessLifeSeconds: config.tokenLifeSeconds,
      refreshLifeSeconds: config.refreshTokenLifeSeconds,
    },
    clock,
    new RevocationList(database, tokenTables, clock, logger.child({ component: 'revocations' })),
  );
  await tokens.init().catch(explainKeyFailure);
  await sealMasterKeyCheck(masterKey, database);
  const queue = openQueue({ url: config.stompUrl, login: config.stompLogin, passcode: config.stompPasscode, logger: logger.child({ component: 'stomp' }) });
  const jobQueue = new JobQueue(database.prisma, clock, logger.child({ component: 'jobs' }));
  const objects = openObjectStore({ url: config.objectStoreUrl, dataDir: config.dataDir });
  await checkObjectStore(config, database, objects);
  const closeTasks: (() => Promise<void> | void)[] = [() => tokens.stop(), () => queue.close(), () => objects.close?.()];
  const deps: PlatformDeps = {
    config,
    globalConfiguration,
    prisma: database.prisma,
    database,
    masterKey,
    tokens,
    clock,
    logger,
    events: new EventBus(logger.child({ component: 'events' })),
    jobs: jobQueue,
    queue,
    objects,
    uploads: new UploadSpool(config.dataDir, config.uploadMaxBytes),
    services: {} as PlatformServices,
    accessTable: ROLE_TABLE,
    onClose: (task) => void closeTasks.push(task),
  };
  // Each component sees its own services and those of the components it declares it uses, nothing else.
  const owners = new Map<string, string>();
  const views = new Map<AnyComponent, PlatformDeps>(
    COMPONENTS.map((component) => [component, { ...deps, services: servicesSeenBy(component, deps.services, owners) }]),
  );
  const viewOf = (component: AnyComponent) => views.get(component)!;
  for (const component of COMPONENTS) Object.assign(viewOf(component).services, await component.services?.(viewOf(component), settings.get(component)!));
  for (const line of REGISTRY) if (line.jobs) jobQueue.define(line.jobs(viewOf(line.component), settings.get(line.component)!));
  const jobRunner = new JobRunner(jobQueue, database, clock, logger.child({ component: 'jobs' }), {
    concurrency: config.jobs.concurrency,
    pollMs: config.jobs.pollMs,
    retentionMs: config.jobs.retentionHours * 3_600_000,
    role: options.role ?? 'platform',
    instance: config.instanceId ?? instanceId(config.env),
  });
  // Jobs stop before the services they call close.
  closeTasks.push(() => jobRunner.stop(config.jobs.shutdownGraceMs));
  return {
    deps,
    database,
    jobQueue,
    jobRunner,
    buildSubgraph: async (component) => {
      const values = settings.get(component)!;
      await component.start?.(viewOf(component), values);
      return buildComponentSchema(component.name, component.resolvers(viewOf(component), values), component.access, config.specOpenEndpoints, component.inputs);
    },
    runCloseTasks: async () => {
      for (const task of closeTasks.splice(0).reverse()) await task();
    },
  };
}
