import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import { PartnerCallers, type AccountDirectory, type Desk } from '../../subgraphs/partner/callers.js';
import { scopeOf, sees } from '../../subgraphs/partner/partners/scope.js';
import { as, NOW, partnerRow, partnerWorld, rejectsWith } from './partner-fakes.js';

const CONTENT = { authPolicies: [{ authType: 'otp', mandatory: true }] };

describe('what a caller sees of partners', () => {
  const partnerOfA = partnerRow({ id: 'P-A', policyGroupId: 'group-a' });

  it('an admin every partner, a partner its own record, a manager those of its groups', () => {
    expect(sees(scopeOf(as.admin, []), partnerOfA)).toBe(true);
    expect(sees(scopeOf(as.partnerA, []), partnerOfA)).toBe(true);
    expect(sees(scopeOf(as.partnerB, []), partnerOfA)).toBe(false);
    expect(sees(scopeOf(as.managerA, ['group-a']), partnerOfA)).toBe(true);
    expect(sees(scopeOf(as.managerB, ['group-b']), partnerOfA)).toBe(false);
  });

  it('looks up the managed groups of a partner manager only', async () => {
    const world = partnerWorld();
    expect(await world.scopes.scope(as.managerA)).toEqual({ all: false, subject: as.managerA.subject, groupIds: ['group-a'] });
    // A policy manager of group A manages no partner there.
    expect(await world.scopes.scope(as.policyManagerA)).toEqual({ all: false, subject: as.policyManagerA.subject, groupIds: [] });
    expect((await world.scopes.scope(as.admin)).all).toBe(true);
  });

  it('reaches a partner’s own record: PMS_PRT_005 when unknown, KER-ATH-403 when another’s', async () => {
    const world = partnerWorld();
    expect((await world.scopes.ownPartner(as.partnerA, 'P-A')).id).toBe('P-A');
    expect((await world.scopes.ownPartner(as.managerA, 'P-A')).id).toBe('P-A');
    expect((await world.scopes.ownPartner(as.admin, 'P-B')).id).toBe('P-B');
    await rejectsWith(world.scopes.ownPartner(as.partnerA, 'NO-SUCH'), 'PMS_PRT_005');
    await rejectsWith(world.scopes.ownPartner(as.partnerB, 'P-A'), 'KER-ATH-403');
    await rejectsWith(world.scopes.ownPartner(as.managerB, 'P-A'), 'KER-ATH-403');
  });

  it('answers a manager about its groups’ partners only: PMS_PMP_001 for a manager of none, 005 unknown, 009 another group’s', async () => {
    const world = partnerWorld();
    expect(await world.scopes.managerGroupsOf(as.managerA, 'P-A')).toEqual(['group-a']);
    await rejectsWith(world.scopes.managerGroupsOf(as.idle, 'P-A'), 'PMS_PMP_001');
    await rejectsWith(world.scopes.managerGroupsOf(as.managerA, 'NO-SUCH'), 'PMS_PMP_005');
    await rejectsWith(world.scopes.managerGroupsOf(as.managerA, 'P-B'), 'PMS_PMP_009');
    expect([...(await world.scopes.reachedPartners(as.managerA, ['P-A', 'P-B', 'NO-SUCH']))]).toEqual(['P-A']);
    expect([...(await world.scopes.reachedPartners(as.partnerB, ['P-A', 'P-B']))]).toEqual(['P-B']);
  });

  it('lists a manager’s partners, PMS_PMP_004 when its groups have none', async () => {
    const world = partnerWorld({ partners: [partnerRow({ id: 'P-A', policyGroupId: 'group-a' })] });
    expect((await world.partners.managedPartners(as.managerA)).map((row) => row.id)).toEqual(['P-A']);
    await rejectsWith(world.partners.managedPartners(as.managerB), 'PMS_PMP_004');
  });
});

