import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { licenseResolvers } from './resolvers.js';
import { LicenseService } from './service.js';

/** The license key manager: MISP license keys, permissions and status. */
export const license: Component = {
  name: 'license',
  async build(deps: PlatformDeps) {
    const service = new LicenseService(deps.prisma, deps.masterKey, deps.clock, deps.config.license);
    return buildComponentSchema('license', licenseResolvers(service), deps.config.specOpenEndpoints);
  },
};
