import { PlatformError } from '../../../lib/errors.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { PROCESSOR } from '../caller.js';
import type { RegprocSettings } from '../settings.js';
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
/**
 * Residents signed in by OTP act on their own identity (the service checks the
 * token names it); the processor's operators and the admin on any. RESIDENT
 * held by a user or client reaches no identity.
 */
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
  services: (deps, settings) => {
    const { keys, machines, identities, vids, registrations, pipeline, pipelineStorage, packetFiles } = deps.services;
    return {
      registrationRequests: new RequestService({
        store: pipelineStorage,
        pipeline,
        packets: packetFiles,
        clock: deps.clock,
        logger: deps.logger.child({ component: 'regproc' }),
        abisDedupe: (settings as RegprocSettings).dedupe === 'abis',
        certificate: async () => (await keys.masterCertificate('REGISTRATION')).certificate,
        placement: (centreId, machineId) => machines.placement(centreId, machineId),
        identity: async (uin) => {
          const row = await identities.byUin(uin);
          return row && { id: row.id, status: row.status };
        },
        identityOfVid: async (vid) => {
          try {
            return (await vids.identityOfVid(vid))?.id ?? null;
          } catch (error) {
            // A malformed VID names no identity.
            if (error instanceof PlatformError) return null;
            throw error;
          }
        },
        uinOfVid: (vid) => vids.uinOf(PROCESSOR, vid),
        reaches: (caller, centreId) => registrations.reaches(caller, centreId),
        identityOfRegistration: async (rid) => (await identities.byRegistration(rid))?.id ?? null,
        recordBiometricRead: (caller, identityId) => identities.audit(caller, identityId, ['biometrics'], 'RID'),
      }),
    };
  },
  resolvers: (deps) => requestsResolvers(deps),
});
