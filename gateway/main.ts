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
  },
  `identity platform listening on http://localhost:${address.port} (GraphQL /graphql, REST /v1/..., health /health)`,
);

stopOnSignals(log, () => platform.close());
