import { Prisma, type LicenseKey as LicenseRow, type PrismaClient } from '../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { type NestedList } from '../../lib/graph/nested.js';
import { NEWEST_FIRST, windowList } from '../../lib/db/window.js';

export type { LicenseRow };

/** A key as it is first kept: its HMAC and hint, never the key. */
export interface NewLicenseKey {
  keyHash: string;
  keyHint: string;
  mispId: string;
  expiresAt: Date;
  status: string;
  createdBy: string;
}

export interface LicenseFilter {
  MISPId?: string | null;
  status?: string | null;
}

/** The license key manager's table (license_key): the only code that touches it. */
export function licenseStorage(prisma: PrismaClient) {
  return {
    create: (key: NewLicenseKey): Promise<LicenseRow> => prisma.licenseKey.create({ data: { ...key, permissions: [] } }),

    byHash: (keyHash: string): Promise<LicenseRow | null> => prisma.licenseKey.findUnique({ where: { keyHash } }),

    /** How many active keys of the MISP were blocked. */
    blockActiveOf: async (mispId: string): Promise<number> =>
      (await prisma.licenseKey.updateMany({ where: { mispId, status: 'ACTIVE' }, data: { status: 'BLOCKED' } })).count,

    newestOf: (mispId: string): Promise<LicenseRow | null> => prisma.licenseKey.findFirst({ where: { mispId }, orderBy: newestFirst() }),

    setPermissions: (keyHash: string, permissions: string[]): Promise<LicenseRow> => prisma.licenseKey.update({ where: { keyHash }, data: { permissions } }),

    setStatus: (keyHash: string, status: string): Promise<LicenseRow> => prisma.licenseKey.update({ where: { keyHash }, data: { status } }),

    /** Keys, newest first (the unique id breaks ties). */
    page(page: PageArgs, filter?: LicenseFilter | null): Promise<Connection<LicenseRow>> {
      const where: Prisma.LicenseKeyWhereInput = { ...(filter?.MISPId ? { mispId: filter.MISPId } : {}), ...(filter?.status ? { status: filter.status } : {}) };
      return connection(
        page,
        (row) => row.id,
        (query) => prisma.licenseKey.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
        () => prisma.licenseKey.count({ where }),
      );
    },

    /** Each MISP's keys, newest first, as a nested list: one window query and one grouped count for a page of MISPs. */
    keysOfMisps: (status: string | null): NestedList<LicenseRow> =>
      windowList<LicenseRow>(
        prisma,
        { table: 'license_key', parentColumn: 'mispId', where: [status && Prisma.sql`"status" = ${status}`], orderBy: NEWEST_FIRST },
        {
          after: (mispId, page) =>
            prisma.licenseKey.findMany({ where: { mispId, ...(status ? { status } : {}) }, ...pageArgs(page, 'id'), orderBy: newestFirst() }),
          key: (row) => row.id,
        },
      ),

    byIds: (ids: readonly string[]): Promise<LicenseRow[]> => prisma.licenseKey.findMany({ where: { id: { in: [...ids] } } }),

    /** How many keys each user generated, in one grouped query. */
    async countByCreator(userIds: readonly string[]): Promise<Map<string, number>> {
      const groups = await prisma.licenseKey.groupBy({ by: ['createdBy'], where: { createdBy: { in: [...userIds] } }, _count: { _all: true } });
      return new Map(groups.map((group) => [group.createdBy!, group._count._all]));
    },
  };
}

export type LicenseStorage = ReturnType<typeof licenseStorage>;
