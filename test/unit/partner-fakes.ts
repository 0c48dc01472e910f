// In-memory stand-ins for partner management's storage and neighbours: the rules run over them with no database.
import { expect } from 'vitest';
import { EventBus, type DomainEvents, type EventName } from '../../lib/events.js';
import { createLogger } from '../../lib/log.js';
import { MasterKey } from '../../lib/master-key.js';
import { ManualClock } from '../../lib/time.js';
import type { MispRow, MispsStorage } from '../../subgraphs/partner/misps/storage.js';
import { ApiKeyService } from '../../subgraphs/partner/partners/api-keys.js';
import { PartnerScopes } from '../../subgraphs/partner/partners/reach.js';
import { PartnerService, type PartnerServiceDeps } from '../../subgraphs/partner/partners/service.js';
import type { ApiKeyRequestRow, PartnerApiKey, PartnerRow, PartnersStorage } from '../../subgraphs/partner/partners/storage.js';
import { PolicyGroupService } from '../../subgraphs/partner/policies/groups-service.js';
import { PolicyService } from '../../subgraphs/partner/policies/service.js';
import type { PoliciesStorage, PolicyGroupRow, PolicyRow } from '../../subgraphs/partner/policies/storage.js';

export const NOW = new Date('2026-05-01T10:00:00.000Z');
export const clock = () => new ManualClock(NOW);

/** The answers of async methods, given at once as plain values or as promises. */
type Answers<T> = { [K in keyof T]?: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R | Promise<R> : never };

/** An object of async methods (a storage, a neighbouring service) made of those a test needs, each answering as a promise; any other rejects, naming itself. */
export function fakeAsync<T extends object>(answers: Answers<T>): T {
  return new Proxy(answers, {
    get: (target, name) => {
      const answer: unknown = target[name as keyof T];
      if (typeof answer === 'function') return (...args: unknown[]) => Promise.resolve(answer.apply(target, args) as unknown);
      return typeof name === 'string' && name !== 'then' ? () => Promise.reject(new Error(`not faked: ${name}`)) : undefined;
    },
  }) as unknown as T;
}

/** The platform's bus, with every publication recorded in order. */
export function recordingBus() {
  const bus = new EventBus(createLogger('silent'));
  const published: [EventName, unknown][] = [];
  const publish = bus.publish.bind(bus);
  bus.publish = async <K extends EventName>(name: K, payload: DomainEvents[K]) => {
    published.push([name, payload]);
    await publish(name, payload);
  };
  return { bus, published };
}

const stamped = { createdBy: 'seed', createdAt: NOW, updatedBy: null, updatedAt: null };

export const partnerRow = (row: Partial<PartnerRow> & Pick<PartnerRow, 'id' | 'policyGroupId'>): PartnerRow => ({
  userId: `${row.id}-login`,
  organizationName: `${row.id} Ltd`,
  contactNumber: '+1 555 0100',
  emailId: `${row.id}@example.org`,
  address: 'Main Street 1',
  status: 'Active',
  ...stamped,
  ...row,
});

export const requestRow = (row: Partial<ApiKeyRequestRow> & Pick<ApiKeyRequestRow, 'id' | 'partnerId' | 'policyId'>): ApiKeyRequestRow => ({
  useCaseDescription: null,
  status: 'in-progress',
  decidedBy: null,
  decidedAt: null,
  createdBy: 'seed',
  createdAt: NOW,
  ...row,
});

export const keyRow = (row: Partial<PartnerApiKey> & Pick<PartnerApiKey, 'keyHash' | 'partnerId' | 'policyId'>): PartnerApiKey => ({
  id: `key-${row.keyHash}`,
  keyHint: row.keyHash.slice(-4),
  requestId: `request-${row.keyHash}`,
  status: 'Active',
  expiresAt: new Date(NOW.getTime() + 86_400_000),
  ...stamped,
  ...row,
});

export const policyRow = (row: Partial<PolicyRow> & Pick<PolicyRow, 'id' | 'policyGroupId'>): PolicyRow => ({
  name: row.id,
  description: `policy ${row.id}`,
  policies: { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] },
  isActive: true,
  ...stamped,
  ...row,
});

export const groupRow = (id: string, isActive = true): PolicyGroupRow => ({ id, name: id, description: null, isActive, ...stamped });

export const mispRow = (row: Partial<MispRow> & Pick<MispRow, 'id'>): MispRow => ({
  organizationName: `MISP ${row.id}`,
  nameKey: `misp ${row.id}`,
  contactNumber: null,
  emailId: `${row.id}@misp.example.org`,
  address: 'Harbour Road 2',
  status: 'Active',
  isActive: true,
  ...stamped,
  ...row,
});

/** Content as the database gives it back (JSON). */
const asStored = (content: object) => JSON.parse(JSON.stringify(content)) as PolicyRow['policies'];

const byId = <T extends { id: string }>(rows: T[] = []) => new Map(rows.map((row) => [row.id, row]));

