// npm run compose: writes schema/node.graphql from the @node marks, then schema/supergraph.graphql from schema/<component>.graphql.
import { writeFileSync } from 'node:fs';
import { composeSupergraph, NODE_SUBGRAPH_FILE, nodeSubgraphSdl, SUPERGRAPH_FILE } from '../gateway/compose.js';

writeFileSync(NODE_SUBGRAPH_FILE, nodeSubgraphSdl());
console.log(`wrote ${NODE_SUBGRAPH_FILE}`);
writeFileSync(SUPERGRAPH_FILE, composeSupergraph());
console.log(`wrote ${SUPERGRAPH_FILE}`);
