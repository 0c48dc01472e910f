// npm run subgraph -- <name>: one component as its own GraphQL service on SUBGRAPH_PORT (default 4001).
import { createDeps } from '../gateway/deps.js';
import { stopOnSignals } from '../gateway/signals.js';
import { startSubgraphServer } from '../gateway/subgraph-server.js';
import { SUBGRAPH_SETTINGS } from '../lib/config.js';
import { startProcess } from '../gateway/entry.js';
import { StartRefused } from '../gateway/preflight.js';
import { readSettings } from '../lib/settings.js';
import { log } from '../lib/log.js';
import { COMPONENTS, componentNamed } from '../gateway/components.js';

const name = process.argv[2];
const component = name ? componentNamed(name) : undefined;
if (!component || component.inGateway) {
  console.error(
    `usage: npm run subgraph -- <${COMPONENTS.filter((c) => !c.inGateway)
      .map((c) => c.name)
      .join('|')}>`,
  );
  process.exit(2);
}
await startProcess('subgraph', async (config) => {
  const listenOn = readSettings(SUBGRAPH_SETTINGS, process.env);
  // Embedded PGlite belongs to one process; a separate subgraph and the gateway must share a server.
  if (!config.databaseUrl) throw new StartRefused('a subgraph running as its own service needs the shared PostgreSQL database: set DATABASE_URL');
  const { deps, database, buildSubgraph, runCloseTasks } = await createDeps({ config, role: 'subgraph' });
  const server = await startSubgraphServer(await buildSubgraph(component), deps, listenOn.port, listenOn.host);
  log.info(
    { subgraph: component.name, url: server.url, database: database.description },
    `subgraph ${component.name} listening; point the gateway at it with SUBGRAPH_${component.name.toUpperCase()}_URL=${server.url}`,
  );
  stopOnSignals(log, async () => {
    await server.close();
    await runCloseTasks();
    await database.close();
  });
});
