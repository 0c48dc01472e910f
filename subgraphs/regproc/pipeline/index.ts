import type { PlatformDeps } from '../../../lib/deps.js';
import { access } from '../../../lib/roles.js';
import { openVirusScanner, type VirusScanner } from '../../../lib/virus-scan/index.js';
import { defineArea } from '../area.js';
import { PROCESSOR } from '../caller.js';
import { regprocCodeFor } from '../errors.js';
import { PacketFiles } from '../packets/packet-files.js';
import { PacketReceiverService } from '../packets/service.js';
import type { RegprocSettings } from '../settings.js';
import { VerificationService } from '../verification/service.js';
import { VerificationStorage } from '../verification/storage.js';
import { LocalDeduplication, noDeduplication, type Deduplication } from './dedupe.js';
import { pipelineSchemas } from './inputs.js';
import { pipelineResolvers } from './resolvers.js';
import { PipelineService } from './service.js';
import { PipelineStorage } from './storage.js';
import { StageWork, type IdentityPort, type ResidentNotice } from './work.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the registration pipeline's stages, reprocessing and the stuck view */
    pipeline: PipelineService;
    packetReceiver: PacketReceiverService;
    manualVerification: VerificationService;
    /** ClamAV's clamd, or none (CLAMD_URL) */
    virusScanner: VirusScanner;
    /** the registration packets in the object store, opened in memory */
    packetFiles: PacketFiles;
    /** the pipeline's writes to the registration processor's tables */
    pipelineStorage: PipelineStorage;
  }
}

const { roles } = access;
const CLIENT_CALLS = roles('REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN');
const OPERATORS = roles('REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN');

/** The ID repository as the UIN stage uses it. */
function identityPort(deps: PlatformDeps): IdentityPort {
  const { identities, uinPool } = deps.services;
  return {
    uinWrittenBy: async (rid) => {
      const row = await identities.byRegistration(rid);
      return row ? identities.uinOfRow(row) : null;
    },
    drawUin: () => uinPool.draw(),
    contactOf: async (uin) => (await identities.read(PROCESSOR, { uin })).identity,
    create: async (rid, bioRefId, identity, documents) =>
      void (await identities.create(PROCESSOR, { registrationId: rid, biometricReferenceId: bioRefId, identity, documents })),
    update: async (rid, identity, status, documents) => void (await identities.update(PROCESSOR, { registrationId: rid, identity, documents, status })),
  };
}

/** The resident's notice: to the identity's e-mail, else its phone, in the registration's language. */
function residentNotice(deps: PlatformDeps): ResidentNotice {
  const { notify } = deps.services;
  return {
    compose: async (identity, langCode, code, variables) => {
      const email = typeof identity.email === 'string' && identity.email ? identity.email : null;
      const phone = typeof identity.phone === 'string' && identity.phone ? identity.phone : null;
      if (!email && !phone) return null;
      const name = nameOf(identity.fullName, langCode);
      const composed = await notify.composeTemplate(email ? 'email' : 'sms', (email ?? phone)!, code, langCode, { ...variables, name });
      return (tx) => notify.queueIn(tx, composed);
    },
  };
}

/** A name as ID.json holds it: text, or [{language, value}]. */
function nameOf(value: unknown, langCode: string): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  const entries = value as { language?: unknown; value?: unknown }[];
  const chosen = entries.find((entry) => entry.language === langCode) ?? entries[0];
  return typeof chosen?.value === 'string' ? chosen.value : '';
}

/** REGPROC_DEDUPE=abis until the ABIS component plugs its de-duplication in (a stage meanwhile is REPROCESS). */
const awaitingAbis: Deduplication = {
  name: 'abis',
  check: () => Promise.reject(new Error('REGPROC_DEDUPE=abis, and no ABIS component has plugged in')),
};

/** The pipeline: packet receipt, the stages as jobs, manual adjudication, the stuck view. */
export const pipelineArea = defineArea({
  name: 'pipeline',
  access: {
    'Mutation.receiveRegistrationPacket': CLIENT_CALLS,
    'Mutation.resumeRegistrations': OPERATORS,
    'Query.stuckRegistrations': OPERATORS,
    'Query.registrationCounts': OPERATORS,
    'Mutation.assignManualVerification': OPERATORS,
    'Mutation.decideManualVerification': OPERATORS,
    'Registration.manualVerifications': OPERATORS,
  },
  schemas: pipelineSchemas,
  codeFor: regprocCodeFor,
  services: (deps, settings) => {
    const values = settings as RegprocSettings;
    const { keys, registrations, idSchemas } = deps.services;
    const store = new PipelineStorage(deps.prisma);
    const packets = new PacketFiles(deps.objects, (sealed, refId) => keys.decryptRegistration(sealed, refId));
    const dedupe =
      values.dedupe === 'local'
        ? new LocalDeduplication(store, deps.masterKey.derive('regproc-biometric-digest'))
        : values.dedupe === 'abis'
          ? awaitingAbis
          : noDeduplication;
    const work = new StageWork({
      packets,
      dedupe: (): Deduplication => pipeline.dedupe,
      validateIdentity: async (identity) => (await idSchemas.validateIdentity(identity)).problems.map((problem) => problem.message),
      identities: identityPort(deps),
      notice: residentNotice(deps),
    });
    const pipeline: PipelineService = new PipelineService(store, work, deps.jobs, deps.clock, values, deps.logger.child({ component: 'regproc' }), dedupe);
    const virusScanner = openVirusScanner({ ...(values.clamdUrl ? { url: values.clamdUrl } : {}), timeoutMs: values.clamdTimeoutMs });
    const base = (deps.config.publicUrl ?? `http://localhost:${deps.config.port}`).replace(/\/$/, '');
    return {
      pipeline,
      virusScanner,
      packetFiles: packets,
      pipelineStorage: store,
      packetReceiver: new PacketReceiverService(
        { store, pipeline, packets, scanner: virusScanner, clock: deps.clock, maxPacketBytes: Math.min(values.maxPacketBytes, deps.config.uploadMaxBytes) },
        deps.uploads,
        (caller, centreId) => registrations.reaches(caller, centreId),
      ),
      manualVerification: new VerificationService(
        new VerificationStorage(deps.prisma),
        pipeline,
        deps.clock,
        (bioRefId) => `${base}/registrationprocessor/v1/bio-dedupe/biometricfile/${bioRefId}`,
      ),
    };
  },
  resolvers: (deps) => pipelineResolvers(deps),
});
