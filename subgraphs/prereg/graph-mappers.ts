import { applicationsMappers } from './applications/graph-mappers.js';
import { bookingMappers } from './booking/graph-mappers.js';
import { documentsMappers } from './documents/graph-mappers.js';
import { syncMappers } from './sync/graph-mappers.js';

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder), each area's own. */
export const graphMappers = { ...applicationsMappers, ...documentsMappers, ...bookingMappers, ...syncMappers };
