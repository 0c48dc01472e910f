import type { PlatformDeps } from '../../../lib/deps.js';
import { PlatformError } from '../../../lib/errors.js';
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
import type { ResidentBiometrics } from './authenticate.js';
import type { MakersPort } from './makers.js';
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

/** A stored identity's biometrics (CBEFF), read as the processor (the read joins the identity's trail); null when it has none or none exists. */
async function storedBiometrics(deps: PlatformDeps, lookup: { uin: string } | { rid: string }): Promise<Buffer | null> {
  try {
    const record = await deps.services.identities.read(PROCESSOR, lookup, 'bio');
    const file = record.documents.find((document) => document.category === 'individualBiometrics');
    return file ? Buffer.from(file.value, 'base64') : null;
  } catch (error) {
    if (error instanceof PlatformError && error.code === 'IDR-IDC-007') return null;
    throw error;
  }
}

/** Who made a packet, as master data and auth know them (makers.ts). */
function makersPort(deps: PlatformDeps): MakersPort {
  return {
    placement: (centreId, machineId) => deps.services.machines.placement(centreId, machineId),
    accounts: async (userIds) => {
      const users = await deps.services.users.usersById(userIds);
      return new Map([...users].map(([userId, user]) => [userId, { isLocked: user.isLocked, roles: user.roles, rid: user.rid }]));
    },
    mappedAt: (centreId, userId, at) => deps.services.userPlaces.workedAt(centreId, userId, at),
    biometricsOfRegistration: (rid) => storedBiometrics(deps, { rid }),
  };
}

/** The identity a change names, for the resident's biometric authentication. */
function residentBiometrics(deps: PlatformDeps): ResidentBiometrics {
  return {
    ofUin: async (uin) => {
      const row = await deps.services.identities.byUin(uin);
      return row ? { biometrics: await storedBiometrics(deps, { uin }), referenceId: row.biometricReferenceId } : null;
    },
  };
}

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
    sameIdentity: async (uin, rids) => {
      const target = await identities.byUin(uin);
      if (!target) return new Set();
      const rows = await identities.byRegistrations(rids);
      return new Set(rids.filter((rid) => rows.get(rid)?.id === target.id));
    },
    update: async (rid, identity, status, documents, bioRefId) =>
      void (await identities.update(PROCESSOR, { registrationId: rid, identity, documents, status, ...(bioRefId ? { biometricReferenceId: bioRefId } : {}) })),
  };
}

/** A contact field of an identity as text, or null. */
const contactField = (identity: Record<string, unknown> | undefined, field: 'email' | 'phone'): string | null => {
  const value = identity?.[field];
  return typeof value === 'string' && value.trim() ? value.trim() : null;
};

/**
 * The resident's notice: to the identity's e-mail, else its phone, in the
 * registration's language; and when a change replaced the e-mail or phone,
 * the previous ones hear of it too (RPR_CONTACT_CHANGED).
 */
function residentNotice(deps: PlatformDeps): ResidentNotice {
  const { notify } = deps.services;
  return {
    compose: async (identity, langCode, code, variables, previous) => {
      const email = contactField(identity, 'email');
      const phone = contactField(identity, 'phone');
      const name = nameOf(identity.fullName, langCode);
      const messages = email || phone ? [await notify.composeTemplate(email ? 'email' : 'sms', (email ?? phone)!, code, langCode, { ...variables, name })] : [];
      const replaced = (['email', 'phone'] as const).flatMap((field) => {
        const before = contactField(previous, field);
        return before && before.toLowerCase() !== contactField(identity, field)?.toLowerCase() ? [{ field, before }] : [];
      });
      for (const { field, before } of replaced)
        messages.push(await notify.composeTemplate(field === 'email' ? 'email' : 'sms', before, 'RPR_CONTACT_CHANGED', langCode, { ...variables, name }));
      if (!messages.length) return null;
      return async (tx) => {
        for (const message of messages) await notify.queueIn(tx, message);
      };
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
    'Subscription.stuckRegistrations': OPERATORS,
    'Subscription.registrationCounts': OPERATORS,
    'Mutation.assignManualVerification': OPERATORS,
    'Mutation.decideManualVerification': OPERATORS,
    'Mutation.adjudicateRegistration': OPERATORS,
    'Query.manualVerifications': OPERATORS,
    'Registration.assignee': OPERATORS,
    'Registration.manualVerifications': OPERATORS,
  },
  schemas: pipelineSchemas,
  codeFor: regprocCodeFor,
  services: (deps, settings) => {
    const values = settings as RegprocSettings;
    const { keys, registrations, idSchemas } = deps.services;
    const store = new PipelineStorage(deps.prisma);
    const packets = new PacketFiles(deps.objects, (sealed, refId) => keys.decryptRegistration(sealed, refId), values);
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
      makers: makersPort(deps),
      residents: residentBiometrics(deps),
      processed: (event) => deps.events.publish('registration.processed', event),
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
