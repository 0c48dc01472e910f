import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { authResolvers } from './resolvers.js';
import { AuthService } from './service.js';

/** The authentication manager: logins, token validation and invalidation. */
export const auth: Component = {
  name: 'auth',
  async build(deps: PlatformDeps) {
    const service = new AuthService(deps);
    await service.bootstrap();
    return buildComponentSchema('auth', authResolvers(service));
  },
};
