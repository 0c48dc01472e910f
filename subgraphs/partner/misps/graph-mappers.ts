import type { Connection } from '../../../lib/graph/connection.js';
import type { MispRow } from './service.js';

export type MispConnectionModel = Connection<MispRow>;

export const mispsMappers = {
  Misp: './misps/service.js#MispRow',
  MispConnection: './misps/graph-mappers.js#MispConnectionModel',
};