describe('what a caller reaches of policies', () => {
  const caller = async (world: ReturnType<typeof partnerWorld>, who: { subject: string; roles: string[] }) => ({
    subject: who.subject,
    scope: await world.groups.scopeOf(who),
  });

  it('puts a new policy in the named group of the caller, its only group, or for an admin the default group', async () => {
    const world = partnerWorld();
    const input = { name: 'new', desc: 'a policy', policies: CONTENT };
    expect((await world.policies.create(await caller(world, as.policyManagerA), input)).policyGroupId).toBe('group-a');
    expect((await world.policies.create(await caller(world, as.admin), { ...input, policyGroupName: 'group-b' })).policyGroupId).toBe('group-b');
    await rejectsWith(world.policies.create(await caller(world, as.admin), input), 'PMS_COR_001');
    await rejectsWith(world.policies.create(await caller(world, as.policyManagerA), { ...input, policyGroupName: 'group-b' }), 'PMS_POL_002');
    await rejectsWith(world.policies.create(await caller(world, as.idle), input), 'PMS_POL_001');
  });

  it('acts on a policy of the caller’s groups only: PMS_POL_001 for a manager of none, 008 unknown, 010 another group’s', async () => {
    const world = partnerWorld();
    const managerA = await caller(world, as.policyManagerA);
    expect((await world.policies.get(managerA, 'pol-a')).id).toBe('pol-a');
    await rejectsWith(world.policies.get(await caller(world, as.idle), 'pol-a'), 'PMS_POL_001');
    await rejectsWith(world.policies.get(managerA, 'no-such-policy'), 'PMS_POL_008');
    await rejectsWith(world.policies.setActive(managerA, 'pol-b', false), 'PMS_POL_010');
    expect(world.policyTables.policies.get('pol-b')?.isActive).toBe(true);
  });

  it('maps only users with a manager role into a group, once', async () => {
    const world = partnerWorld();
    await world.groups.addManager('admin', 'group-b', as.managerA.subject);
    await world.groups.addManager('admin', 'group-b', as.managerA.subject);
    await rejectsWith(world.groups.addManager('admin', 'group-b', 'resident'), 'PMS_POL_001');
    await rejectsWith(world.groups.addManager('admin', 'no-such-group', as.managerA.subject), 'PMS_COR_002');
    expect(world.policyTables.managers.filter(([group]) => group === 'group-b')).toEqual([
      ['group-b', as.managerB.subject],
      ['group-b', as.managerA.subject],
    ]);
  });
});

describe('the desks of partner management (who may sit where)', () => {
  // Users by id with the time their password expires (null: never); this directory's passwords expire when last changed.
  const users = new Map<string, Date | null>([
    ['pm', null],
    ['stale', new Date(NOW.getTime() - 1)],
  ]);
  const directory: AccountDirectory = {
    user: (userId) => Promise.resolve(users.has(userId) ? { passwordHash: 'hash', passwordChangedAt: users.get(userId)! } : null),
    passwordExpiresAt: (user) => user.passwordChangedAt,
  };
  const callers = () => new PartnerCallers(directory, new ManualClock(NOW));
  const principal = (subject: string, roles: string[], appId = 'partnermanagement', subjectType: Principal['subjectType'] = 'user') =>
    ({ subject, roles, appId, subjectType, tokenId: `${subject}-${appId}-${roles.join()}` }) as Principal;
  const admit = (caller: Principal, desk: Desk) => callers().admit(caller, desk);

  it('admits a known user with the desk’s role and a partner management token; admins also with their admin token', async () => {
    await expect(admit(principal('pm', ['PARTNERMANAGER']), 'partnerManager')).resolves.toBeUndefined();
    await expect(admit(principal('pm', ['GLOBAL_ADMIN'], 'admin'), 'misp')).resolves.toBeUndefined();
    await expect(admit(principal('ida', ['ID_AUTHENTICATION'], 'ida', 'client'), 'validation')).resolves.toBeUndefined();
  });

  it('gives each desk its own codes: another application’s token, a client login, an unknown user, an expired password', async () => {
    await rejectsWith(admit(principal('pm', ['PARTNERMANAGER'], 'resident'), 'partnerManager'), 'PMS_PMP_002');
    await rejectsWith(admit(principal('pm', ['POLICYMANAGER'], 'resident'), 'policy'), 'PMS_POL_002');
    await rejectsWith(admit(principal('pm', ['PARTNER_ADMIN'], 'resident'), 'misp'), 'PMS_MSP_002');
    await rejectsWith(admit(principal('pm', ['PARTNER'], 'resident'), 'partner'), 'PMS_PRT_003');
    await rejectsWith(admit(principal('machine', ['PARTNERMANAGER'], 'partnermanagement', 'client'), 'partnerManager'), 'PMS_PMP_001');
    await rejectsWith(admit(principal('gone', ['POLICYMANAGER']), 'policy'), 'PMS_POL_001');
    await rejectsWith(admit(principal('gone', ['PARTNER_ADMIN']), 'misp'), 'PMS_MSP_001');
    await rejectsWith(admit(principal('stale', ['PARTNERMANAGER']), 'partnerManager'), 'PMS_PMP_003');
    await rejectsWith(admit(principal('stale', ['PARTNER']), 'partner'), 'PMS_PRT_004');
  });

  it('judges a caller outside the call’s desk at its own desk', () => {
    const desks = callers();
    expect(desks.deskOf(principal('pm', ['PARTNERMANAGER']), 'partner')).toBe('partnerManager');
    expect(desks.deskOf(principal('pm', ['PARTNER']), 'partner')).toBe('partner');
    expect(desks.deskOf(principal('pm', ['GLOBAL_ADMIN', 'PARTNERMANAGER']), 'validation')).toBe('misp');
  });
});
