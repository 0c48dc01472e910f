import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeSupergraph, SUPERGRAPH_FILE } from '../../gateway/compose.js';

describe('schema/supergraph.graphql', () => {
  it('is what `npm run compose` makes of schema/*.graphql (run it after changing a subgraph)', () => {
    expect(readFileSync(SUPERGRAPH_FILE, 'utf8')).toBe(composeSupergraph());
  });
});