/** The partners' tables as maps; `atomically` runs the work as it comes (the fake has nothing to roll back). */
export function partnersTables(seed: { partners?: PartnerRow[]; requests?: ApiKeyRequestRow[]; keys?: PartnerApiKey[] } = {}) {
  const partners = byId(seed.partners);
  const requests = byId(seed.requests);
  const keys = new Map((seed.keys ?? []).map((key) => [key.keyHash, key]));
  const storage: PartnersStorage = fakeAsync<PartnersStorage>({
    partnerById: (id) => partners.get(id) ?? null,
    partnerOfUser: (userId) => [...partners.values()].find((row) => row.userId === userId) ?? null,
    createPartner: (row) => (partners.has(row.id) ? null : (partners.set(row.id, { ...row, updatedBy: null, updatedAt: null }), partners.get(row.id)!)),
    setPartnerStatus: (id, status, { by, at }) => partners.set(id, { ...partners.get(id)!, status, updatedBy: by, updatedAt: at }).get(id)!,
    partnersByIds: (scope, ids) =>
      ids.flatMap((id) => partners.get(id) ?? []).filter((row) => scope.all || row.userId === scope.subject || scope.groupIds.includes(row.policyGroupId)),
    partnersInGroups: (groupIds) => [...partners.values()].filter((row) => groupIds.includes(row.policyGroupId)),
    requestById: (id) => requests.get(id) ?? null,
    createRequest: (row) => requests.set(row.id, { ...row, decidedBy: null, decidedAt: null }).get(row.id)!,
    decideRequest: (id, from, status, { by, at }) => {
      const row = requests.get(id);
      if (row?.status !== from) return false;
      requests.set(id, { ...row, status, decidedBy: by, decidedAt: at });
      return true;
    },
    apiKeyByHash: (hash) => keys.get(hash) ?? null,
    apiKeyOfRequest: (requestId) => [...keys.values()].find((key) => key.requestId === requestId) ?? null,
    createApiKey: (key) =>
      [...keys.values()].some((other) => other.requestId === key.requestId)
        ? null
        : keys.set(key.keyHash, { ...key, updatedBy: null, updatedAt: null }).get(key.keyHash)!,
    setApiKeyStatus: (hash, status, { by, at }) => keys.set(hash, { ...keys.get(hash)!, status, updatedBy: by, updatedAt: at }).get(hash)!,
    moveApiKey: (hash, from, to, { by, at }) => {
      const key = keys.get(hash);
      if (key?.policyId !== from) return false;
      keys.set(hash, { ...key, policyId: to, updatedBy: by, updatedAt: at });
      return true;
    },
    atomically: (work) => work(storage),
  });
  return { storage, partnerRows: partners, requests, keys };
}

/** Policy groups, their managers and policies as maps. */
export function policiesTables(seed: { groups?: PolicyGroupRow[]; managers?: [groupId: string, userId: string][]; policies?: PolicyRow[] } = {}) {
  const groups = byId(seed.groups);
  const managers = [...(seed.managers ?? [])];
  const policies = byId(seed.policies);
  const named = (groupId: string, name: string) => [...policies.values()].find((row) => row.policyGroupId === groupId && row.name === name);
  const storage = fakeAsync<PoliciesStorage>({
    managedBy: (userId) => managers.filter(([, user]) => user === userId).map(([group]) => group),
    addManager: (groupId, userId) => {
      if (!managers.some(([group, user]) => group === groupId && user === userId)) managers.push([groupId, userId]);
    },
    groupById: (id) => groups.get(id) ?? null,
    groupByName: (name) => [...groups.values()].find((row) => row.name === name) ?? null,
    policyById: (id) => policies.get(id) ?? null,
    policyNamed: (groupId, name) => named(groupId, name) ?? null,
    anyPolicyNamed: (name) => [...policies.values()].some((row) => row.name === name),
    createPolicy: (row) =>
      named(row.policyGroupId, row.name) ? null : policies.set(row.id, policyRow({ ...row, policies: asStored(row.policies) })).get(row.id)!,
    updatePolicy: (id, { policies: content, ...changes }, { by, at }) => {
      const row = policies.get(id)!;
      const clash = changes.name ? named(row.policyGroupId, changes.name) : undefined;
      if (clash && clash.id !== id) return null;
      return policies.set(id, { ...row, ...changes, ...(content ? { policies: asStored(content) } : {}), updatedBy: by, updatedAt: at }).get(id)!;
    },
    setPolicyActive: (id, isActive, { by, at }) => policies.set(id, { ...policies.get(id)!, isActive, updatedBy: by, updatedAt: at }).get(id)!,
  });
  return { storage, groups, managers, policies };
}

