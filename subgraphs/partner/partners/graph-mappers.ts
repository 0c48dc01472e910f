import type { Connection } from '../../../lib/graph/connection.js';
import type { ApiKeyRequestRow, PartnerRow } from './service.js';

export type PartnerConnectionModel = Connection<PartnerRow>;
export type ApiKeyRequestConnectionModel = Connection<ApiKeyRequestRow>;

export const partnersMappers = {
  Partner: './partners/service.js#PartnerRow',
  ApiKeyRequest: './partners/service.js#ApiKeyRequestRow',
  ApiKey: './partners/service.js#ApiKeyRow',
  PartnerConnection: './partners/graph-mappers.js#PartnerConnectionModel',
  ApiKeyRequestConnection: './partners/graph-mappers.js#ApiKeyRequestConnectionModel',
};
