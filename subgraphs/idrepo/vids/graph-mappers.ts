import type { Connection } from '../../../lib/graph/connection.js';
import type { VidRow } from './service.js';

export type VidConnectionModel = Connection<VidRow>;

/** The vids area's mappers (paths from subgraphs/idrepo, as its graph-mappers.ts reads them). */
export const vidsMappers = {
  Vid: './vids/service.js#VidRow',
  VidConnection: './vids/graph-mappers.js#VidConnectionModel',
  VidIssued: './vids/issue-vid.js#IssuedVid',
};
