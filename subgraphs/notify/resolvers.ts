import type { Notification } from '../../generated/prisma/client.js';
import type { EmailInput, NotificationService } from './service.js';

export function notifyResolvers(service: NotificationService) {
  return {
    Query: {
      outbox: (_: unknown, args: { to?: string; channel?: string; limit?: number }) => service.outbox(args),
      notificationTemplates: () => service.templates(),
    },
    Mutation: {
      sendSms: (_: unknown, args: { number: string; message: string }) => service.sendSms(args.number, args.message),
      sendEmail: (_: unknown, args: EmailInput) => service.sendEmail(args),
      saveNotificationTemplate: (_: unknown, args: { code: string; langCode: string; channel: string; subject?: string; body: string }) => service.saveTemplate(args),
    },
    OutboxMessage: {
      createdAt: (row: Notification) => row.createdAt.toISOString(),
      sentAt: (row: Notification) => row.sentAt?.toISOString() ?? null,
    },
  };
}
