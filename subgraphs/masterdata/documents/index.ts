import type { PlatformDeps } from '../../../lib/deps.js';
import { MASTERDATA_READERS, MASTERDATA_WRITERS } from '../access.js';
import { defineArea } from '../area.js';
import { LanguageStorage } from '../storage.js';
import { ApplicantDocumentsService } from './applicants.js';
import { documentsCodeFor, documentsSchemas } from './inputs.js';
import { documentsResolvers } from './resolvers.js';
import { DocumentsService } from './service.js';
import { ApplicantStorage } from './storage/applicants.js';
import { CodedStorage } from './storage/coded.js';
import { ValidDocumentStorage } from './storage/valid-documents.js';

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
    const categories = CodedStorage.categories(deps.prisma);
    const types = CodedStorage.types(deps.prisma);
    const applicants = new ApplicantStorage(deps.prisma);
    const languages = new LanguageStorage(deps.prisma);
    const documents = new DocumentsService({ categories, types, validDocuments: new ValidDocumentStorage(deps.prisma), applicants, languages });
    return { documents, applicantDocuments: new ApplicantDocumentsService({ store: applicants, categories, types, documents }) };
  },
  resolvers: documentsResolvers,
});
