import {
  Prisma,
  type ApiKeyRequest as ApiKeyRequestRow,
  type Partner as PartnerRow,
  type PartnerApiKey,
  type PrismaClient,
} from '../../../generated/prisma/client.js';
import { newestFirst, pageArgs, type Connection, type PageArgs, type PageQuery } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { NEWEST_FIRST, windowList } from '../../../lib/db/window.js';
import { unlessTaken } from '../../../lib/db/unique.js';
import { newestPage, type Stamp } from '../rows.js';
import type { Scope } from './scope.js';

export type { ApiKeyRequestRow, PartnerApiKey, PartnerRow };

export interface NewPartner {
  id: string;
  userId: string;
  organizationName: string;
  contactNumber: string;
  emailId: string;
  address: string;
  policyGroupId: string;
  status: string;
  createdBy: string;
  createdAt: Date;
}

export interface NewApiKeyRequest {
  id: string;
  partnerId: string;
  policyId: string;
  useCaseDescription: string | null;
  status: string;
  createdBy: string;
  createdAt: Date;
}

/** A key as it is kept: its HMAC and hint, never the key. */
export type NewApiKey = Omit<PartnerApiKey, 'updatedBy' | 'updatedAt'>;

export interface PartnerFilter {
  status?: string | null;
  policyGroupId?: string | null;
}

export interface ApiKeyRequestFilter {
  status?: string | null;
  partnerId?: string | null;
}

/** Which of one partner's requests to list (Partner.apiKeyRequests): stored values. */
export interface PartnerRequestFilter {
  status?: string | null;
  policyId?: string | null;
}

/** Which of one partner's keys to list (Partner.apiKeys): stored values. */
export interface PartnerKeyFilter {
  status?: string | null;
  policyId?: string | null;
}

/** The partners a scope sees: every one, its own, those of the groups it manages. */
const visiblePartners = (scope: Scope): Prisma.PartnerWhereInput =>
  scope.all ? {} : { OR: [{ userId: scope.subject }, { policyGroupId: { in: scope.groupIds } }] };

/** Requests and keys of partners the scope sees: one join in the same statement, whatever the groups' size. */
const ofVisiblePartners = (scope: Scope): { partner?: Prisma.PartnerWhereInput } => (scope.all ? {} : { partner: visiblePartners(scope) });

/** The same rule over the partners' table `p`, in SQL (values as parameters); null: every partner. */
const visiblePartnersSql = (scope: Scope, p: string): Prisma.Sql | null => {
  if (scope.all) return null;
  const partner = Prisma.raw(p);
  const own = Prisma.sql`${partner}."userId" = ${scope.subject}`;
  return scope.groupIds.length ? Prisma.sql`(${own} OR ${partner}."policyGroupId" IN (${Prisma.join(scope.groupIds)}))` : own;
};

/** A nested list's conditions on a table with `partnerId`, `status` and `policyId` columns: the scope's partners, then the filter. */
type ChildFilter = { status?: string | null; policyId?: string | null } | null | undefined;

/**
 * A list under each partner of a page (its requests or its keys), newest
 * first, only for partners the scope sees: the window's conditions in SQL,
 * `findAfter` the same conditions for one partner (paging after a cursor).
 */
function childrenOfPartners<T extends Record<string, unknown> & { id: string }>(
  db: PrismaClient | Prisma.TransactionClient,
  table: string,
  scope: Scope,
  filter: ChildFilter,
  findAfter: (
    where: { AND: [{ partnerId: string }, { partner?: Prisma.PartnerWhereInput }, { status?: string; policyId?: string }] },
    page: PageQuery,
  ) => Promise<T[]>,
): NestedList<T> {
  const visible = visiblePartnersSql(scope, 'p');
  const where = [
    visible && Prisma.sql`"partnerId" IN (SELECT p.id FROM pms_partner p WHERE ${visible})`,
    filter?.status && Prisma.sql`"status" = ${filter.status}`,
    filter?.policyId && Prisma.sql`"policyId" = ${filter.policyId}`,
  ];
  return windowList<T>(
    db,
    { table, parentColumn: 'partnerId', where, orderBy: NEWEST_FIRST },
    { after: (partnerId, page) => findAfter({ AND: [{ partnerId }, ofVisiblePartners(scope), given(filter)] }, page), key: (row) => row.id },
  );
}

