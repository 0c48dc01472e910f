import { centresMappers } from './centres/graph-mappers.js';
import { devicesMappers } from './devices/graph-mappers.js';
import { documentsMappers } from './documents/graph-mappers.js';
import { holidaysMappers } from './holidays/graph-mappers.js';
import { idschemaMappers } from './idschema/graph-mappers.js';

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder, each area adds its own). */
export const graphMappers = {
  User: '../../lib/graph/refs.js#UserRef',
  ...idschemaMappers,
  ...holidaysMappers,
  ...documentsMappers,
  ...devicesMappers,
  ...centresMappers,
};
