import type { Client, Session, User } from '../../generated/prisma/client.js';
import type { Connection } from '../../lib/graph/connection.js';

export type UserConnectionModel = Connection<User>;
export type ClientConnectionModel = Connection<Client>;
export type SessionConnectionModel = Connection<Session>;

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  User: '../../generated/prisma/client.js#User',
  Client: '../../generated/prisma/client.js#Client',
  Session: '../../generated/prisma/client.js#Session',
  // the token's facts; permissions are resolved from the role table
  Viewer: './service.js#Viewer',
  UserConnection: './graph-mappers.js#UserConnectionModel',
  ClientConnection: './graph-mappers.js#ClientConnectionModel',
  SessionConnection: './graph-mappers.js#SessionConnectionModel',
};
