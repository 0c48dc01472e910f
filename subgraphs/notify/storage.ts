import type { Notification, NotificationTemplate, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { PlatformError } from '../../lib/errors.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import type { JobTx } from '../../lib/jobs/types.js';

export type NotificationRow = Notification;
export type TemplateRow = NotificationTemplate;

/** A message as it is first recorded: sealed content, the recipients' look-up keys, and whether a gateway will deliver it. */
export interface NewNotification {
  channel: string;
  recipientKeys: string[];
  subject: string | null;
  content: string;
  attachmentNames: string[];
  status: 'PENDING' | 'OUTBOX';
}

/** Which recorded messages a list shows: sent to every one of these look-up keys, of a channel, in a state. */
export interface NotificationQuery {
  recipientKeys?: string[];
  channel?: string | null;
  status?: string | null;
}

/** How one delivery attempt ended, as the row keeps it. */
export interface AttemptOutcome {
  status: 'PENDING' | 'FAILED';
  lastError: string;
  nextAttemptAt: Date | null;
}

export interface TemplateKey {
  code: string;
  langCode: string;
  channel: string;
}

/** The recorded messages as the rules see them: the seam a test fills with rows in memory. */
export interface NotificationStore {
  record(message: NewNotification): Promise<void>;
  /** Records the message and runs `then` with its id in the same transaction. */
  recordThen<T>(message: NewNotification, then: (id: string, tx: JobTx) => Promise<T>): Promise<T>;
  /** Records the message in the caller's transaction; its id. */
  recordIn(tx: JobTx, message: NewNotification): Promise<string>;
  byId(id: string): Promise<NotificationRow | null>;
  byIds(ids: readonly string[]): Promise<NotificationRow[]>;
  /**
   * Writes attempt `attempt`'s failure, only while the row is PENDING with
   * fewer attempts: attempts only grow, so a late writer of an earlier attempt
   * changes nothing.
   */
  recordFailure(id: string, attempt: number, outcome: AttemptOutcome): Promise<void>;
  /** Marks the row SENT by attempt `attempt` (its content dropped), on the same condition, and runs `then` in the same transaction. */
  recordSent(id: string, attempt: number, sentAt: Date, then: (tx: JobTx) => Promise<void>): Promise<void>;
  /** Drops content and look-up keys of every message no longer being delivered (not PENDING) created before `before`; how many rows changed. */
  dropPersonalData(before: Date): Promise<number>;
  /** The newest `take` messages the query selects. */
  newest(query: NotificationQuery, take: number): Promise<NotificationRow[]>;
  /** A page of the messages the query selects, newest first (the unique id breaks ties), and their count. */
  page(page: PageArgs, query: NotificationQuery): Promise<Connection<NotificationRow>>;
  /** The messages still to deliver (PENDING) and when the oldest was recorded (metrics); a store in memory may go without. */
  backlog?(): Promise<{ count: number; oldestAt: Date | null }>;
}

/** The templates as the rules see them. */
export interface TemplateStore {
  /** The templates of a purpose and channel in these languages. */
  forPurpose(code: string, channel: string, langCodes: string[]): Promise<TemplateRow[]>;
  /** Creates or replaces the template of its code, language and channel. */
  save(template: TemplateRow): Promise<TemplateRow>;
  /** Templates by code, language and channel (their composite key). */
  page(page: PageArgs): Promise<Connection<TemplateRow>>;
  byKeys(keys: readonly TemplateKey[]): Promise<TemplateRow[]>;
}

const whereOf = (query: NotificationQuery): Prisma.NotificationWhereInput => ({
  ...(query.recipientKeys ? { recipientKeys: { hasEvery: query.recipientKeys } } : {}),
  ...(query.channel ? { channel: query.channel } : {}),
  ...(query.status ? { status: query.status } : {}),
});

/** The rows of an attempt still to write: PENDING, with fewer attempts. */
const current = (id: string, attempt: number): Prisma.NotificationWhereInput => ({ id, status: 'PENDING', attempts: { lt: attempt } });

/** The notification service's messages (notification): the only code that touches the table. */
export class NotificationStorage implements NotificationStore {
  constructor(private readonly prisma: PrismaClient) {}

  async record(message: NewNotification): Promise<void> {
    await this.prisma.notification.create({ data: message });
  }

  recordThen<T>(message: NewNotification, then: (id: string, tx: JobTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.notification.create({ data: message, select: { id: true } });
      return then(row.id, tx);
    });
  }

  async recordIn(tx: JobTx, message: NewNotification): Promise<string> {
    return (await tx.notification.create({ data: message, select: { id: true } })).id;
  }

  byId(id: string): Promise<NotificationRow | null> {
    return this.prisma.notification.findUnique({ where: { id } });
  }

  byIds(ids: readonly string[]): Promise<NotificationRow[]> {
    return this.prisma.notification.findMany({ where: { id: { in: [...ids] } } });
  }

  async recordFailure(id: string, attempt: number, outcome: AttemptOutcome): Promise<void> {
    await this.prisma.notification.updateMany({ where: current(id, attempt), data: { ...outcome, attempts: attempt } });
  }

  async recordSent(id: string, attempt: number, sentAt: Date, then: (tx: JobTx) => Promise<void>): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.notification.updateMany({
        where: current(id, attempt),
        data: { status: 'SENT', attempts: attempt, sentAt, lastError: null, nextAttemptAt: null, content: null },
      });
      await then(tx);
    });
  }

  async dropPersonalData(before: Date): Promise<number> {
    const { count } = await this.prisma.notification.updateMany({
      where: { status: { not: 'PENDING' }, createdAt: { lt: before }, OR: [{ content: { not: null } }, { recipientKeys: { isEmpty: false } }] },
      data: { content: null, recipientKeys: [] },
    });
    return count;
  }

  newest(query: NotificationQuery, take: number): Promise<NotificationRow[]> {
    return this.prisma.notification.findMany({ where: whereOf(query), orderBy: { createdAt: 'desc' }, take });
  }

  page(page: PageArgs, query: NotificationQuery): Promise<Connection<NotificationRow>> {
    const where = whereOf(query);
    return connection(
      page,
      (row) => row.id,
      (args) => this.prisma.notification.findMany({ where, ...pageArgs(args, 'id'), orderBy: newestFirst() }),
      () => this.prisma.notification.count({ where }),
    );
  }

  async backlog(): Promise<{ count: number; oldestAt: Date | null }> {
    const found = await this.prisma.notification.aggregate({ where: { status: 'PENDING' }, _count: { _all: true }, _min: { createdAt: true } });
    return { count: found._count._all, oldestAt: found._min.createdAt };
  }
}

