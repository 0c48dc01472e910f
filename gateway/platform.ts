import type { GraphQLDataSource } from '@apollo/gateway';
import type { AddressInfo } from 'node:net';
import { PLATFORM_VERSION } from '../lib/version.js';
import type { ApolloServer } from '@apollo/server';
import type { Express, Request } from 'express';
import { createRequestContext, type RequestContext } from '../lib/context.js';
import type { Database } from '../lib/db/client.js';
import type { PlatformDeps } from '../lib/deps.js';
import type { MessageQueue } from '../lib/queue/index.js';
import type { JobRunner } from '../lib/jobs/runner.js';
import type { OperationExecutor } from '../rest-compat/handler.js';
import { COMPONENTS, LIVE_SUBSCRIPTIONS, LIVE_TABLES, REST_ROUTES, ROLE_TABLE } from './components.js';
import { serveLive } from './live.js';
import { LiveChanges } from '../lib/live.js';
import { createDeps, type Dependencies, type DepsOptions } from './deps.js';
import { HttpDrain } from './drain.js';
import { CachedLocalDataSource, entityPresent, remoteDataSource } from './data-sources.js';
import { createGatewayServer } from './graphql.js';
import { platformMetrics } from './metrics.js';
import { trackRequest } from '../lib/metrics/operations.js';
import { restExecutor } from './rest-executor.js';
import { createHttpApp } from './http.js';
import { createHealth } from './health.js';
import { instanceId } from '../lib/log.js';

export type PlatformOptions = DepsOptions;

export interface Platform {
  app: Express;
  deps: PlatformDeps;
  database: Database;
  graphql: ApolloServer<RequestContext>;
  queue: MessageQueue;
  /** the job runner of this process (started unless JOBS_RUN=false) */
  jobs: JobRunner;
  execute: OperationExecutor;
  /** a component's subgraph schema over this platform's services (to serve it separately) */
  buildSubgraph: Dependencies['buildSubgraph'];
  listen(port?: number): Promise<AddressInfo>;
  close(): Promise<void>;
}

/** Builds the whole platform in one process: database, keys, every subgraph, the gateway, REST and health. */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { config } = options;
  const { deps, database, buildSubgraph, runCloseTasks, jobRunner, jobQueue } = await createDeps(options);
  const { logger, clock, tokens } = deps;

  const localSources = new Map<string, CachedLocalDataSource>();
  for (const component of COMPONENTS) {
    if (component.inGateway || !config.subgraphUrls[component.name])
      localSources.set(component.name, new CachedLocalDataSource(await buildSubgraph(component), logger));
  }
  // Every subgraph by name, here or remote: the gateway, node(id:) and the REST paths reach each through this one map.
  const subgraphSources = new Map<string, GraphQLDataSource<RequestContext>>([
    ...Object.entries(config.subgraphUrls).map(([name, url]) => [name, remoteDataSource(url)] as const),
    ...localSources,
  ]);
  deps.services.entityPresencePort.plug((home, representation, context) => {
    const source = subgraphSources.get(home);
    if (!source) throw new Error(`subgraph ${home} is neither in this process nor remote`);
    return entityPresent(source, representation, context);
  });
  const metrics = platformMetrics(config, deps, database, jobQueue);
  const { server: graphql, schema: apiSchema } = await createGatewayServer({
    sources: subgraphSources,
    logger,
    limits: config.graphql,
    plugins: [metrics.plugin],
  });
  const { queue } = deps;
  const execute = restExecutor(
    graphql,
    subgraphSources,
    COMPONENTS.map((component) => component.name),
  );
  const contextFor = (req: Request) =>
    trackRequest(
      req,
      createRequestContext(
        { headers: { cookie: req.headers.cookie, authorization: req.headers.authorization }, clientAddress: req.ip ?? 'unknown', requestId: req.requestId },
        tokens,
      ),
    );
  // Every instance's writes to the watched tables, for this one's subscriptions.
  const changes = new LiveChanges(database, LIVE_TABLES, logger.child({ component: 'live' }));
  await changes.start();

  const health = createHealth({
    config,
    database,
    deps,
    jobQueue,
    jobRunner,
    version: PLATFORM_VERSION,
    instance: config.instanceId ?? instanceId(config.env),
  });

  const app = createHttpApp({
    server: graphql,
    logger,
    health,
    trustProxy: config.trustProxy,
    maxBodyBytes: config.maxBodyBytes,
    version: PLATFORM_VERSION,
    explorers: { graphiql: config.graphql.explorer },
    corsOrigins: config.corsOrigins,
    metrics: metrics.http,
    jwks: () => tokens.keys.jwks(),
    rest: {
      execute,
      contextFor,
      clock,
      maxBodyBytes: config.maxBodyBytes,
      signResponse: (body) => deps.services.keys.responseSignature(body),
      specOpenEndpoints: config.specOpenEndpoints,
      roleTable: ROLE_TABLE,
      uploads: deps.uploads,
    },
    routes: REST_ROUTES,
  });

  // Every subgraph has started (bootstrap rows): jobs may now call any service.
  if (config.jobs.run) await jobRunner.start();

  let http: HttpDrain | undefined;
  let live: { close(): Promise<void> } | undefined;
  return {
    app,
    deps,
    database,
    graphql,
    queue,
    jobs: jobRunner,
    execute,
    buildSubgraph,
    listen: (port = config.port) =>
      new Promise((resolve, reject) => {
        const server = app.listen(port, '0.0.0.0', (error?: Error) => (error ? reject(error) : resolve(server.address() as AddressInfo)));
        http = new HttpDrain(server);
        live = serveLive(server, {
          graphql,
          schema: apiSchema,
          changes,
          subscriptions: LIVE_SUBSCRIPTIONS,
          contextFor: (headers, clientAddress) => createRequestContext({ headers, clientAddress }, tokens),
          roleTable: ROLE_TABLE,
          specOpenEndpoints: config.specOpenEndpoints,
          corsOrigins: config.corsOrigins,
          clock,
          logger,
        });
      }),
    close: async () => {
      // Stop accepting, let in-flight requests finish (bounded), then release the database and the broker.
      // Subscribers are told the platform is going away first: an open WebSocket would hold the drain to its bound.
      await live?.close();
      await changes.close();
      await http?.drain(config.shutdownGraceMs);
      await graphql.stop();
      metrics.close();
      await runCloseTasks();
      if (!options.database) await database.close();
    },
  };
}
