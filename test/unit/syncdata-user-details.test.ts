// Sync data's offline login list (userdetails), the sample staff, roles and configs over in-memory ports (syncdata-fakes.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../lib/roles.js';
import { MAX_CENTRE_USERS, REGISTRATION_CLIENT_ROLES, SAMPLE_STAFF } from '../../subgraphs/syncdata/service.js';
import { centreRow, centreUserRow, SyncWorld, userRow } from './syncdata-fakes.js';

const officer = { subject: 'officer-1', roles: ['REGISTRATION_OFFICER'] };

let world: SyncWorld;
beforeEach(() => {
  world = new SyncWorld();
  world.centres = [centreRow('10001', 'NTH'), centreRow('10002', 'NTH')];
  world.reaching('officer-1', { centreIds: new Set(['10001']) });
});

const details = (regCenterId = '10001', caller = officer) => world.service().userDetails(caller, regCenterId);
const staffing = (...mappings: [userId: string, roles: string[], extra?: Parameters<typeof userRow>[2]][]) => {
  for (const [userId, roles, extra] of mappings) {
    world.staff.push(centreUserRow(userId, '10001'));
    world.users.push(userRow(userId, roles, extra));
  }
};

describe('a centre’s offline login list', () => {
  it('gives its active staff in user id order, with their stored hashes and each role once', async () => {
    staffing(['officer-2', ['REGISTRATION_OFFICER']], ['officer-1', ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER']]);
    const users = await details();
    expect(users.map((user) => [user.userName, user.roles])).toEqual([
      ['officer-1', ['REGISTRATION_OFFICER', 'REGISTRATION_SUPERVISOR']],
      ['officer-2', ['REGISTRATION_OFFICER']],
    ]);
    expect(users[1]).toEqual({
      userName: 'officer-2',
      mail: 'officer-2@example.org',
      mobile: null,
      langCode: 'eng',
      userPassword: 'scrypt$hash-of-officer-2',
      name: 'officer-2',
      roles: ['REGISTRATION_OFFICER'],
    });
  });

  it('never sends an account with other powers, a locked one, one without roles, one auth does not know, or an inactive mapping', async () => {
    staffing(
      ['clean', ['REGISTRATION_SUPERVISOR']],
      ['admin', ['GLOBAL_ADMIN']],
      ['mixed', ['REGISTRATION_OFFICER', 'ZONAL_ADMIN']],
      ['locked', ['REGISTRATION_OFFICER'], { isLocked: true }],
      ['roleless', []],
    );
    world.staff.push(centreUserRow('ghost', '10001'), centreUserRow('resting', '10001', { isActive: false }));
    world.users.push(userRow('resting', ['REGISTRATION_OFFICER']));
    expect((await details()).map((user) => user.userName)).toEqual(['clean']);
    expect(REGISTRATION_CLIENT_ROLES).toEqual(['REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER']);
  });

  it('an unknown or deleted centre is KER-SNC-141 before the caller’s reach is read; another’s centre KER-ATH-403', async () => {
    await expect(details('99999')).rejects.toMatchObject({ code: 'KER-SNC-141', message: 'Registration center not found: 99999' });
    expect(world.calls).toEqual(['centreExists']);
    world.centres = world.centres.map((centre) => (centre.id === '10001' ? { ...centre, isDeleted: true } : centre));
    await expect(details('10001')).rejects.toMatchObject({ code: 'KER-SNC-141' });
    await expect(details('10002')).rejects.toMatchObject({ code: 'KER-ATH-403' });
    expect(world.staffTakes).toEqual([]);
  });

  it('an admin reaches the centres of its zones; a centre with no staff is an empty list', async () => {
    world.reaching('zonal', { admin: true, zoneCodes: new Set(['NTH']), centreIds: new Set(['10001', '10002']) });
    expect(await details('10002', { subject: 'zonal', roles: ['ZONAL_ADMIN'] })).toEqual([]);
  });

  it(`refuses more than ${MAX_CENTRE_USERS} active mappings (KER-SNC-500) rather than cut the list short`, async () => {
    for (let i = 0; i < MAX_CENTRE_USERS; i++) world.staff.push(centreUserRow(`user-${String(i).padStart(4, '0')}`, '10001'));
    await expect(details()).resolves.toEqual([]);
    expect(world.staffTakes).toEqual([MAX_CENTRE_USERS + 1]);
    world.staff.push(centreUserRow('one-too-many', '10001'));
    await expect(details()).rejects.toMatchObject({ code: 'KER-SNC-500' });
  });
});

describe('the sample staff, roles and configuration', () => {
  it('creates the sample staff that do not exist yet, without passwords, for the registration client only', async () => {
    world.users.push(userRow('sample-officer', ['REGISTRATION_OFFICER']));
    const service = world.service();
    expect(await service.addSampleStaff()).toEqual(['sample-supervisor', 'sample-operator']);
    expect(world.created.every((input) => input.password === null && input.appIds?.join() === 'registrationclient')).toBe(true);
    expect(world.created.map((input) => input.roles)).toEqual(SAMPLE_STAFF.slice(1).map((staff) => staff.roles));
    expect(await service.addSampleStaff()).toEqual([]);
  });

  it('lists every role of the platform, and both configurations as entries', () => {
    const service = world.service();
    expect(service.roles().map((role) => role.roleId)).toEqual([...ROLES]);
    expect(service.configs()).toEqual({ registrationConfiguration: [{ key: 'a', value: '1' }], globalConfiguration: [{ key: 'b', value: '2' }] });
  });
});
