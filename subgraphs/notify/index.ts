import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { notifyResolvers } from './resolvers.js';
import { NotificationService } from './service.js';

export const notificationServiceOf = (deps: PlatformDeps) =>
  new NotificationService(deps.prisma, deps.clock, deps.config.notify, deps.logger.child({ component: 'notify' }));

/** SMS and e-mail notification, with the outbox and delivery retries. */
export const notify: Component = {
  name: 'notify',
  async build(deps: PlatformDeps) {
    const service = notificationServiceOf(deps);
    service.startRetries();
    deps.onClose(() => service.stop());
    return buildComponentSchema('notify', notifyResolvers(service), deps.config.specOpenEndpoints);
  },
};
