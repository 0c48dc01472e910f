import type { PlatformDeps } from '../../lib/deps.js';
import { defineComponent } from '../component.js';
import { licenseAccess } from './access.js';
import { licenseInputs } from './inputs.js';
import { licenseResolvers } from './resolvers.js';
import { LicenseService } from './service.js';
import { licenseSettings } from './settings.js';
import { licenseStorage } from './storage.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** MISP license keys: generation, permissions, status */
    license: LicenseService;
  }
}

/** The license key manager: MISP license keys, permissions and status. */
export const license = defineComponent({
  name: 'license',
  access: licenseAccess,
  inputs: licenseInputs,
  settings: licenseSettings,
  services: (deps: PlatformDeps, settings) => ({ license: new LicenseService(licenseStorage(deps.prisma), deps.masterKey, deps.clock, settings, deps.events) }),
  resolvers: (deps) => licenseResolvers(deps.services.license),
});
