import { randomUUID } from 'node:crypto';
import type { Policy as PolicyRow, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { partnerErrors } from '../errors.js';
import { containing } from '../inputs.js';
import { checkContent, toJson, type PolicyContentInput } from './content.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { groupsIn, inScope, type Caller, type Scope } from './scope.js';

export type { PolicyRow };

/** The group an admin's policy lands in when it names none (README, "Sample data"). */
const DEFAULT_GROUP = 'default';

export interface PolicyInput {
  name: string;
  desc: string;
  policyGroupName?: string | null;
  policies: PolicyContentInput;
}

export interface PolicyUpdate {
  name?: string | null;
  desc?: string | null;
  policies?: PolicyContentInput | null;
}

export interface PolicyFilter {
  policyGroupId?: string | null;
  isActive?: boolean | null;
  nameContains?: string | null;
}

/**
 * Policies of policy groups. A policy manager acts only inside the groups it
 * manages (PMS_POL_001 when it manages none, 002 for another group on
 * create, 010 for another group's policy); admins act in every group. The
 * name is unique in its group, which the database enforces, so racing
 * creates cannot both win (PMS_POL_004).
 */
export class PolicyService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  /** The group a new policy goes to: the named one (the caller's), or the caller's only one. */
  private async groupFor(scope: Scope, name?: string | null): Promise<string> {
    if (scope.all) {
      const group = await this.prisma.policyGroup.findUnique({ where: { name: name ?? DEFAULT_GROUP }, select: { id: true } });
      if (!group) throw name ? partnerErrors.invalid('policyGroupName', `no policy group ${name}`) : partnerErrors.missing('policyGroupName');
      return group.id;
    }
    if (scope.groupIds.length === 0) throw partnerErrors.policyManagerUnknown();
    if (!name) {
      if (scope.groupIds.length > 1) throw partnerErrors.missing('policyGroupName');
      return scope.groupIds[0]!;
    }
    const group = await this.prisma.policyGroup.findFirst({ where: { name, id: { in: [...scope.groupIds] } }, select: { id: true } });
    if (!group) throw partnerErrors.policyManagerMismatch();
    return group.id;
  }

  /** A policy the caller may act on: PMS_POL_001, 008, 010. */
  private async reachable(caller: Caller, policyId: string): Promise<PolicyRow> {
    if (!caller.scope.all && caller.scope.groupIds.length === 0) throw partnerErrors.policyManagerUnknown();
    const row = await this.prisma.policy.findUnique({ where: { id: policyId } });
    if (!row) throw partnerErrors.policyNotFound(policyId);
    if (!inScope(caller.scope, row.policyGroupId)) throw partnerErrors.policyDenied();
    return row;
  }

  /** A write that may break the (group, name) key: PMS_POL_004. */
  private async named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw partnerErrors.policyNameTaken(name);
      throw error;
    }
  }

  async create(caller: Caller, input: PolicyInput): Promise<PolicyRow> {
    const policyGroupId = await this.groupFor(caller.scope, input.policyGroupName);
    const content = checkContent(input.policies);
    return this.named(input.name, () =>
      this.prisma.policy.create({
        data: {
          id: randomUUID(),
          policyGroupId,
          name: input.name,
          description: input.desc,
          policies: toJson(content),
          createdBy: caller.subject,
          createdAt: this.clock.now(),
        },
      }),
    );
  }

  async update(caller: Caller, policyId: string, input: PolicyUpdate): Promise<PolicyRow> {
    if (input.name == null && input.desc == null && input.policies == null) throw partnerErrors.policyNothingToUpdate();
    const row = await this.reachable(caller, policyId);
    const data: Prisma.PolicyUpdateInput = {
      ...(input.name != null ? { name: input.name } : {}),
      ...(input.desc != null ? { description: input.desc } : {}),
      ...(input.policies ? { policies: toJson(checkContent(input.policies)) } : {}),
      updatedBy: caller.subject,
      updatedAt: this.clock.now(),
    };
    return this.named(input.name ?? row.name, () => this.prisma.policy.update({ where: { id: row.id }, data }));
  }

  async setActive(caller: Caller, policyId: string, isActive: boolean): Promise<PolicyRow> {
    const row = await this.reachable(caller, policyId);
    return this.prisma.policy.update({ where: { id: row.id }, data: { isActive, updatedBy: caller.subject, updatedAt: this.clock.now() } });
  }

  get(caller: Caller, policyId: string): Promise<PolicyRow> {
    return this.reachable(caller, policyId);
  }

  /** The policies of the caller's groups, by name (PMS_POL_001 for a manager of none). */
  ofCaller(caller: Caller): Promise<PolicyRow[]> {
    if (!caller.scope.all && caller.scope.groupIds.length === 0) throw partnerErrors.policyManagerUnknown();
    return this.prisma.policy.findMany({ where: { policyGroupId: groupsIn(caller.scope) }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  }

  list(scope: Scope, page: PageArgs, filter?: PolicyFilter | null): Promise<Connection<PolicyRow>> {
    const where: Prisma.PolicyWhereInput = {
      AND: [
        { policyGroupId: groupsIn(scope) },
        filter?.policyGroupId ? { policyGroupId: filter.policyGroupId } : {},
        filter?.isActive != null ? { isActive: filter.isActive } : {},
        filter?.nameContains ? { name: containing(filter.nameContains, 'nameContains') } : {},
      ],
    };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.policy.findMany({ where, ...pageArgs(query, 'id'), orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
      () => this.prisma.policy.count({ where }),
    );
  }

  /** Policies by id within the scope, in one query (references and loaders). */
  async byIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PolicyRow>> {
    const rows = await this.prisma.policy.findMany({ where: { id: { in: [...ids] }, policyGroupId: groupsIn(scope) } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** A policy with its group id, or null: what partners' API key requests and validatePartnerMisp check (one query by primary key). */
  policyInGroup(policyId: string): Promise<PolicyRow | null> {
    return this.prisma.policy.findUnique({ where: { id: policyId } });
  }
}
