import { access } from '../../../lib/roles.js';
import { openVirusScanner } from '../../../lib/virus-scan/index.js';
import type { DocumentsService } from '../../masterdata/documents/service.js';
import { defineArea } from '../area.js';
import { documentsCodeFor, documentsSchemas } from './inputs.js';
import { documentsResolvers } from './resolvers.js';
import { ApplicationDocumentsService, type DocumentCatalogue } from './service.js';
import { DocumentStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the documents of applications: uploaded, read, copied and deleted as their applicant may */
    preregDocuments: ApplicationDocumentsService;
  }
}

const APPLICANTS = access.roles('INDIVIDUAL');
/** Reading: the applicant, and pre-registration's administrators (as they read applications). */
const READERS = access.roles('INDIVIDUAL', 'PRE_REGISTRATION_ADMIN', 'GLOBAL_ADMIN');

/** Master data's valid documents as the upload asks them: a pair valid, else whether the category exists at all. */
const catalogueOf = (documents: Pick<DocumentsService, 'isValid' | 'categoryList'>): DocumentCatalogue => ({
  isValid: (docCatCode, docTypeCode) => documents.isValid(docCatCode, docTypeCode),
  hasCategory: async (docCatCode) => (await documents.categoryList()).some((row) => row.code === docCatCode),
});

/** Documents of an application (upload, list, read, delete, copy): the applicant changes their own; administrators of pre-registration read. */
export const documentsArea = defineArea({
  name: 'documents',
  access: {
    'Query.preRegistrationDocuments': READERS,
    'Query.preRegistrationDocumentContent': READERS,
    'Mutation.uploadPreRegistrationDocument': APPLICANTS,
    'Mutation.deletePreRegistrationDocument': APPLICANTS,
    'Mutation.deletePreRegistrationDocuments': APPLICANTS,
    'Mutation.copyPreRegistrationDocument': APPLICANTS,
    'Mutation.updatePreRegistrationDocumentReference': APPLICANTS,
  },
  schemas: documentsSchemas,
  codeFor: documentsCodeFor,
  services: (deps, settings) => ({
    preregDocuments: new ApplicationDocumentsService({
      store: new DocumentStorage(deps.prisma),
      applications: deps.services.preregApplications,
      cipher: deps.services.preregCipher,
      rules: () => deps.services.preregConfiguration.rules(),
      catalogue: catalogueOf(deps.services.documents),
      objects: deps.objects,
      spool: deps.uploads,
      scanner: openVirusScanner({ ...(settings.clamdUrl ? { url: settings.clamdUrl } : {}), timeoutMs: settings.clamdTimeoutMs }),
      clock: deps.clock,
      logger: deps.logger,
    }),
  }),
  resolvers: (deps) => documentsResolvers(deps),
});
