import type { PlatformDeps } from '../../../lib/deps.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { ApplicationStorage } from '../applications/storage.js';
import { DocumentStorage } from '../documents/storage.js';
import { documentReader } from './documents.js';
import { ArchiveFetch, type MachinePlace } from './fetch-archive.js';
import { syncCodeFor, syncSchemas } from './inputs.js';
import type { CentreReachPort } from './reach.js';
import { syncResolvers } from './resolvers.js';
import { SyncService } from './service.js';
import { SyncStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the registration client's sync of a centre's appointments, and the ids registration consumed */
    preregSync: SyncService;
    /** one pre-registration for a registration client (or an admin): its ZIP */
    preregArchives: ArchiveFetch;
  }
}

/** A centre's registration staff and the admins whose zones reach it (master data's reach decides which centre). */
const STAFF = access.roles('REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_ADMIN', 'ZONAL_ADMIN', 'GLOBAL_ADMIN');
/** The unsealed ZIP is for admins only: staff fetch through their machine, whose key seals it. */
const ADMINS = access.roles('REGISTRATION_ADMIN', 'ZONAL_ADMIN', 'GLOBAL_ADMIN');
/** Consumed ids come from the registration processor (MOSIP's reverse data sync) and from the centres. */
const REPORTERS = access.roles(
  'REGISTRATION_PROCESSOR',
  'REGISTRATION_OFFICER',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_ADMIN',
  'ZONAL_ADMIN',
  'GLOBAL_ADMIN',
);

/** Master data's machine by id, as sync reads it: its active row and its centre, when that centre is live and active. */
async function machineWithId(deps: PlatformDeps, machineId: string): Promise<MachinePlace> {
  const { known, machine, centre } = await deps.services.clientPlaces.machineWithId(machineId);
  return { known, machine, centreId: centre?.isActive ? centre.id : null };
}

/**
 * Sync: the registration client lists its centre's appointments and fetches
 * each application; registration reports what it took in (or a processed
 * packet names it), and a job moves consumed applications to the history.
 */
export const syncArea = defineArea({
  name: 'sync',
  access: {
    'Query.preRegistrationSync': STAFF,
    'Query.preRegistrationForMachine': STAFF,
    'Query.preRegistrationArchive': ADMINS,
    'Mutation.reportConsumedPreRegistrations': REPORTERS,
  },
  schemas: syncSchemas,
  codeFor: syncCodeFor,
  services: (deps) => {
    const { centreReach, clientPlaces, keyInventory, documents, preregApplications, preregCipher } = deps.services;
    const store = new SyncStorage(deps.prisma);
    const applications = new ApplicationStorage(deps.prisma);
    const reach: CentreReachPort = { of: (caller) => centreReach.of(caller), centreExists: (id) => clientPlaces.centreExists(id) };
    const logger = deps.logger.child({ component: 'prereg-sync' });
    const preregSync = new SyncService({
      store,
      reach,
      documentKeys: (preRegId) => applications.documentKeys(preRegId),
      objects: deps.objects,
      jobs: deps.jobs,
      clock: deps.clock,
      logger,
    });
    const preregArchives = new ArchiveFetch({
      store,
      reach,
      identityOf: (place) => preregApplications.identityOf(place.application),
      documentsOf: documentReader(new DocumentStorage(deps.prisma), preregCipher, deps.objects),
      typeName: (code, langCode) =>
        documents.types.one(code, langCode).then(
          (row) => row.name,
          () => code,
        ),
      machineWithId: (machineId) => machineWithId(deps, machineId),
      machineKey: async (caller, name) => (await keyInventory.machineKeysByName(caller, [name])).get(name)?.publicKey ?? null,
      moveStatus: (preRegId, from, to, by, at) => applications.moveStatus(preRegId, from, to, by, at),
      clock: deps.clock,
      logger,
    });
    // A processed packet that names a pre-registration consumes it: the job is enqueued in the outcome's own transaction.
    deps.events.on('registration.processed', 'prereg-sync', (event) => preregSync.registrationProcessed(event));
    return { preregSync, preregArchives };
  },
  resolvers: (deps) => syncResolvers(deps),
});
