import type { Connection } from '../../../lib/graph/connection.js';
import type { IdSchemaRow } from './service.js';

export type IdSchemaConnectionModel = Connection<IdSchemaRow>;

export const idschemaMappers = {
  IdSchema: './idschema/service.js#IdSchemaRow',
  IdSchemaConnection: './idschema/graph-mappers.js#IdSchemaConnectionModel',
};
