import type { Resolvers } from '../../generated/graphql/notify.js';
import type { RequestContext } from '../../lib/context.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import type { NotificationService } from './service.js';

/** The service's channel (email, sms) as the graph's enum. */
const graphChannel = (channel: string) => channel.toUpperCase() as 'EMAIL' | 'SMS';

export function notifyResolvers(service: NotificationService): Resolvers {
  const notificationRef = (context: RequestContext) => loader(context, 'notify.notification', (ids: readonly string[]) => service.byIds(ids));
  const templateRef = (context: RequestContext) =>
    loader(context, 'notify.template', async (keys: readonly string[]) =>
      service.templatesByKey(
        keys.map((key) => {
          const [code = '', langCode = '', channel = ''] = key.split('\0');
          return { code, langCode, channel };
        }),
      ),
    );
  return {
    DateTime: DateTimeScalar,
    Query: {
      outbox: (_, args) => service.outbox(args),
      notifications: (_, args) => service.notifications(args, args.filter),
      notificationTemplates: (_, args) => service.templates(args),
    },
    Mutation: {
      sendSms: (_, args) => service.sendSms(args.number, args.message),
      sendEmail: (_, args) => service.sendEmail(args),
      saveNotificationTemplate: (_, args) => service.saveTemplate(args),
    },
    Notification: {
      __resolveReference: (ref, context) => notificationRef(context)(ref.id),
      channel: (row) => graphChannel(row.channel),
    },
    NotificationTemplate: {
      // A representation names the graph's channel (EMAIL); rows spell it as the service does (email).
      __resolveReference: (ref, context) => templateRef(context)(`${ref.code}\0${ref.langCode}\0${ref.channel.toLowerCase()}`),
      channel: (row) => graphChannel(row.channel),
    },
  };
}
