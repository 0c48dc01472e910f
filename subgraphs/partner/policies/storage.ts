import { Prisma, type Policy as PolicyRow, type PolicyGroup as PolicyGroupRow, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { type NestedList } from '../../../lib/graph/nested.js';
import { windowList } from '../../../lib/db/window.js';
import { containsLiteral } from '../../../lib/db/like.js';
import { containing } from '../inputs.js';
import { unlessTaken } from '../../../lib/db/unique.js';
import type { Stamp } from '../rows.js';
import type { PolicyContent } from './content.js';

/** A policy's content as its JSON column takes it. */
const toJson = (content: PolicyContent): Prisma.InputJsonValue => content as unknown as Prisma.InputJsonValue;
import type { Scope } from './scope.js';

export type { PolicyGroupRow, PolicyRow };

export interface NewPolicy {
  id: string;
  policyGroupId: string;
  name: string;
  description: string;
  /** the checked content (content.ts) */
  policies: PolicyContent;
  createdBy: string;
  createdAt: Date;
}

export interface PolicyChanges {
  name?: string;
  description?: string;
  policies?: PolicyContent;
}

export interface NewPolicyGroup {
  id: string;
  name: string;
  description: string | null;
  createdBy: string;
  createdAt: Date;
}

export interface PolicyFilter {
  policyGroupId?: string | null;
  isActive?: boolean | null;
  nameContains?: string | null;
}

export interface PolicyGroupFilter {
  isActive?: boolean | null;
  nameContains?: string | null;
}

/** A policy with what validatePartnerMisp needs of its group. */
export type PolicyLink = PolicyRow & { groupActive: boolean | null };

/** A filter on a group id column that keeps the scope's groups. */
const groupsIn = (scope: Scope): { in: string[] } | undefined => (scope.all ? undefined : { in: [...scope.groupIds] });
const byName = [{ name: 'asc' }, { id: 'asc' }] as const satisfies Prisma.PolicyOrderByWithRelationInput[];

/** The policies a caller sees, filtered. */
const policyWhere = (scope: Scope, filter: PolicyFilter | null | undefined): Prisma.PolicyWhereInput => ({
  AND: [
    { policyGroupId: groupsIn(scope) },
    filter?.policyGroupId ? { policyGroupId: filter.policyGroupId } : {},
    filter?.isActive != null ? { isActive: filter.isActive } : {},
    filter?.nameContains ? { name: containing(filter.nameContains, 'nameContains') } : {},
  ],
});

/** Policy groups, their managers and their policies (pms_policy_group, pms_policy_group_manager, pms_policy): the only code that touches them. */
export function policiesStorage(prisma: PrismaClient) {
  return {
    // --- groups and their managers

    /** The groups a user manages (one indexed query). */
    managedBy: async (userId: string): Promise<string[]> =>
      (await prisma.policyGroupManager.findMany({ where: { userId }, select: { policyGroupId: true } })).map((row) => row.policyGroupId),

    groupById: (id: string): Promise<PolicyGroupRow | null> => prisma.policyGroup.findUnique({ where: { id } }),

    groupByName: (name: string): Promise<PolicyGroupRow | null> => prisma.policyGroup.findUnique({ where: { name } }),

    /** null: the name is taken. */
    createGroup: (group: NewPolicyGroup): Promise<PolicyGroupRow | null> => unlessTaken(prisma.policyGroup.create({ data: group })),

    /** Makes the group unless it exists (a second start, or racing instances, change nothing). */
    async ensureGroup(group: NewPolicyGroup): Promise<void> {
      // An insert that skips an existing row: Prisma's upsert reads, then inserts, and a racing insert fails it.
      await prisma.policyGroup.createMany({ data: [group], skipDuplicates: true });
    },

    /** Maps a manager into a group; a mapping already there stays as it is. */
    async addManager(policyGroupId: string, userId: string, { by, at }: Stamp): Promise<void> {
      await prisma.policyGroupManager.createMany({ data: [{ policyGroupId, userId, createdBy: by, createdAt: at }], skipDuplicates: true });
    },

    /** Whether there was such a mapping. */
    removeManager: async (policyGroupId: string, userId: string): Promise<boolean> =>
      (await prisma.policyGroupManager.deleteMany({ where: { policyGroupId, userId } })).count > 0,

    groupsOf: (scope: Scope, take: number): Promise<PolicyGroupRow[]> =>
      prisma.policyGroup.findMany({ where: { id: groupsIn(scope) }, orderBy: { name: 'asc' }, take }),

    groupsPage(scope: Scope, page: PageArgs, filter?: PolicyGroupFilter | null): Promise<Connection<PolicyGroupRow>> {
      const where: Prisma.PolicyGroupWhereInput = {
        id: groupsIn(scope),
        ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
        ...(filter?.nameContains ? { name: containing(filter.nameContains, 'nameContains') } : {}),
      };
      return connection(
        page,
        (row) => row.id,
        (query) => prisma.policyGroup.findMany({ where, ...pageArgs(query, 'id'), orderBy: byName }),
        () => prisma.policyGroup.count({ where }),
      );
    },

    groupsByIds: (ids: readonly string[]): Promise<PolicyGroupRow[]> => prisma.policyGroup.findMany({ where: { id: { in: [...ids] } } }),

    /** The managers of several groups, by user id (one query). */
    managersOf: (groupIds: readonly string[]): Promise<{ policyGroupId: string; userId: string }[]> =>
      prisma.policyGroupManager.findMany({ where: { policyGroupId: { in: [...groupIds] } }, orderBy: { userId: 'asc' } }),

    // --- policies

    policyById: (id: string): Promise<PolicyRow | null> => prisma.policy.findUnique({ where: { id } }),

    policyNamed: (policyGroupId: string, name: string): Promise<PolicyRow | null> =>
      prisma.policy.findUnique({ where: { policyGroupId_name: { policyGroupId, name } } }),

    anyPolicyNamed: async (name: string): Promise<boolean> => (await prisma.policy.findFirst({ where: { name }, select: { id: true } })) !== null,

    /** A policy with its group's switch, in one statement by primary keys. */
    async policyLink(id: string): Promise<PolicyLink | null> {
      const [policy] = await prisma.$queryRaw<PolicyLink[]>`
        SELECT p.*, g."isActive" AS "groupActive" FROM pms_policy p LEFT JOIN pms_policy_group g ON g.id = p."policyGroupId" WHERE p.id = ${id}`;
      return policy ?? null;
    },

    /** null: the group holds a policy of that name. */
    createPolicy: (policy: NewPolicy): Promise<PolicyRow | null> =>
      unlessTaken(prisma.policy.create({ data: { ...policy, policies: toJson(policy.policies) } })),

    /** null: the new name is another policy's in the group. */
    updatePolicy: (id: string, { policies, ...changes }: PolicyChanges, { by, at }: Stamp): Promise<PolicyRow | null> =>
      unlessTaken(
        prisma.policy.update({ where: { id }, data: { ...changes, ...(policies ? { policies: toJson(policies) } : {}), updatedBy: by, updatedAt: at } }),
      ),

    setPolicyActive: (id: string, isActive: boolean, { by, at }: Stamp): Promise<PolicyRow> =>
      prisma.policy.update({ where: { id }, data: { isActive, updatedBy: by, updatedAt: at } }),

    policiesOf: (scope: Scope, take: number): Promise<PolicyRow[]> =>
      prisma.policy.findMany({ where: { policyGroupId: groupsIn(scope) }, orderBy: byName, take }),

    policiesPage(scope: Scope, page: PageArgs, filter?: PolicyFilter | null): Promise<Connection<PolicyRow>> {
      const where = policyWhere(scope, filter);
      return connection(
        page,
        (row) => row.id,
        (query) => prisma.policy.findMany({ where, ...pageArgs(query, 'id'), orderBy: byName }),
        () => prisma.policy.count({ where }),
      );
    },

    /** The policies of each group of a page, by name: one window query and one grouped count for the page. */
    policiesOfGroups(scope: Scope, filter: Omit<PolicyFilter, 'policyGroupId'> | null | undefined): NestedList<PolicyRow> {
      // `containing` refuses a NUL in the name before anything is read, as the root list does.
      if (filter?.nameContains) containing(filter.nameContains, 'nameContains');
      const where = [
        !scope.all && (scope.groupIds.length ? Prisma.sql`"policyGroupId" IN (${Prisma.join(scope.groupIds)})` : Prisma.sql`FALSE`),
        filter?.isActive != null && Prisma.sql`"isActive" = ${filter.isActive}`,
        filter?.nameContains && containsLiteral(Prisma.sql`"name"`, filter.nameContains),
      ];
      const orderBy = [
        ['name', 'asc'],
        ['id', 'asc'],
      ] as const;
      return windowList<PolicyRow>(
        prisma,
        { table: 'pms_policy', parentColumn: 'policyGroupId', where, orderBy },
        {
          after: (groupId, page) =>
            prisma.policy.findMany({ where: { AND: [policyWhere(scope, filter), { policyGroupId: groupId }] }, ...pageArgs(page, 'id'), orderBy: byName }),
          key: (row) => row.id,
        },
      );
    },

    policiesByIds: (scope: Scope, ids: readonly string[]): Promise<PolicyRow[]> =>
      prisma.policy.findMany({ where: { id: { in: [...ids] }, policyGroupId: groupsIn(scope) } }),
  };
}

export type PoliciesStorage = ReturnType<typeof policiesStorage>;
