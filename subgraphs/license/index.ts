import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { licenseResolvers } from './resolvers.js';
import { LicenseService } from './service.js';

/** The license key manager: MISP license keys, permissions and status. */
export const license: Component = {
  name: 'license',
  services: (deps: PlatformDeps) => ({ license: new LicenseService(deps.prisma, deps.masterKey, deps.clock, deps.config.license) }),
  async build(deps: PlatformDeps) {
    return buildComponentSchema('license', licenseResolvers(deps.services.license), deps.config.specOpenEndpoints);
  },
};
