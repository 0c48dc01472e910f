import { pridRules } from '../../../lib/numbers.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { applicationsCodeFor, applicationsSchemas } from './inputs.js';
import { applicationsResolvers } from './resolvers.js';
import { ApplicationsService } from './service.js';
import { ApplicationStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** applications: each applicant's own; what documents, booking and sync reach them through */
    preregApplications: ApplicationsService;
  }
}

const APPLICANTS = access.roles('INDIVIDUAL');
/** Reading: the applicant, and pre-registration's administrators (MOSIP's getapplications roles, the platform's administrator). */
const READERS = access.roles('INDIVIDUAL', 'PRE_REGISTRATION_ADMIN', 'GLOBAL_ADMIN');

/**
 * Applications: applicants (role INDIVIDUAL, signed in by OTP) make and keep
 * their own; registration staff see them only through sync, for their centre.
 */
export const applicationsArea = defineArea({
  name: 'applications',
  access: {
    'Query.preRegistration': READERS,
    'Query.preRegistrationPage': APPLICANTS,
    'Mutation.createPreRegistration': APPLICANTS,
    'Mutation.updatePreRegistration': APPLICANTS,
    'Mutation.deletePreRegistration': APPLICANTS,
    'Mutation.updatePreRegistrationStatus': APPLICANTS,
    'Application.__resolveReference': READERS,
    'Viewer.__resolveReference': access.AUTHENTICATED,
    'Viewer.preRegistrations': access.AUTHENTICATED,
  },
  schemas: applicationsSchemas,
  codeFor: applicationsCodeFor,
  services: (deps) => ({
    preregApplications: new ApplicationsService(
      new ApplicationStorage(deps.prisma),
      deps.services.preregCipher,
      deps.services.idSchemas,
      deps.services.preregConfiguration,
      deps.objects,
      pridRules(deps.globalConfiguration),
      deps.clock,
      deps.logger,
    ),
  }),
  resolvers: (deps) => applicationsResolvers(deps),
});
