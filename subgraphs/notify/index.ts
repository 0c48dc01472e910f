import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { notifyResolvers } from './resolvers.js';
import { NotificationService } from './service.js';

/** SMS and e-mail notification, with the outbox and delivery retries. */
export const notify: Component = {
  name: 'notify',
  services(deps: PlatformDeps) {
    const service = new NotificationService(deps.prisma, deps.clock, deps.config.notify, deps.logger.child({ component: 'notify' }), deps.services.keys);
    service.startSweeps();
    deps.onClose(() => service.stop());
    return { notify: service };
  },
  async build(deps: PlatformDeps) {
    return buildComponentSchema('notify', notifyResolvers(deps.services.notify), deps.config.specOpenEndpoints);
  },
};
