import type { PlatformDeps } from '../../lib/deps.js';
import { defineComponent } from '../component.js';
import { notifyAccess } from './access.js';
import { notifyInputs } from './inputs.js';
import { notifyResolvers } from './resolvers.js';
import { NotificationService, RECIPIENT_KEY_PURPOSE } from './service.js';
import { notifySettings } from './settings.js';
import { NotificationStorage, TemplateStorage } from './storage.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** e-mail and SMS, templates, the outbox */
    notify: NotificationService;
  }
}

/** SMS and e-mail notification, with the outbox and delivery retries. */
export const notify = defineComponent({
  name: 'notify',
  uses: ['keys'],
  access: notifyAccess,
  inputs: notifyInputs,
  settings: notifySettings,
  services(deps: PlatformDeps, settings) {
    const service = new NotificationService(
      { notifications: new NotificationStorage(deps.prisma), templates: new TemplateStorage(deps.prisma) },
      deps.clock,
      settings,
      deps.logger.child({ component: 'notify' }),
      deps.services.keys,
      deps.masterKey.derive(RECIPIENT_KEY_PURPOSE),
      deps.jobs,
    );
    deps.onClose(() => service.stop());
    return { notify: service };
  },
  resolvers: (deps) => notifyResolvers(deps.services.notify),
});
