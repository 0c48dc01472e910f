import type { Client, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { Database, Subscription, SubscriptionHandlers } from '../../../lib/db/client.js';
import { likeLiteral } from '../../../lib/db/like.js';
import { listenToTriggers } from '../../../lib/db/triggers.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';

export type ClientRow = Client;
/** What a client login needs of its row. */
export type LoginClient = Pick<Client, 'clientId' | 'secretHash' | 'roles' | 'appIds' | 'isActive'>;
export type { Subscription as ClientSubscription, SubscriptionHandlers as ClientChangeHandlers };

export interface ClientFilter {
  clientId?: string | null;
  role?: string | null;
  appId?: string | null;
  isActive?: boolean | null;
}

/** A client as it is first stored: its secret only as an HMAC. */
export interface NewClient {
  clientId: string;
  secretHash: string;
  roles: string[];
  appIds: string[];
  isActive?: boolean;
}

/** The columns a change may set; an absent one stays. */
export type ClientChanges = Partial<Pick<ClientRow, 'roles' | 'appIds' | 'isActive' | 'secretHash'>>;

/** The clients' table as the rules see it: the seam a test fills with rows in memory. */
export interface ClientStore {
  byId(clientId: string): Promise<ClientRow | null>;
  byIds(clientIds: readonly string[]): Promise<ClientRow[]>;
  /** A page of clients by id, and their count. */
  page(page: PageArgs, filter?: ClientFilter | null): Promise<Connection<ClientRow>>;
  create(client: NewClient): Promise<ClientRow>;
  update(clientId: string, changes: ClientChanges): Promise<ClientRow>;
  /** Stores the client unless the id is taken: true when this call stored it. */
  insertIfAbsent(client: NewClient): Promise<boolean>;
  /** The columns a login checks, read in one statement. */
  loginClient(clientId: string): Promise<LoginClient | null>;
  /** Listens to every change of a client row (by id), on every instance: a trigger announces it. */
  listen(handlers: SubscriptionHandlers): Promise<Subscription>;
}

const CHANNEL = 'auth_client_changed';
const TRIGGER_SQL = [
  `CREATE OR REPLACE FUNCTION auth_client_announce_change() RETURNS trigger AS $$
   BEGIN
     PERFORM pg_notify('${CHANNEL}', OLD."clientId");
     RETURN NULL;
   END $$ LANGUAGE plpgsql`,
  `CREATE OR REPLACE TRIGGER auth_client_announce_change AFTER UPDATE OR DELETE ON auth_client
   FOR EACH ROW EXECUTE FUNCTION auth_client_announce_change()`,
];

/** The authentication manager's clients (auth_client): the only code that touches the table. */
export class ClientStorage implements ClientStore {
  constructor(private readonly database: Pick<Database, 'prisma' | 'subscribe'>) {}

  private get prisma(): PrismaClient {
    return this.database.prisma;
  }

  byId(clientId: string): Promise<ClientRow | null> {
    return this.prisma.client.findUnique({ where: { clientId } });
  }

  byIds(clientIds: readonly string[]): Promise<ClientRow[]> {
    return this.prisma.client.findMany({ where: { clientId: { in: [...clientIds] } } });
  }

  page(page: PageArgs, filter?: ClientFilter | null): Promise<Connection<ClientRow>> {
    const where: Prisma.ClientWhereInput = {
      ...(filter?.clientId ? { clientId: { contains: likeLiteral(filter.clientId), mode: 'insensitive' } } : {}),
      ...(filter?.role ? { roles: { has: filter.role } } : {}),
      ...(filter?.appId ? { appIds: { has: filter.appId } } : {}),
      ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
    };
    return connection(
      page,
      (client) => client.clientId,
      (query) => this.prisma.client.findMany({ where, ...pageArgs(query, 'clientId'), orderBy: { clientId: 'asc' } }),
      () => this.prisma.client.count({ where }),
    );
  }

  create(client: NewClient): Promise<ClientRow> {
    return this.prisma.client.create({ data: client });
  }

  update(clientId: string, changes: ClientChanges): Promise<ClientRow> {
    return this.prisma.client.update({ where: { clientId }, data: changes });
  }

  async insertIfAbsent(client: NewClient): Promise<boolean> {
    const { count } = await this.prisma.client.createMany({ data: [client], skipDuplicates: true });
    return count === 1;
  }

  async loginClient(clientId: string): Promise<LoginClient | null> {
    const [row] = await this.prisma.$queryRaw<LoginClient[]>`
      SELECT "clientId", "secretHash", roles, "appIds", "isActive" FROM auth_client WHERE "clientId" = ${clientId}`;
    return row ?? null;
  }

  listen(handlers: SubscriptionHandlers): Promise<Subscription> {
    return listenToTriggers(this.database, CHANNEL, TRIGGER_SQL, handlers);
  }
}
