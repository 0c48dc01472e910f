import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';

/** The license key manager (being built). */
export const license: Component = {
  name: 'license',
  async build(deps: PlatformDeps) {
    return buildComponentSchema('license', {}, deps.config.specOpenEndpoints);
  },
};
