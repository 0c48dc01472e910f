// The in-process subgraph as the gateway calls it: which refusals reach the caller, with which code, and which stay masked.
import { buildSchema, GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { CachedLocalDataSource } from '../../gateway/data-sources.js';
import type { RequestContext } from '../../lib/context.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { createLogger } from '../../lib/log.js';

function subgraph(): GraphQLSchema {
  const schema = buildSchema(`
    scalar DateTime
    scalar Any
    type Query { at(when: DateTime!): DateTime! _entities(representations: [Any!]!): [String]! }
  `);
  Object.assign(schema.getType('DateTime')!, {
    serialize: DateTimeScalar.serialize,
    parseValue: DateTimeScalar.parseValue,
    parseLiteral: DateTimeScalar.parseLiteral,
  });
  Object.assign(schema.getType('Any')!, {
    parseValue: (value: unknown) => {
      if (typeof value !== 'object') throw new TypeError('a representation is an object');
      return value;
    },
  });
  Object.assign(schema.getQueryType()!.getFields().at!, { resolve: (_: unknown, args: { when: Date }) => args.when });
  return schema;
}

const source = new CachedLocalDataSource(subgraph(), createLogger('silent'));
const send = (query: string, variables?: Record<string, unknown>) =>
  source.process({
    request: { query, variables },
    context: { requestId: 'r-1' } as unknown as RequestContext,
  } as unknown as GraphQLDataSourceProcessOptions<RequestContext>);

describe('an in-process subgraph refusing a fetch', () => {
  it('answers a value of the caller that a scalar refuses with its message: a variable BAD_USER_INPUT, a literal GRAPHQL_VALIDATION_FAILED', async () => {
    expect(await send('query($w: DateTime!) { at(when: $w) }', { w: '2026-01-31T12:00:00.000Z' })).toEqual({ data: { at: '2026-01-31T12:00:00.000Z' } });
    const variable = await send('query($w: DateTime!) { at(when: $w) }', { w: 'soon' });
    expect(variable.data).toBeUndefined();
    expect(variable.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Variable "\$w" got invalid value "soon"; Expected type "DateTime". DateTime: an ISO 8601/),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const literal = await send('{ at(when: "soon") }');
    expect(literal.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Expected value of type "DateTime!", found "soon"/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it("masks what is the gateway's own fetch going wrong: a representation refused, a field the subgraph does not have", async () => {
    const representations = await send('query($representations: [Any!]!) { _entities(representations: $representations) }', { representations: ['x'] });
    expect(representations.errors).toEqual([{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
    const unknown = await send('{ secretField }');
    expect(unknown.errors).toEqual([{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
  });
});
