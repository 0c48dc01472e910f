import { randomUUID } from 'node:crypto';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { partnerErrors } from '../errors.js';
import { wholeList } from '../rows.js';
import { within } from '../../../lib/graph/capped.js';

/** The most managers a policy group's list answers (PolicyGroup.managers): a group is run by a handful. */
export const MAX_GROUP_MANAGERS = 100;
import { reachesAllGroups, type Scope } from './scope.js';
import type { PoliciesStorage, PolicyGroupFilter, PolicyGroupRow } from './storage.js';

export type { PolicyGroupFilter, PolicyGroupRow };

/** The policy group every platform starts with, where a newcomer creates policies at once (README, "Sample country"). */
export const DEFAULT_GROUP = 'default';

/** The roles a user needs to manage a policy group. */
const MANAGER_ROLES: readonly string[] = ['POLICYMANAGER', 'PARTNERMANAGER'];

export interface PolicyGroupInput {
  name: string;
  desc?: string | null;
}

/** What this service needs of auth's users. */
export interface UserDirectory {
  usersById(userIds: readonly string[]): Promise<Map<string, { roles: string[] }>>;
}

/** Policy groups and their managers (users of auth with POLICYMANAGER or PARTNERMANAGER). */
export class PolicyGroupService {
  constructor(
    private readonly storage: PoliciesStorage,
    private readonly clock: Clock,
    /** auth's users, reached at call time */
    private readonly users: UserDirectory,
  ) {}

  /** The groups a caller reaches: every one for an admin (no query), else those it manages (one indexed query). */
  async scopeOf(principal: { subject: string; roles: readonly string[] }): Promise<Scope> {
    if (reachesAllGroups(principal.roles)) return { all: true };
    return { all: false, groupIds: await this.storage.managedBy(principal.subject) };
  }

  /** The ids of the groups a user manages. */
  managedBy(userId: string): Promise<string[]> {
    return this.storage.managedBy(userId);
  }

  /** A group by its name, or null (the group a partner registers in). */
  byName(name: string): Promise<PolicyGroupRow | null> {
    return this.storage.groupByName(name);
  }

  async create(by: string, input: PolicyGroupInput): Promise<PolicyGroupRow> {
    const group = await this.storage.createGroup({
      id: randomUUID(),
      name: input.name,
      description: input.desc ?? null,
      createdBy: by,
      createdAt: this.clock.now(),
    });
    if (!group) throw partnerErrors.invalid('name', `a policy group named ${input.name} exists`);
    return group;
  }

  /** The `default` group, made on a first start (and by the sample country, whichever comes first). */
  ensureDefault(): Promise<void> {
    return this.storage.ensureGroup({
      id: DEFAULT_GROUP,
      name: DEFAULT_GROUP,
      description: 'The default policy group',
      createdBy: 'system',
      createdAt: this.clock.now(),
    });
  }

  /** Whether the user holds a role that lets it manage a group. */
  private async isManager(userId: string): Promise<boolean> {
    const user = (await this.users.usersById([userId])).get(userId);
    return user?.roles.some((role) => MANAGER_ROLES.includes(role)) ?? false;
  }

  /**
   * The sample country's manager of the `default` group: the bootstrap admin
   * becomes its policy manager and partner manager (one PolicyGroupManager
   * row), when it exists and holds a manager role. False when it does not:
   * nothing is mapped, as an operator's own admins are not.
   */
  async mapSampleManager(by: string, userId: string): Promise<boolean> {
    await this.ensureDefault();
    if (!(await this.isManager(userId))) return false;
    await this.storage.addManager(DEFAULT_GROUP, userId, { by, at: this.clock.now() });
    return true;
  }

  private async mustExist(groupId: string): Promise<PolicyGroupRow> {
    const group = await this.storage.groupById(groupId);
    if (!group) throw partnerErrors.invalid('policyGroupId', `no policy group ${groupId}`);
    return group;
  }

  /** Maps a manager into a group; mapping one already there changes nothing. */
  async addManager(by: string, groupId: string, userId: string): Promise<PolicyGroupRow> {
    const group = await this.mustExist(groupId);
    if (!(await this.isManager(userId))) throw partnerErrors.policyManagerUnknown();
    await this.storage.addManager(groupId, userId, { by, at: this.clock.now() });
    return group;
  }

  async removeManager(groupId: string, userId: string): Promise<PolicyGroupRow> {
    const group = await this.mustExist(groupId);
    if (!(await this.storage.removeManager(groupId, userId))) throw partnerErrors.policyManagerUnknown();
    return group;
  }

  /** Every group of the scope, by name (GET /policies/group/all): at most WHOLE_LIST_LIMIT, refused beyond. */
  all(scope: Scope): Promise<PolicyGroupRow[]> {
    return wholeList('policy groups', 'policyGroups', (take) => this.storage.groupsOf(scope, take));
  }

  list(scope: Scope, page: PageArgs, filter?: PolicyGroupFilter | null): Promise<Connection<PolicyGroupRow>> {
    return this.storage.groupsPage(scope, page, filter);
  }

  /** Groups by id within the scope, in one query (references and loaders). */
  async byIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PolicyGroupRow>> {
    const allowed = scope.all ? ids : ids.filter((id) => scope.groupIds.includes(id));
    const rows = allowed.length ? await this.storage.groupsByIds(allowed) : [];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The managers' user ids of several groups, in one query. */
  /** One group's managers as PolicyGroup.managers answers them: MAX_GROUP_MANAGERS at most, refused beyond (null with an error for that group alone). */
  listedManagers(userIds: string[]): string[] {
    return within(MAX_GROUP_MANAGERS, userIds, () => partnerErrors.listTooLong('managers of the policy group', MAX_GROUP_MANAGERS));
  }

  async managersOf(groupIds: readonly string[]): Promise<Map<string, string[]>> {
    const managers = new Map<string, string[]>(groupIds.map((id) => [id, []]));
    for (const row of await this.storage.managersOf(groupIds)) managers.get(row.policyGroupId)?.push(row.userId);
    return managers;
  }
}
