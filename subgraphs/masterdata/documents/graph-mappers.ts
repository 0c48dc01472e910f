import type { Connection } from '../../../lib/graph/connection.js';
import type { ApplicantTypeRuleRow, ApplicantValidDocumentRow, DocumentCategoryRow, DocumentTypeRow } from './service.js';

export type DocumentCategoryConnectionModel = Connection<DocumentCategoryRow>;
export type DocumentTypeConnectionModel = Connection<DocumentTypeRow>;
export type ApplicantTypeRuleConnectionModel = Connection<ApplicantTypeRuleRow>;
export type ApplicantValidDocumentConnectionModel = Connection<ApplicantValidDocumentRow>;

/** GraphQL type → the value its resolvers receive as parent (paths from subgraphs/masterdata/). */
export const documentsMappers = {
  DocumentCategory: './documents/service.js#DocumentCategoryRow',
  DocumentType: './documents/service.js#DocumentTypeRow',
  ApplicantTypeRule: './documents/service.js#ApplicantTypeRuleRow',
  ApplicantValidDocument: './documents/service.js#ApplicantValidDocumentRow',
  DocumentCategoryConnection: './documents/graph-mappers.js#DocumentCategoryConnectionModel',
  DocumentTypeConnection: './documents/graph-mappers.js#DocumentTypeConnectionModel',
  ApplicantTypeRuleConnection: './documents/graph-mappers.js#ApplicantTypeRuleConnectionModel',
  ApplicantValidDocumentConnection: './documents/graph-mappers.js#ApplicantValidDocumentConnectionModel',
};
