import type { Connection } from '../../../lib/graph/connection.js';
import type { ApiKeyRequestRow, ApiKeyRow, PartnerRow } from './service.js';

export type PartnerConnectionModel = Connection<PartnerRow>;
export type ApiKeyRequestConnectionModel = Connection<ApiKeyRequestRow>;
export type ApiKeyConnectionModel = Connection<ApiKeyRow>;

export const partnersMappers = {
  Partner: './partners/service.js#PartnerRow',
  ApiKeyRequest: './partners/service.js#ApiKeyRequestRow',
  ApiKey: './partners/service.js#ApiKeyRow',
  PartnerConnection: './partners/graph-mappers.js#PartnerConnectionModel',
  ApiKeyRequestConnection: './partners/graph-mappers.js#ApiKeyRequestConnectionModel',
  ApiKeyConnection: './partners/graph-mappers.js#ApiKeyConnectionModel',
};
