import type { Misp as MispRow, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { containing } from '../inputs.js';
import { unlessTaken } from '../../../lib/db/unique.js';
import { newestPage, type Stamp } from '../rows.js';

export type { MispRow };

export interface NewMisp {
  id: string;
  organizationName: string;
  nameKey: string;
  contactNumber: string | null;
  emailId: string;
  address: string;
  status: string;
  createdBy: string;
  createdAt: Date;
}

/** The fields an update may change; an absent one stays. */
export interface MispChanges {
  organizationName?: string;
  nameKey?: string;
  contactNumber?: string;
  emailId?: string;
  address?: string;
}

export interface MispFilter {
  status?: string | null;
  isActive?: boolean | null;
  nameContains?: string | null;
}

const byName = { organizationName: 'asc' } as const;

/** The MISPs' table (pms_misp): the only code that touches it. */
export function mispsStorage(prisma: PrismaClient) {
  return {
    byId: (id: string): Promise<MispRow | null> => prisma.misp.findUnique({ where: { id } }),

    idTaken: async (id: string): Promise<boolean> => (await prisma.misp.findUnique({ where: { id }, select: { id: true } })) !== null,

    nameKeyTaken: async (nameKey: string): Promise<boolean> => (await prisma.misp.findUnique({ where: { nameKey }, select: { id: true } })) !== null,

    /** null: the name key is taken (unique index). */
    create: (misp: NewMisp): Promise<MispRow | null> => unlessTaken(prisma.misp.create({ data: misp })),

    /** Moves the status from `from` to `to` in one conditional statement: false when the MISP was not at `from`. */
    async moveStatus(id: string, from: string, to: string, { by, at }: Stamp): Promise<boolean> {
      const { count } = await prisma.misp.updateMany({ where: { id, status: from }, data: { status: to, updatedBy: by, updatedAt: at } });
      return count > 0;
    },

    setActive: (id: string, isActive: boolean, { by, at }: Stamp): Promise<MispRow> =>
      prisma.misp.update({ where: { id }, data: { isActive, updatedBy: by, updatedAt: at } }),

    /** null: the new name key is another MISP's (unique index). */
    update: (id: string, changes: MispChanges, { by, at }: Stamp): Promise<MispRow | null> =>
      unlessTaken(prisma.misp.update({ where: { id }, data: { ...changes, updatedBy: by, updatedAt: at } })),

    all: (take: number): Promise<MispRow[]> => prisma.misp.findMany({ orderBy: byName, take }),

    nameContaining: (text: string, take: number): Promise<MispRow[]> =>
      prisma.misp.findMany({ where: { organizationName: containing(text, 'name') }, orderBy: byName, take }),

    page(page: PageArgs, filter?: MispFilter | null): Promise<Connection<MispRow>> {
      const where: Prisma.MispWhereInput = {
        ...(filter?.status ? { status: filter.status } : {}),
        ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
        ...(filter?.nameContains ? { organizationName: containing(filter.nameContains, 'nameContains') } : {}),
      };
      return newestPage<Prisma.MispWhereInput, MispRow>(prisma.misp, where, page);
    },

    byIds: (ids: readonly string[]): Promise<MispRow[]> => prisma.misp.findMany({ where: { id: { in: [...ids] } } }),
  };
}

export type MispsStorage = ReturnType<typeof mispsStorage>;
