// npm start: the whole platform in one process.
import { log } from '../lib/log.js';
import { startProcess } from './entry.js';
import { createPlatform } from './platform.js';
import { stopOnSignals } from './signals.js';

/** A URL without its credentials (a broker's login, an S3 key and secret). */
const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//');

await startProcess('platform', async (config) => {
  const platform = await createPlatform({ config });
  const address = await platform.listen();
  const base = config.publicUrl ?? `http://localhost:${address.port}`;
  const { services } = platform.deps;
  log.info(
    {
      port: address.port,
      database: platform.database.description,
      queue: config.stompUrl ? withoutCredentials(config.stompUrl) : 'disabled (STOMP_URL not set)',
      objectStore: config.objectStoreUrl ? withoutCredentials(config.objectStoreUrl) : `files under ${config.dataDir}/objects`,
      jobs: config.jobs.run ? `run here (${config.jobs.concurrency} at once)` : 'not run here (JOBS_RUN=false): workers run them',
      subgraphs: Object.keys(config.subgraphUrls).length ? config.subgraphUrls : 'all in-process',
      virusScanner: services.virusScanner.kind === 'none' ? 'not configured (CLAMD_URL not set)' : 'clamd',
      // Packets an operator must look at (Query.stuckRegistrations): counted at start, as /health counts them.
      stuckRegistrations: await services.pipeline.stuckCount(),
      graphql: `${base}/graphql${config.graphql.explorer ? ' (GraphiQL in a browser)' : ''}`,
      swaggerUi: `${base}/swagger-ui`,
      health: `${base}/health (live: /health/live, ready: /health/ready)`,
      metrics: config.metrics ? `${base}/metrics` : 'off (PLATFORM_METRICS=false)',
    },
    `identity platform listening on ${base}`,
  );
  if (!config.jobs.run && !(await platform.jobs.alive()).length) {
    log.warn('no job runner is alive on this database (JOBS_RUN=false here): registrations, notifications and the UIN pool wait until `npm run worker` runs');
  }
  stopOnSignals(log, () => platform.close());
});
