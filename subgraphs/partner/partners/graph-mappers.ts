import type { Connection } from '../../../lib/graph/connection.js';
import type { ApiKeyRequestRow, ApiKeyRow, PartnerRow } from './service.js';

export type PartnerConnectionModel = Connection<PartnerRow>;
export type ApiKeyRequestConnectionModel = Connection<ApiKeyRequestRow>;
export type ApiKeyConnectionModel = Connection<ApiKeyRow>;

/** A certificate upload's answer, with the partner it belongs to (its link). */
export interface PartnerCertificateUploadModel {
  certificateId: string;
  signedCertificateData: string;
  timestamp: Date;
  partnerId: string;
}

export const partnersMappers = {
  Partner: './partners/service.js#PartnerRow',
  ApiKeyRequest: './partners/service.js#ApiKeyRequestRow',
  ApiKey: './partners/service.js#ApiKeyRow',
  PartnerConnection: './partners/graph-mappers.js#PartnerConnectionModel',
  ApiKeyRequestConnection: './partners/graph-mappers.js#ApiKeyRequestConnectionModel',
  ApiKeyConnection: './partners/graph-mappers.js#ApiKeyConnectionModel',
  PartnerCertificateUpload: './partners/graph-mappers.js#PartnerCertificateUploadModel',
};
