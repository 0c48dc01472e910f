import type { Prisma, PrismaClient, User } from '../../../generated/prisma/client.js';
import { likeLiteral } from '../../../lib/db/like.js';
import { connection, orderBy, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';

export type UserRow = User;

const USER_ORDER = { USER_ID: 'userId', CREATED_AT: 'createdAt' } as const;

export interface UserOrder {
  field: keyof typeof USER_ORDER;
  direction: 'ASC' | 'DESC';
}

/** Which users a list shows: parts of the id and name (any case, taken literally), a role, an application, the lock, and the ids a scope allows (null: any). */
export interface UserQuery {
  userId?: string | null;
  name?: string | null;
  role?: string | null;
  appId?: string | null;
  isLocked?: boolean | null;
  among: ReadonlySet<string> | null;
}

/** A user as it is first stored; an absent column takes the table's default. */
export interface NewUser {
  userId: string;
  name?: string | null;
  mail?: string | null;
  mobile?: string | null;
  langCode?: string;
  rid?: string | null;
  roles: string[];
  appIds: string[];
  passwordHash?: string | null;
  passwordChangedAt?: Date;
}

/** The columns a change may set; an absent one stays. */
export type UserChanges = Partial<
  Pick<UserRow, 'name' | 'mail' | 'mobile' | 'langCode' | 'rid' | 'roles' | 'appIds' | 'isLocked' | 'passwordHash' | 'passwordChangedAt'>
>;

/** The users' table as the rules see them: the seam a test fills with rows in memory. */
export interface UserStore {
  byId(userId: string): Promise<UserRow | null>;
  byIds(userIds: readonly string[]): Promise<UserRow[]>;
  /** A page of the users the query selects, in the order asked (the unique user id breaks ties), and their count. */
  page(page: PageArgs, query: UserQuery, order?: UserOrder | null): Promise<Connection<UserRow>>;
  count(): Promise<number>;
  create(user: NewUser): Promise<UserRow>;
  update(userId: string, changes: UserChanges): Promise<UserRow>;
  /** Stores the user unless the id is taken (by another instance starting at once too): true when this call stored it. */
  insertIfAbsent(user: NewUser): Promise<boolean>;
  /** The user of that id, created as `user` when there is none yet (in one statement). */
  findOrCreate(user: NewUser): Promise<UserRow>;
}

/** The authentication manager's users (auth_user): the only code that touches the table. */
export class UserStorage implements UserStore {
  constructor(private readonly prisma: PrismaClient) {}

  byId(userId: string): Promise<UserRow | null> {
    return this.prisma.user.findUnique({ where: { userId } });
  }

  byIds(userIds: readonly string[]): Promise<UserRow[]> {
    return this.prisma.user.findMany({ where: { userId: { in: [...userIds] } } });
  }

  page(page: PageArgs, query: UserQuery, order?: UserOrder | null): Promise<Connection<UserRow>> {
    const where: Prisma.UserWhereInput = {
      AND: [
        query.userId ? { userId: { contains: likeLiteral(query.userId), mode: 'insensitive' } } : {},
        query.name ? { name: { contains: likeLiteral(query.name), mode: 'insensitive' } } : {},
        query.role ? { roles: { has: query.role } } : {},
        query.appId ? { appIds: { has: query.appId } } : {},
        query.isLocked != null ? { isLocked: query.isLocked } : {},
        query.among ? { userId: { in: [...query.among] } } : {},
      ],
    };
    return connection(
      page,
      (user) => user.userId,
      (args) => this.prisma.user.findMany({ where, ...pageArgs(args, 'userId'), orderBy: orderBy(order, USER_ORDER, 'USER_ID', 'userId') }),
      () => this.prisma.user.count({ where }),
    );
  }

  count(): Promise<number> {
    return this.prisma.user.count();
  }

  create(user: NewUser): Promise<UserRow> {
    return this.prisma.user.create({ data: user });
  }

  update(userId: string, changes: UserChanges): Promise<UserRow> {
    return this.prisma.user.update({ where: { userId }, data: changes });
  }

  async insertIfAbsent(user: NewUser): Promise<boolean> {
    const { count } = await this.prisma.user.createMany({ data: [user], skipDuplicates: true });
    return count === 1;
  }

  findOrCreate(user: NewUser): Promise<UserRow> {
    return this.prisma.user.upsert({ where: { userId: user.userId }, create: user, update: {} });
  }
}
