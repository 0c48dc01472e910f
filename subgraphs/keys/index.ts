import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { KeyStore } from './key-store.js';
import { loadKeyPolicy } from './policy.js';
import { keysResolvers } from './resolvers.js';
import { KeysService } from './service.js';

/** Key manager, crypto manager, signature service and the sync data key endpoints. */
export const keys: Component = {
  name: 'keys',
  async services(deps: PlatformDeps) {
    const keys = new KeysService(deps.prisma, new KeyStore(deps.prisma, deps.masterKey, deps.clock, loadKeyPolicy(deps.config.keyPolicyJson)), deps.clock);
    // The platform's own keys exist before the first request that needs them.
    await keys.ensurePlatformKeys();
    return { keys };
  },
  async build(deps: PlatformDeps) {
    return buildComponentSchema('keys', keysResolvers(deps.services.keys), deps.config.specOpenEndpoints);
  },
};