/** The MISPs' table as a map; names are unique by key, as the index keeps them. */
export function mispsTable(seed: MispRow[] = []) {
  const misps = byId(seed);
  const keyTaken = (nameKey: string, except?: string) => [...misps.values()].some((row) => row.nameKey === nameKey && row.id !== except);
  const storage = fakeAsync<MispsStorage>({
    byId: (id) => misps.get(id) ?? null,
    idTaken: (id) => misps.has(id),
    nameKeyTaken: (nameKey) => keyTaken(nameKey),
    create: (row) => (keyTaken(row.nameKey) ? null : misps.set(row.id, mispRow(row)).get(row.id)!),
    moveStatus: (id, from, to, { by, at }) => {
      const row = misps.get(id);
      if (row?.status !== from) return false;
      misps.set(id, { ...row, status: to, updatedBy: by, updatedAt: at });
      return true;
    },
    setActive: (id, isActive, { by, at }) => misps.set(id, { ...misps.get(id)!, isActive, updatedBy: by, updatedAt: at }).get(id)!,
    update: (id, changes, { by, at }) =>
      changes.nameKey && keyTaken(changes.nameKey, id) ? null : misps.set(id, { ...misps.get(id)!, ...changes, updatedBy: by, updatedAt: at }).get(id)!,
  });
  return { storage, misps };
}

/** Rejects with the platform error of that code. */
export const rejectsWith = (promise: Promise<unknown>, code: string) => expect(promise).rejects.toMatchObject({ code });

export const MASTER_KEY = MasterKey.fromPassphrase('partner management unit tests');

/** Callers: a partner manager of each group, a policy manager of group A, an admin, a manager of no group. */
export const as = {
  managerA: { subject: 'manager-a', roles: ['PARTNERMANAGER'] },
  managerB: { subject: 'manager-b', roles: ['PARTNERMANAGER'] },
  policyManagerA: { subject: 'policy-manager-a', roles: ['POLICYMANAGER'] },
  idle: { subject: 'manager-of-none', roles: ['PARTNERMANAGER', 'POLICYMANAGER'] },
  admin: { subject: 'admin', roles: ['GLOBAL_ADMIN'] },
  partnerA: { subject: 'P-A-login', roles: ['PARTNER'] },
  partnerB: { subject: 'P-B-login', roles: ['PARTNER'] },
};

export interface WorldSeed {
  partners?: PartnerRow[];
  requests?: ApiKeyRequestRow[];
  policies?: PolicyRow[];
  groups?: PolicyGroupRow[];
  /** clear API keys of partners, with their policy */
  keys?: { clear: string; partnerId: string; policyId: string }[];
  certificates?: Partial<PartnerServiceDeps['certificates']>;
}

/**
 * Partner management's policies and partners areas wired as the product
 * wires them, over in-memory tables: groups A and B (one manager each, the
 * policy manager in A), partners P-A and P-B, two active policies in A, an
 * inactive one, one in B.
 */
export function partnerWorld(seed: WorldSeed = {}) {
  const time = clock();
  const { bus, published } = recordingBus();
  const policyTables = policiesTables({
    groups: seed.groups ?? [groupRow('group-a'), groupRow('group-b'), groupRow('group-off', false)],
    managers: [
      ['group-a', as.managerA.subject],
      ['group-a', as.policyManagerA.subject],
      ['group-b', as.managerB.subject],
    ],
    policies: seed.policies ?? [
      policyRow({ id: 'pol-a', policyGroupId: 'group-a' }),
      policyRow({ id: 'pol-a2', policyGroupId: 'group-a' }),
      policyRow({ id: 'pol-a-off', policyGroupId: 'group-a', isActive: false }),
      policyRow({ id: 'pol-b', policyGroupId: 'group-b' }),
    ],
  });
  const tables = partnersTables({
    partners: seed.partners ?? [partnerRow({ id: 'P-A', policyGroupId: 'group-a' }), partnerRow({ id: 'P-B', policyGroupId: 'group-b' })],
    requests: seed.requests,
  });
  const users = new Map([
    [as.managerA.subject, ['PARTNERMANAGER']],
    [as.idle.subject, ['POLICYMANAGER']],
    ['resident', ['RESIDENT']],
  ]);
  const groups = new PolicyGroupService(policyTables.storage, time, {
    usersById: (ids) => Promise.resolve(new Map(ids.flatMap((id) => (users.has(id) ? [[id, { roles: users.get(id)! }]] : [])))),
  });
  const policies = new PolicyService(policyTables.storage, time, bus);
  const scopes = new PartnerScopes(tables.storage, groups);
  const apiKeys = new ApiKeyService(tables.storage, scopes, policies, time, MASTER_KEY, { apiKeyDays: 30 }, bus);
  const partners = new PartnerService({
    storage: tables.storage,
    scopes,
    groups,
    apiKeys,
    keys: fakeAsync({}),
    certificates: fakeAsync<PartnerServiceDeps['certificates']>({ held: () => false, ...seed.certificates }),
    clock: time,
    events: bus,
  });
  for (const key of seed.keys ?? []) {
    const keyHash = apiKeys.hashOf(key.clear);
    tables.keys.set(keyHash, keyRow({ keyHash, partnerId: key.partnerId, policyId: key.policyId }));
  }
  return { ...tables, policyTables, groups, policies, scopes, apiKeys, partners, bus, published, clock: time };
}
