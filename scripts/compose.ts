// npm run compose: writes schema/supergraph.graphql from schema/<component>.graphql.
import { writeFileSync } from 'node:fs';
import { composeSupergraph, SUPERGRAPH_FILE } from '../gateway/compose.js';

writeFileSync(SUPERGRAPH_FILE, composeSupergraph());
console.log(`wrote ${SUPERGRAPH_FILE}`);
