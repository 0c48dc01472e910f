// npm start: the whole platform in one process.
import { loadConfig } from '../lib/config.js';
import { log } from '../lib/log.js';
import { createPlatform } from './platform.js';
import { stopOnSignals } from './signals.js';

const config = loadConfig();
const platform = await createPlatform({ config });
const address = await platform.listen();
log.info(
  {
    port: address.port,
    database: platform.database.description,
    queue: config.stompUrl ? config.stompUrl.replace(/\/\/[^@/]*@/, '//') : 'disabled (STOMP_URL not set)',
    subgraphs: Object.keys(config.subgraphUrls).length ? config.subgraphUrls : 'all in-process',
    virusScanner: platform.deps.services.virusScanner.kind === 'none' ? 'not configured (CLAMD_URL not set)' : 'clamd',
    // Packets an operator must look at (Query.stuckRegistrations): counted at start, as /health counts them.
    stuckRegistrations: await platform.deps.services.pipeline.stuckCount(),
  },
  `identity platform listening on http://localhost:${address.port} (GraphQL /graphql, REST /v1/..., health /health)`,
);

stopOnSignals(log, () => platform.close());
