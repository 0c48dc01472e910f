import { randomUUID } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { Clock } from '../../../lib/time.js';
import { partnerErrors } from '../errors.js';
import { wholeList } from '../rows.js';
import { checkContent, type PolicyContentInput } from './content.js';
import { DEFAULT_GROUP } from './groups-service.js';
import { inScope, managesNone, type Caller, type Scope } from './scope.js';
import type { PoliciesStorage, PolicyChanges, PolicyFilter, PolicyLink, PolicyRow } from './storage.js';

export type { PolicyFilter, PolicyLink, PolicyRow };

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

/**
 * Policies of policy groups. A policy manager acts only inside the groups it
 * manages (PMS_POL_001 when it manages none, 002 for another group on
 * create, 010 for another group's policy); admins act in every group. The
 * name is unique in its group, which the database enforces, so racing
 * creates cannot both win (PMS_POL_004). A change of content or switch is
 * published (`policy.changed`) once written.
 */
export class PolicyService {
  constructor(
    private readonly storage: PoliciesStorage,
    private readonly clock: Clock,
    private readonly events: Pick<EventBus, 'publish'>,
  ) {}

  /** The group a new policy goes to: the named one (the caller's), or the caller's only one; an admin's default is `default`. */
  private async groupFor(scope: Scope, name?: string | null): Promise<string> {
    if (scope.all) {
      const group = await this.storage.groupByName(name ?? DEFAULT_GROUP);
      if (!group) throw name ? partnerErrors.invalid('policyGroupName', `no policy group ${name}`) : partnerErrors.missing('policyGroupName');
      return group.id;
    }
    if (scope.groupIds.length === 0) throw partnerErrors.policyManagerUnknown();
    if (!name) {
      if (scope.groupIds.length > 1) throw partnerErrors.missing('policyGroupName');
      return scope.groupIds[0]!;
    }
    const group = await this.storage.groupByName(name);
    if (!group || !inScope(scope, group.id)) throw partnerErrors.policyManagerMismatch();
    return group.id;
  }

  /** A policy the caller may act on: PMS_POL_001, 008, 010. */
  private async reachable(caller: Caller, policyId: string): Promise<PolicyRow> {
    if (managesNone(caller.scope)) throw partnerErrors.policyManagerUnknown();
    const row = await this.storage.policyById(policyId);
    if (!row) throw partnerErrors.policyNotFound(policyId);
    if (!inScope(caller.scope, row.policyGroupId)) throw partnerErrors.policyDenied();
    return row;
  }

  private stamp(caller: Caller) {
    return { by: caller.subject, at: this.clock.now() };
  }

  private changed(row: PolicyRow): Promise<void> {
    return this.events.publish('policy.changed', { policyId: row.id, policyGroupId: row.policyGroupId });
  }

  async create(caller: Caller, input: PolicyInput): Promise<PolicyRow> {
    const policyGroupId = await this.groupFor(caller.scope, input.policyGroupName);
    const policies = checkContent(input.policies);
    const { by, at } = this.stamp(caller);
    const row = await this.storage.createPolicy({
      id: randomUUID(),
      policyGroupId,
      name: input.name,
      description: input.desc,
      policies,
      createdBy: by,
      createdAt: at,
    });
    if (!row) throw partnerErrors.policyNameTaken(input.name);
    return row;
  }

  async update(caller: Caller, policyId: string, input: PolicyUpdate): Promise<PolicyRow> {
    if (input.name == null && input.desc == null && input.policies == null) throw partnerErrors.policyNothingToUpdate();
    const row = await this.reachable(caller, policyId);
    const changes: PolicyChanges = {
      ...(input.name != null ? { name: input.name } : {}),
      ...(input.desc != null ? { description: input.desc } : {}),
      ...(input.policies ? { policies: checkContent(input.policies) } : {}),
    };
    const updated = await this.storage.updatePolicy(row.id, changes, this.stamp(caller));
    if (!updated) throw partnerErrors.policyNameTaken(input.name ?? row.name);
    await this.changed(updated);
    return updated;
  }

  async setActive(caller: Caller, policyId: string, isActive: boolean): Promise<PolicyRow> {
    const row = await this.reachable(caller, policyId);
    const updated = await this.storage.setPolicyActive(row.id, isActive, this.stamp(caller));
    await this.changed(updated);
    return updated;
  }

  get(caller: Caller, policyId: string): Promise<PolicyRow> {
    return this.reachable(caller, policyId);
  }

  /** The policies of the caller's groups, by name (PMS_POL_001 for a manager of none). */
  ofCaller(caller: Caller): Promise<PolicyRow[]> {
    if (managesNone(caller.scope)) throw partnerErrors.policyManagerUnknown();
    return wholeList('policies', 'policies', (take) => this.storage.policiesOf(caller.scope, take));
  }

  list(scope: Scope, page: PageArgs, filter?: PolicyFilter | null): Promise<Connection<PolicyRow>> {
    return this.storage.policiesPage(scope, page, filter);
  }

  /** The policies of each group of a page (`policyGroups { policies }`), batched over the groups. */
  policiesOfGroups(scope: Scope, filter?: Omit<PolicyFilter, 'policyGroupId'> | null): NestedList<PolicyRow> {
    return this.storage.policiesOfGroups(scope, filter);
  }

  /** Policies by id within the scope, in one query (references and loaders). */
  async byIds(scope: Scope, ids: readonly string[]): Promise<Map<string, PolicyRow>> {
    return new Map((await this.storage.policiesByIds(scope, ids)).map((row) => [row.id, row]));
  }

  /** A policy with its group id, or null: what partners' API keys are moved to (one query by primary key). */
  policyInGroup(policyId: string): Promise<PolicyRow | null> {
    return this.storage.policyById(policyId);
  }

  /** The policy of that name in the group, or null: what a partner asks an API key for. */
  named(policyGroupId: string, name: string): Promise<PolicyRow | null> {
    return this.storage.policyNamed(policyGroupId, name);
  }

  /** Whether any group has a policy of that name (a partner asking for another group's policy learns only that). */
  existsNamed(name: string): Promise<boolean> {
    return this.storage.anyPolicyNamed(name);
  }

  /** A policy with its group's switch, or null: validatePartnerMisp's last links (one statement). */
  link(policyId: string): Promise<PolicyLink | null> {
    return this.storage.policyLink(policyId);
  }
}
