import type { NotificationTemplate } from '../../generated/prisma/client.js';
import type { Connection } from '../../lib/graph/connection.js';
import type { OutboxMessage } from './service.js';

export type NotificationConnectionModel = Connection<OutboxMessage>;
export type NotificationTemplateConnectionModel = Connection<NotificationTemplate>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  Notification: './service.js#OutboxMessage',
  NotificationTemplate: '../../generated/prisma/client.js#NotificationTemplate',
  NotificationConnection: './graph-mappers.js#NotificationConnectionModel',
  NotificationTemplateConnection: './graph-mappers.js#NotificationTemplateConnectionModel',
};
