import { Prisma, type IdSchema as IdSchemaRow, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { LIVE, type Created, type Deleted, type Updated } from '../audit.js';
import type { PagedQuery } from '../paged.js';
import type { SchemaField } from './fields.js';

export type { IdSchemaRow };

/** What a write of a draft sets besides its audit columns: the fields as checked, and the JSON Schema made of them. */
export interface DraftValues {
  title: string;
  description: string;
  schemaVersion: number;
  effectiveFrom: Date;
  schema: SchemaField[];
  schemaJson: string;
}

/** What publishing writes on the draft. */
export interface Published extends Updated {
  status: 'PUBLISHED';
  idVersion: number;
  effectiveFrom: Date;
}

/** The rules of a publish, run inside its transaction on the rows as they are then. */
export interface PublishRules {
  /** refuses the schema as read (absent, not a draft, an unsafe validator) by throwing */
  check(row: IdSchemaRow | null): asserts row is IdSchemaRow;
  /** what to write, given the highest idVersion published so far (null: none) */
  published(latestIdVersion: number | null): Published;
}

/** Which published schema: the one of an idVersion, or the latest in effect at an instant. */
export type PublishedAt = { idVersion: number } | { effectiveAt: Date };

/** The ID schemas' table as the rules see it: the seam a test fills with rows in memory. */
export interface IdSchemaStore {
  /** a new draft, idVersion 0 */
  insertDraft(values: DraftValues & Created): Promise<IdSchemaRow>;
  /** rewrites the live draft of the id (one statement, so a racing publish wins or loses whole): how many (0 or 1) */
  rewriteDraft(id: string, values: DraftValues & Updated): Promise<number>;
  /** soft-deletes the live draft of the id: how many (0 or 1) */
  removeDraft(id: string, stamp: Omit<Deleted, 'isActive'>): Promise<number>;
  /** the row of an id, which exists */
  rowOf(id: string): Promise<IdSchemaRow>;
  /** the live row of an id */
  liveRow(id: string): Promise<IdSchemaRow | null>;
  /** publishes the draft in one serializable transaction (again, a few times, when another publish won a race): the rules decide */
  publish(id: string, rules: PublishRules): Promise<IdSchemaRow>;
  /** one page of the live schemas */
  page(query: PagedQuery): Promise<IdSchemaRow[]>;
  countLive(): Promise<number>;
  /** the live published schema of an idVersion, or the latest one in effect at an instant */
  published(at: PublishedAt): Promise<IdSchemaRow | null>;
  /** the portal's list, newest first */
  list(filter: { status?: string | null }, page: PageArgs): Promise<Connection<IdSchemaRow>>;
  byIds(ids: readonly string[]): Promise<IdSchemaRow[]>;
}

/** How many times a publish runs when another one wins the race for the next idVersion. */
const PUBLISH_ATTEMPTS = 6;

/** The ID schemas' table (md_id_schema): the only code that touches it. */
export class IdSchemaStorage implements IdSchemaStore {
  constructor(private readonly prisma: PrismaClient) {}

  insertDraft(values: DraftValues & Created): Promise<IdSchemaRow> {
    return this.prisma.idSchema.create({ data: { ...values, status: 'DRAFT', idVersion: 0 } });
  }

  async rewriteDraft(id: string, values: DraftValues & Updated): Promise<number> {
    return (await this.prisma.idSchema.updateMany({ where: { id, status: 'DRAFT', ...LIVE }, data: values })).count;
  }

  async removeDraft(id: string, stamp: Omit<Deleted, 'isActive'>): Promise<number> {
    return (await this.prisma.idSchema.updateMany({ where: { id, status: 'DRAFT', ...LIVE }, data: stamp })).count;
  }

  rowOf(id: string): Promise<IdSchemaRow> {
    return this.prisma.idSchema.findUniqueOrThrow({ where: { id } });
  }

  liveRow(id: string): Promise<IdSchemaRow | null> {
    return this.prisma.idSchema.findFirst({ where: { id, ...LIVE } });
  }

  async publish(id: string, rules: PublishRules): Promise<IdSchemaRow> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.prisma.$transaction(
          async (tx) => {
            const row = await tx.idSchema.findFirst({ where: { id, ...LIVE } });
            rules.check(row);
            const latest = await tx.idSchema.aggregate({ where: { status: 'PUBLISHED', ...LIVE }, _max: { idVersion: true } });
            return tx.idSchema.update({ where: { id }, data: rules.published(latest._max.idVersion) });
          },
          { isolationLevel: Prisma.TransactionIsolationLevel.Serializable },
        );
      } catch (error) {
        // A serialization failure means another publish won the race: try again on the new state.
        if (attempt < PUBLISH_ATTEMPTS - 1 && error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') continue;
        throw error;
      }
    }
  }

  page(query: PagedQuery): Promise<IdSchemaRow[]> {
    return this.prisma.idSchema.findMany({ where: LIVE, ...query });
  }

  countLive(): Promise<number> {
    return this.prisma.idSchema.count({ where: LIVE });
  }

  published(at: PublishedAt): Promise<IdSchemaRow | null> {
    return this.prisma.idSchema.findFirst({
      where: { status: 'PUBLISHED', ...LIVE, ...('idVersion' in at ? { idVersion: at.idVersion } : { effectiveFrom: { lte: at.effectiveAt } }) },
      orderBy: [{ idVersion: 'desc' }],
    });
  }

  list(filter: { status?: string | null }, page: PageArgs): Promise<Connection<IdSchemaRow>> {
    const where = { ...LIVE, ...(filter.status ? { status: filter.status } : {}) };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.idSchema.findMany({ where, ...pageArgs(query, 'id'), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      () => this.prisma.idSchema.count({ where }),
    );
  }

  async byIds(ids: readonly string[]): Promise<IdSchemaRow[]> {
    return this.prisma.idSchema.findMany({ where: { id: { in: [...ids] }, ...LIVE } });
  }
}
