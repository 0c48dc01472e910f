import type { RequestContext } from '../../lib/context.js';
import type { PageArgs } from '../../lib/graph/connection.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import type { EmailInput, NotificationService } from './service.js';

type TemplateKey = { code: string; langCode: string; channel: string };

export function notifyResolvers(service: NotificationService) {
  const notificationRef = (context: RequestContext) => loader(context, 'notify.notification', (ids: readonly string[]) => service.byIds(ids));
  const templateRef = (context: RequestContext) => loader(context, 'notify.template', async (keys: readonly string[]) =>
    service.templatesByKey(keys.map((key) => {
      const [code = '', langCode = '', channel = ''] = key.split('\0');
      return { code, langCode, channel };
    })));
  return {
    DateTime: DateTimeScalar,
    Query: {
      outbox: (_: unknown, args: { to?: string; channel?: string; limit?: number }) => service.outbox(args),
      notifications: (_: unknown, args: PageArgs & { filter?: { to?: string | null; channel?: string | null; status?: string | null } | null }) => service.notifications(args, args.filter),
      notificationTemplates: (_: unknown, args: PageArgs) => service.templates(args),
    },
    Mutation: {
      sendSms: (_: unknown, args: { number: string; message: string }) => service.sendSms(args.number, args.message),
      sendEmail: (_: unknown, args: EmailInput) => service.sendEmail(args),
      saveNotificationTemplate: (_: unknown, args: { code: string; langCode: string; channel: string; subject?: string; body: string }) => service.saveTemplate(args),
    },
    Notification: {
      __resolveReference: (ref: { id: string }, context: RequestContext) => notificationRef(context)(ref.id),
    },
    NotificationTemplate: {
      __resolveReference: (ref: TemplateKey, context: RequestContext) => templateRef(context)(`${ref.code}\0${ref.langCode}\0${ref.channel}`),
    },
  };
}
