import { DEVICE_READERS, MASTERDATA_READERS, MASTERDATA_WRITERS, REGISTRATION_STAFF } from '../access.js';
import { defineArea } from '../area.js';
import { LanguageStorage } from '../storage.js';
import { centresCodeFor, centresSchemas } from './inputs.js';
import { MachineService } from './machines.js';
import { CentreReach } from './reach.js';
import { References } from './references.js';
import { centresResolvers } from './resolvers.js';
import { CentreService } from './service.js';
import { CentreUserStorage } from './storage/centre-users.js';
import { CentreStorage } from './storage/centres.js';
import { centreListsStorage } from './storage/lists.js';
import { MachineStorage } from './storage/machines.js';
import { UserPlaces } from './user-places.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** registration centres, their working days and users */
    centres: CentreService;
    /** registration client machines */
    machines: MachineService;
    /** which centres, machines and centre staff a caller reaches (its zones, the centre it works at) */
    centreReach: CentreReach;
    /** where users are placed (their zones, their centre): what auth's users list filters and scopes by */
    userPlaces: UserPlaces;
  }
}

/** Registration centres (with working days and users) and machines. */
export const centresArea = defineArea({
  name: 'centres',
  access: {
    'Query.registrationCentre': MASTERDATA_READERS,
    'Query.registrationCentresOfLanguage': MASTERDATA_READERS,
    'Query.registrationCentreWorkingDays': MASTERDATA_READERS,
    'Query.registrationCentres': MASTERDATA_READERS,
    'Query.machine': REGISTRATION_STAFF,
    'Query.machinesOfLanguage': REGISTRATION_STAFF,
    'Query.machines': REGISTRATION_STAFF,
    'Mutation.createRegistrationCentre': MASTERDATA_WRITERS,
    'Mutation.updateRegistrationCentre': MASTERDATA_WRITERS,
    'Mutation.deleteRegistrationCentre': MASTERDATA_WRITERS,
    'Mutation.createMachine': MASTERDATA_WRITERS,
    'Mutation.updateMachine': MASTERDATA_WRITERS,
    'Mutation.deleteMachine': MASTERDATA_WRITERS,
    'Mutation.mapUserToCentre': MASTERDATA_WRITERS,
    'Mutation.unmapUserFromCentre': MASTERDATA_WRITERS,
    'RegistrationCentre.__resolveReference': MASTERDATA_READERS,
    'Machine.__resolveReference': REGISTRATION_STAFF,
    // A resident may find a centre, not who works there or which machines it runs.
    'RegistrationCentre.users': REGISTRATION_STAFF,
    'RegistrationCentre.userCount': REGISTRATION_STAFF,
    'RegistrationCentre.machines': REGISTRATION_STAFF,
    // Devices and zones are the admins' (as Query.devices and Query.zones); a centre's place and holidays are any reader's.
    'RegistrationCentre.devices': DEVICE_READERS,
    'RegistrationCentre.zone': DEVICE_READERS,
    'RegistrationCentre.location': MASTERDATA_READERS,
    'RegistrationCentre.holidays': MASTERDATA_READERS,
    // The centre a user works at: who works where is for registration staff and admins (as RegistrationCentre.users), each within its reach.
    'User.registrationCentre': REGISTRATION_STAFF,
  },
  schemas: centresSchemas,
  codeFor: centresCodeFor,
  services: (deps) => {
    const centreStore = new CentreStorage(deps.prisma);
    const userStore = new CentreUserStorage(deps.prisma);
    // Users belong to auth, which master data uses.
    const { users } = deps.services;
    const userExists = async (userId: string) => (await users.usersById([userId])).has(userId);
    // Zones and devices are the devices area's, locations the holidays area's, built before this one.
    const { zones, devices, locations } = deps.services;
    const references = new References(new LanguageStorage(deps.prisma), centreStore, locations, zones);
    const centreReach = new CentreReach(centreStore, userStore, zones);
    const userPlaces = new UserPlaces(userStore, zones, centreReach);
    // Auth's users list filters and scopes by where users are placed: master data's answer, plugged into auth.
    deps.services.userPlacesPort.plug(userPlaces);
    const machines = new MachineService(new MachineStorage(deps.prisma), deps.clock, references, zones, centreReach);
    // The key manager maps and lists machines' keys for whoever reaches the machine: master data's answer, plugged into it.
    deps.services.machineReachPort.plug(machines);
    return {
      centreReach,
      userPlaces,
      centres: new CentreService(centreStore, userStore, deps.clock, references, userExists, zones, centreListsStorage(deps.prisma), devices, deps.events),
      machines,
    };
  },
  resolvers: (deps) => centresResolvers(deps.services),
});
