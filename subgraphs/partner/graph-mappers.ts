import { mispsMappers } from './misps/graph-mappers.js';
import { partnersMappers } from './partners/graph-mappers.js';
import { policiesMappers } from './policies/graph-mappers.js';

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder, each area adds its own). */
export const graphMappers = {
  User: '../../lib/graph/refs.js#UserRef',
  ...mispsMappers,
  ...policiesMappers,
  ...partnersMappers,
};
