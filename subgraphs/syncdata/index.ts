import type { PlatformDeps } from '../../lib/deps.js';
import { defineComponent } from '../component.js';
import { syncdataAccess } from './access.js';
import { loadRegistrationConfiguration } from './config-files.js';
import { syncdataInputs } from './inputs.js';
import { syncdataResolvers } from './resolvers.js';
import { SyncDataService } from './service.js';
import { syncdataSettings } from './settings.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** registration client sync: configuration, roles, centre users, client settings */
    syncdata: SyncDataService;
  }
}

/**
 * Sync data for registration clients. The machine key routes of
 * /v1/syncdata (tpm/publickey, publickey) belong to keys.
 */
export const syncdata = defineComponent({
  name: 'syncdata',
  uses: ['keys', 'auth', 'masterdata'],
  access: syncdataAccess,
  inputs: syncdataInputs,
  settings: syncdataSettings,
  // The configuration files are read here, once: a missing or incomplete file stops the start.
  services: (deps: PlatformDeps, settings) => {
    const syncdata = new SyncDataService(
      { registrationConfiguration: loadRegistrationConfiguration(settings.registrationConfigFile), globalConfiguration: deps.globalConfiguration },
      {
        clock: deps.clock,
        changes: deps.services.masterdataChanges,
        places: deps.services.clientPlaces,
        reach: deps.services.centreReach,
        machineKeys: deps.services.keys,
        users: deps.services.users,
      },
    );
    // The sample centre's registration staff (README, "Sample country"): heard in whichever process master data loads the country.
    deps.events.on('sampleCountry.loaded', 'syncdata', async () => {
      const added = await syncdata.addSampleStaff();
      if (added.length) deps.logger.info({ userIds: added }, 'sample country: registration staff created without passwords (an admin sets them)');
    });
    return { syncdata };
  },
  resolvers: (deps) => syncdataResolvers(deps.services.syncdata),
});
