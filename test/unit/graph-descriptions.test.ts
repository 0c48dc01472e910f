// The portal graph documents itself: every type, field, argument, input field and enum value has a
// description, in each subgraph's SDL (named by file) and in the composed supergraph that
// introspection serves (Query and Mutation are only containers; federation's own join__/link__
// definitions are the composer's).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUPERGRAPH_FILE } from '../../gateway/compose.js';
import { undescribed } from '../support/descriptions.js';

const SCHEMA = fileURLToPath(new URL('../../schema/', import.meta.url));
const subgraphFiles = (): string[] =>
  readdirSync(SCHEMA, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.graphql') && path.join(SCHEMA, name) !== SUPERGRAPH_FILE)
    .filter((name) => statSync(path.join(SCHEMA, name)).isFile())
    .sort();

describe('descriptions', () => {
  it.each(subgraphFiles())('%s describes everything it defines', (file) => {
    expect(undescribed(readFileSync(path.join(SCHEMA, file), 'utf8'))).toEqual([]);
  });

  it('the composed supergraph describes every type, field, argument, input field and enum value', () => {
    expect(undescribed(readFileSync(SUPERGRAPH_FILE, 'utf8'))).toEqual([]);
  });
});
