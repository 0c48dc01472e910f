import type { Connection } from '../../../lib/graph/connection.js';
import type { ApplicationRow } from './types.js';

export type ApplicationConnectionModel = Connection<ApplicationRow>;

/** GraphQL type → the value its resolvers receive as parent, for the applications area's types (paths from subgraphs/prereg). */
export const applicationsMappers: Record<string, string> = {
  Application: './applications/types.js#ApplicationModel',
  ApplicationConnection: './applications/graph-mappers.js#ApplicationConnectionModel',
  ApplicationPage: './applications/types.js#ApplicationPageModel',
  DeletedApplication: './applications/types.js#DeletedApplicationModel',
  Viewer: './applications/types.js#ViewerModel',
};
