import { defineArea } from '../area.js';
import { CentreStorage } from '../centres/storage/centres.js';
import { ClientPlaces, MasterdataChanges } from './service.js';
import { ChangesStorage, ClientPlaceStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** master data's rows for another component's copy: all live ones, or those changed since (sync data's client settings, pre-registration) */
    masterdataChanges: MasterdataChanges;
    /** where a registration client stands: its machine by name and that machine's centre, a centre's active staff */
    clientPlaces: ClientPlaces;
  }
}

/** What other components read of master data to keep their copy of it: no GraphQL field, no REST route, services only. */
export const changesArea = defineArea({
  name: 'changes',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: (deps) => ({
    masterdataChanges: new MasterdataChanges(new ChangesStorage(deps.prisma)),
    clientPlaces: new ClientPlaces(new ClientPlaceStorage(deps.prisma), new CentreStorage(deps.prisma)),
  }),
  resolvers: () => ({}),
});