/** A template cursor's key; a forged cursor that decodes to anything else is the caller's mistake, not a failure. */
function templateKeyOf(key: string): [string, string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((part) => typeof part === 'string')) return parsed as [string, string, string];
  throw new PlatformError('BAD_USER_INPUT', 'after: not a cursor of this list');
}

/** The notification templates (notification_template): the only code that touches the table. */
export class TemplateStorage implements TemplateStore {
  constructor(private readonly prisma: PrismaClient) {}

  forPurpose(code: string, channel: string, langCodes: string[]): Promise<TemplateRow[]> {
    return this.prisma.notificationTemplate.findMany({ where: { code, channel, langCode: { in: langCodes } } });
  }

  save({ code, langCode, channel, ...data }: TemplateRow): Promise<TemplateRow> {
    return this.prisma.notificationTemplate.upsert({
      where: { code_langCode_channel: { code, langCode, channel } },
      create: { code, langCode, channel, ...data },
      update: data,
    });
  }

  page(page: PageArgs): Promise<Connection<TemplateRow>> {
    const keyOf = (row: TemplateRow) => JSON.stringify([row.code, row.langCode, row.channel]);
    return connection(
      page,
      keyOf,
      ({ take, skip, after }) => {
        const cursor = after === undefined ? undefined : templateKeyOf(after);
        return this.prisma.notificationTemplate.findMany({
          take,
          skip,
          orderBy: [{ code: 'asc' }, { langCode: 'asc' }, { channel: 'asc' }],
          ...(cursor ? { cursor: { code_langCode_channel: { code: cursor[0], langCode: cursor[1], channel: cursor[2] } } } : {}),
        });
      },
      () => this.prisma.notificationTemplate.count(),
    );
  }

  byKeys(keys: readonly TemplateKey[]): Promise<TemplateRow[]> {
    return this.prisma.notificationTemplate.findMany({ where: { OR: keys.map((key) => ({ code: key.code, langCode: key.langCode, channel: key.channel })) } });
  }
}
