import type { PlatformDeps } from '../../../lib/deps.js';
import { MASTERDATA_READERS, MASTERDATA_WRITERS } from '../access.js';
import { defineArea } from '../area.js';
import { ApplicantDocumentsService } from './applicants.js';
import { documentsCodeFor, documentsSchemas } from './inputs.js';
import { documentsResolvers } from './resolvers.js';
import { DocumentsService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** document categories and types, and which types prove which category */
    documents: DocumentsService;
    /** which documents an applicant type may present */
    applicantDocuments: ApplicantDocumentsService;
  }
}

const READS = [
  'documentCategories',
  'documentTypes',
  'documentCategoryList',
  'documentCategory',
  'validDocumentTypes',
  'documentTypeList',
  'searchDocumentCategories',
  'documentCategoryFilterValues',
  'searchDocumentTypes',
  'documentTypeFilterValues',
  'applicantDocuments',
  'checkApplicantDocument',
  'applicantTypeRules',
  'applicantValidDocuments',
] as const;

const WRITES = [
  'createDocumentCategory',
  'updateDocumentCategory',
  'deleteDocumentCategory',
  'createDocumentType',
  'updateDocumentType',
  'deleteDocumentType',
  'mapValidDocument',
  'unmapValidDocument',
  'saveApplicantTypeRule',
  'deleteApplicantTypeRule',
  'mapApplicantValidDocument',
  'unmapApplicantValidDocument',
] as const;

/** Documents: categories, types, valid documents, applicant types. Admins write; registration, pre-registration and ID services read. */
export const documentsArea = defineArea({
  name: 'documents',
  access: {
    ...Object.fromEntries(READS.map((field) => [`Query.${field}`, MASTERDATA_READERS])),
    ...Object.fromEntries(WRITES.map((field) => [`Mutation.${field}`, MASTERDATA_WRITERS])),
    'DocumentCategory.__resolveReference': MASTERDATA_READERS,
    'DocumentType.__resolveReference': MASTERDATA_READERS,
  },
  schemas: documentsSchemas,
  codeFor: documentsCodeFor,
  services: (deps: PlatformDeps) => {
    const documents = new DocumentsService(deps.prisma);
    return { documents, applicantDocuments: new ApplicantDocumentsService(deps.prisma, documents) };
  },
  resolvers: documentsResolvers,
});
