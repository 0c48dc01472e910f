import { access, type Role } from '../../lib/roles.js';

/** MOSIP's notifier callers: kernel services and admins. */
const NOTIFY_CALLERS: Role[] = [
  'GLOBAL_ADMIN',
  'ID_AUTHENTICATION',
  'RESIDENT',
  'REGISTRATION_PROCESSOR',
  'PRE_REGISTRATION_ADMIN',
  'REGISTRATION_ADMIN',
  'PARTNER_ADMIN',
];

export const notifyAccess = {
  'Mutation.sendSms': access.roles(...NOTIFY_CALLERS),
  'Mutation.sendEmail': access.roles(...NOTIFY_CALLERS),
  'Query.outbox': access.ADMIN,
  'Query.notificationTemplates': access.ADMIN,
  'Mutation.saveNotificationTemplate': access.ADMIN,
  'Query.notifications': access.ADMIN,
  'Notification.__resolveReference': access.ADMIN,
  'NotificationTemplate.__resolveReference': access.ADMIN,
};
