import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { regprocCodeFor } from '../errors.js';
import { registrationsSchemas } from './inputs.js';
import { registrationsResolvers } from './resolvers.js';
import { RegistrationService } from './service.js';
import { RegistrationStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** registrations synced by registration clients, their status and transactions */
    registrations: RegistrationService;
  }
}

const { roles } = access;
/** Registration clients' calls: the centre's staff (for their own centre), the processor's operators and the admin (any). */
const CLIENT_CALLS = roles('REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN');
/** The portal's views of every centre's registrations. */
const OPERATORS = roles('REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN');

/** Registrations: the sync of RIDs before their packets, their status and transactions. */
export const registrationsArea = defineArea({
  name: 'registrations',
  access: {
    'Mutation.syncRegistrations': CLIENT_CALLS,
    'Query.registrationStatuses': CLIENT_CALLS,
    'Query.registrationTransactions': CLIENT_CALLS,
    'Query.registration': OPERATORS,
    'Subscription.registration': OPERATORS,
    'Query.registrations': OPERATORS,
    'Registration.__resolveReference': OPERATORS,
    'Registration.transactions': OPERATORS,
  },
  schemas: registrationsSchemas,
  codeFor: regprocCodeFor,
  services: (deps) => {
    const { keys, machines, centreReach } = deps.services;
    return {
      registrations: new RegistrationService(
        new RegistrationStorage(deps.prisma),
        deps.clock,
        { decrypt: (sealed, refId) => keys.decryptRegistration(sealed, refId), placement: (centreId, machineId) => machines.placement(centreId, machineId) },
        async (caller) => (await centreReach.of(caller)).centreIds,
      ),
    };
  },
  resolvers: (deps) => registrationsResolvers(deps),
});