/** The filter's fields that are given (an absent, null or empty one filters nothing). */
const given = <T extends object>(filter: T | null | undefined) =>
  Object.fromEntries(Object.entries(filter ?? {}).filter(([, value]) => value)) as { [K in keyof T]?: NonNullable<T[K]> };

/**
 * Partners, their API key requests and keys (pms_partner,
 * pms_api_key_request, pms_partner_api_key): the only code that touches
 * them. Over a client or a transaction's (`atomically`).
 */
export function partnersStorage(prisma: PrismaClient | Prisma.TransactionClient) {
  return {
    // --- partners

    partnerById: (id: string): Promise<PartnerRow | null> => prisma.partner.findUnique({ where: { id } }),

    partnerOfUser: (userId: string): Promise<PartnerRow | null> => prisma.partner.findUnique({ where: { userId } }),

    /** null: the id or the login already has a partner. */
    createPartner: (partner: NewPartner): Promise<PartnerRow | null> => unlessTaken(prisma.partner.create({ data: partner })),

    setPartnerStatus: (id: string, status: string, { by, at }: Stamp): Promise<PartnerRow> =>
      prisma.partner.update({ where: { id }, data: { status, updatedBy: by, updatedAt: at } }),

    /** The partners of the groups, oldest first. */
    partnersInGroups: (groupIds: readonly string[], take: number): Promise<PartnerRow[]> =>
      prisma.partner.findMany({ where: { policyGroupId: { in: [...groupIds] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take }),

    partnersPage: (scope: Scope, page: PageArgs, filter?: PartnerFilter | null): Promise<Connection<PartnerRow>> =>
      newestPage<Prisma.PartnerWhereInput, PartnerRow>(prisma.partner, { AND: [visiblePartners(scope), given(filter)] }, page),

    partnersByIds: (scope: Scope, ids: readonly string[]): Promise<PartnerRow[]> =>
      prisma.partner.findMany({ where: { AND: [{ id: { in: [...ids] } }, visiblePartners(scope)] } }),

    // --- API key requests

    requestById: (id: string): Promise<ApiKeyRequestRow | null> => prisma.apiKeyRequest.findUnique({ where: { id } }),

    createRequest: (request: NewApiKeyRequest): Promise<ApiKeyRequestRow> => prisma.apiKeyRequest.create({ data: request }),

    /** Decides a request still at `from`, in one conditional statement: false when it was not (decided meanwhile). */
    async decideRequest(id: string, from: string, status: string, { by, at }: Stamp): Promise<boolean> {
      const { count } = await prisma.apiKeyRequest.updateMany({ where: { id, status: from }, data: { status, decidedBy: by, decidedAt: at } });
      return count === 1;
    },

    requestsPage: (scope: Scope, page: PageArgs, filter?: ApiKeyRequestFilter | null): Promise<Connection<ApiKeyRequestRow>> =>
      newestPage<Prisma.ApiKeyRequestWhereInput, ApiKeyRequestRow>(prisma.apiKeyRequest, { AND: [ofVisiblePartners(scope), given(filter)] }, page),

    requestsByIds: (scope: Scope, ids: readonly string[]): Promise<ApiKeyRequestRow[]> =>
      prisma.apiKeyRequest.findMany({ where: { id: { in: [...ids] }, ...ofVisiblePartners(scope) } }),

    // --- API keys

    apiKeyByHash: (keyHash: string): Promise<PartnerApiKey | null> => prisma.partnerApiKey.findUnique({ where: { keyHash } }),

    apiKeyOfRequest: (requestId: string): Promise<PartnerApiKey | null> => prisma.partnerApiKey.findUnique({ where: { requestId } }),

    /** null: the request already has a key. */
    createApiKey: (key: NewApiKey): Promise<PartnerApiKey | null> => unlessTaken(prisma.partnerApiKey.create({ data: key })),

    setApiKeyStatus: (keyHash: string, status: string, { by, at }: Stamp): Promise<PartnerApiKey> =>
      prisma.partnerApiKey.update({ where: { keyHash }, data: { status, updatedBy: by, updatedAt: at } }),

    /** Moves a key from one policy to another in one conditional statement: false when it was not on `from` (moved meanwhile). */
    async moveApiKey(keyHash: string, from: string, to: string, { by, at }: Stamp): Promise<boolean> {
      const { count } = await prisma.partnerApiKey.updateMany({ where: { keyHash, policyId: from }, data: { policyId: to, updatedBy: by, updatedAt: at } });
      return count === 1;
    },

    apiKeysByIds: (scope: Scope, ids: readonly string[]): Promise<PartnerApiKey[]> =>
      prisma.partnerApiKey.findMany({ where: { id: { in: [...ids] }, ...ofVisiblePartners(scope) } }),

    apiKeysByRequests: (scope: Scope, requestIds: readonly string[]): Promise<PartnerApiKey[]> =>
      prisma.partnerApiKey.findMany({ where: { requestId: { in: [...requestIds] }, ...ofVisiblePartners(scope) } }),

    // --- lists under each partner of a page (Partner.apiKeyRequests, Partner.apiKeys)

    /** The requests of each partner of a page, newest first, within the scope: one window query and one grouped count for the page. */
    requestsOfPartners: (scope: Scope, filter: PartnerRequestFilter | null | undefined): NestedList<ApiKeyRequestRow> =>
      childrenOfPartners(prisma, 'pms_api_key_request', scope, filter, (where, page) =>
        prisma.apiKeyRequest.findMany({ where, ...pageArgs(page, 'id'), orderBy: newestFirst() }),
      ),

    /** The keys of each partner of a page, newest first, within the scope: one window query and one grouped count for the page. */
    apiKeysOfPartners: (scope: Scope, filter: PartnerKeyFilter | null | undefined): NestedList<PartnerApiKey> =>
      childrenOfPartners(prisma, 'pms_partner_api_key', scope, filter, (where, page) =>
        prisma.partnerApiKey.findMany({ where, ...pageArgs(page, 'id'), orderBy: newestFirst() }),
      ),

    /** The policies among `policyIds` that a key or a request of a partner the scope sees is on (one statement). */
    async policiesOfVisibleKeys(scope: Scope, policyIds: readonly string[]): Promise<string[]> {
      if (!policyIds.length) return [];
      const visible = visiblePartnersSql(scope, 'p') ?? Prisma.sql`TRUE`;
      const ids = Prisma.join([...policyIds]);
      const rows = await prisma.$queryRaw<{ policyId: string }[]>(Prisma.sql`
        SELECT k."policyId" FROM pms_partner_api_key k JOIN pms_partner p ON p.id = k."partnerId" WHERE k."policyId" IN (${ids}) AND ${visible}
        UNION
        SELECT r."policyId" FROM pms_api_key_request r JOIN pms_partner p ON p.id = r."partnerId" WHERE r."policyId" IN (${ids}) AND ${visible}`);
      return rows.map((row) => row.policyId);
    },
  };
}

type PartnerTables = ReturnType<typeof partnersStorage>;

export interface PartnersStorage extends PartnerTables {
  /** Runs `work` in one transaction over the same tables: every write in it stands, or none does. */
  atomically<T>(work: (storage: PartnerTables) => Promise<T>): Promise<T>;
}

/** The partners' tables over the platform's client, with its transactions. */
export function partnersStorageOf(prisma: PrismaClient): PartnersStorage {
  return { ...partnersStorage(prisma), atomically: (work) => prisma.$transaction((tx) => work(partnersStorage(tx))) };
}
