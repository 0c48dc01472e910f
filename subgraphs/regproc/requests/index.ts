import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { PROCESSOR } from '../caller.js';
import { requestsCodeFor, requestsSchemas } from './inputs.js';
import { requestsResolvers } from './resolvers.js';
import { RequestService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** registrations the platform makes itself, the secure zone's notice, the ABIS's biometric file */
    registrationRequests: RequestService;
  }
}

const { roles } = access;
/** The resident portal's service client acts for residents; the processor's operators and the admin for anyone. */
const RESIDENT_SERVICES = roles('RESIDENT', 'REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN');

/** MOSIP's request handler (packet generator, reprint), the DMZ's secure-zone notice and the ABIS's biometric file. */
export const requestsArea = defineArea({
  name: 'requests',
  access: {
    'Mutation.generatePacket': RESIDENT_SERVICES,
    'Mutation.requestReprint': RESIDENT_SERVICES,
    'Mutation.securezoneNotice': roles('REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN'),
    // ABIS.md: the ABIS's client reads the biometric file, and nobody else through this door.
    'Query.biometricFile': roles('ABIS'),
  },
  schemas: requestsSchemas,
  codeFor: requestsCodeFor,
  services: (deps) => {
    const { keys, machines, identities, vids, registrations, pipeline, pipelineStorage, packetFiles } = deps.services;
    return {
      registrationRequests: new RequestService({
        store: pipelineStorage,
        pipeline,
        packets: packetFiles,
        clock: deps.clock,
        certificate: async () => (await keys.masterCertificate('REGISTRATION')).certificate,
        placement: (centreId, machineId) => machines.placement(centreId, machineId),
        identityStatus: async (uin) => (await identities.byUin(uin))?.status ?? null,
        uinOfVid: (vid) => vids.uinOf(PROCESSOR, vid),
        reaches: (caller, centreId) => registrations.reaches(caller, centreId),
      }),
    };
  },
  resolvers: (deps) => requestsResolvers(deps),
});
