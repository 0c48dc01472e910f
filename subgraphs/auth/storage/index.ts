import type { Database } from '../../../lib/db/client.js';
import { ClientStorage, type ClientStore } from './clients.js';
import { SessionStorage, type SessionStore } from './sessions.js';
import { ThrottleStorage, type ThrottleStore } from './throttle.js';
import { UserStorage, type UserStore } from './users.js';

/** The authentication manager's tables, each behind the interface its rules see. */
export interface AuthStorage {
  users: UserStore;
  clients: ClientStore;
  sessions: SessionStore;
  throttle: ThrottleStore;
}

/** The authentication manager's tables in the platform's database (the wiring in index.ts hands it over). */
export function authStorage(database: Pick<Database, 'prisma' | 'subscribe'>): AuthStorage {
  return {
    users: new UserStorage(database.prisma),
    clients: new ClientStorage(database),
    sessions: new SessionStorage(database.prisma),
    throttle: new ThrottleStorage(database.prisma),
  };
}
