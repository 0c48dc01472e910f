import { isUniqueViolation } from '../../../lib/db/unique.js';
import { randomUUID } from 'node:crypto';
import { Prisma, type PolicyGroup as PolicyGroupRow, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { partnerErrors } from '../errors.js';
import { containing } from '../inputs.js';
import { groupsIn, type Scope } from './scope.js';

export type { PolicyGroupRow };

/** The policy group every platform starts with, where a newcomer creates policies at once (README, "Sample country"). */
export const DEFAULT_GROUP = 'default';

/** The roles a user needs to manage a policy group. */
const MANAGER_ROLES: readonly string[] = ['POLICYMANAGER', 'PARTNERMANAGER'];

export interface PolicyGroupInput {
  name: string;
  desc?: string | null;
}

export interface PolicyGroupFilter {
  isActive?: boolean | null;
  nameContains?: string | null;
}

/** What this service needs of auth's users. */
export interface UserDirectory {
  usersById(userIds: readonly string[]): Promise<Map<string, { roles: string[] }>>;
}

/** Policy groups and their managers (users of auth with POLICYMANAGER or PARTNERMANAGER). */
export class PolicyGroupService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** auth's users, reached at call time */
    private readonly users: () => UserDirectory,
  ) {}

  async create(by: string, input: PolicyGroupInput): Promise<PolicyGroupRow> {
    try {
      return await this.prisma.policyGroup.create({
        data: { id: randomUUID(), name: input.name, description: input.desc ?? null, createdBy: by, createdAt: this.clock.now() },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw partnerErrors.invalid('name', `a policy group named ${input.name} exists`);
      throw error;
    }
  }

  /** The `default` group, made on a first start (and by the sample country, whichever comes first). */
  async ensureDefault(): Promise<void> {
    await this.prisma.policyGroup.upsert({
      where: { id: DEFAULT_GROUP },
      create: { id: DEFAULT_GROUP, name: DEFAULT_GROUP, description: 'The default policy group', createdBy: 'system', createdAt: this.clock.now() },
      update: {},
    });
  }

  /**
   * The sample country's manager of the `default` group: the bootstrap admin
   * becomes its policy manager and partner manager (one PolicyGroupManager
   * row), when it exists and holds a manager role. False when it does not:
   * nothing is mapped, as an operator's own admins are not.
   */
  async mapSampleManager(by: string, userId: string): Promise<boolean> {
    await this.ensureDefault();
    const user = (await this.users().usersById([userId])).get(userId);
    if (!user?.roles.some((role) => MANAGER_ROLES.includes(role))) return false;
    await this.prisma.policyGroupManager.createMany({
      data: [{ policyGroupId: DEFAULT_GROUP, userId, createdBy: by, createdAt: this.clock.now() }],
      skipDuplicates: true,
    });
    return true;
  }

  private async mustExist(groupId: string): Promise<PolicyGroupRow> {
    const group = await this.prisma.policyGroup.findUnique({ where: { id: groupId } });
    if (!group) throw partnerErrors.invalid('policyGroupId', `no policy group ${groupId}`);
    return group;
  }

  /** Maps a manager into a group; mapping one already there changes nothing. */
  async addManager(by: string, groupId: string, userId: string): Promise<PolicyGroupRow> {
    const group = await this.mustExist(groupId);
    const user = (await this.users().usersById([userId])).get(userId);
    if (!user?.roles.some((role) => MANAGER_ROLES.includes(role))) throw partnerErrors.policyManagerUnknown();
    await this.prisma.policyGroupManager.createMany({
      data: [{ policyGroupId: groupId, userId, createdBy: by, createdAt: this.clock.now() }],
      skipDuplicates: true,
    });
    return group;
  }

  async removeManager(groupId: string, userId: string): Promise<PolicyGroupRow> {
    const group = await this.mustExist(groupId);
    const { count } = await this.prisma.policyGroupManager.deleteMany({ where: { policyGroupId: groupId, userId } });
    if (count === 0) throw partnerErrors.policyManagerUnknown();
    return group;
  }

  all(scope: Scope): Promise<PolicyGroupRow[]> {
    return this.prisma.policyGroup.findMany({ where: { id: groupsIn(scope) }, orderBy: { name: 'asc' } });
  }

  list(scope: Scope, page: PageArgs, filter?: PolicyGroupFilter | null): Promise<Connection<PolicyGroupRow>> {
    const where: Prisma.PolicyGroupWhereInput = {
      id: groupsIn(scope),
      ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
      ...(filter?.nameContains ? { name: containing(filter.nameContains, 'nameContains') } : {}),
    };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.policyGroup.findMany({ where, ...pageArgs(query, 'id'), orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
      () => this.prisma.policyGroup.count({ where }),
    );
  }

  /** Groups by id within the scope, in one query (references and loaders). */
  async byIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PolicyGroupRow>> {
    const allowed = scope.all ? ids : ids.filter((id) => scope.groupIds.includes(id));
    const rows = allowed.length ? await this.prisma.policyGroup.findMany({ where: { id: { in: [...allowed] } } }) : [];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The managers' user ids of several groups, in one query. */
  async managersOf(groupIds: readonly string[]): Promise<Map<string, string[]>> {
    const rows = await this.prisma.policyGroupManager.findMany({ where: { policyGroupId: { in: [...groupIds] } }, orderBy: { userId: 'asc' } });
    const managers = new Map<string, string[]>(groupIds.map((id) => [id, []]));
    for (const row of rows) managers.get(row.policyGroupId)?.push(row.userId);
    return managers;
  }
}
