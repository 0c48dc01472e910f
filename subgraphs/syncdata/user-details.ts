import { capped } from '../../lib/graph/capped.js';
import type { Role } from '../../lib/roles.js';
import type { Principal } from '../../lib/tokens.js';
import { CentreReach } from '../masterdata/centres/reach.js';
import { syncdataErrors } from './errors.js';
import type { SyncPorts } from './ports.js';

export interface SyncUserDetail {
  userName: string;
  mail: string | null;
  mobile: string | null;
  langCode: string;
  /** the stored hash (scrypt with its parameters), for offline login; never a clear password */
  userPassword: string | null;
  name: string | null;
  roles: string[];
}

/**
 * The roles a registration client logs its operators in with (MOSIP's
 * REGISTRATION_OPERATOR is no role of this platform). userdetails sends the
 * password hash of an account only when these are all its roles: a hash
 * shipped to every machine of a centre is one an attacker may crack offline,
 * so it must open nothing but the registration client.
 */
export const REGISTRATION_CLIENT_ROLES: readonly Role[] = ['REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'];

/** The most users a centre's offline login list holds (userdetails): a centre's staff, refused beyond rather than cut short. */
export const MAX_CENTRE_USERS = 1000;

const onlyRegistrationRoles = (roles: readonly string[]) =>
  roles.length > 0 && roles.every((role) => (REGISTRATION_CLIENT_ROLES as readonly string[]).includes(role));

/**
 * A registration client's offline login list: the registration staff of a
 * live centre (unlocked accounts whose roles are all registration client
 * roles), never an account with other powers, in user id order. Read by the
 * centre's own staff and the admins of its zone: an unknown centre is
 * KER-SNC-141 first, another's KER-ATH-403; more than MAX_CENTRE_USERS
 * active mappings KER-SNC-500.
 */
export async function userDetails(ports: SyncPorts, caller: Pick<Principal, 'subject' | 'roles'>, regCenterId: string): Promise<SyncUserDetail[]> {
  if (!(await ports.places.centreExists(regCenterId))) throw syncdataErrors.centreNotFound(regCenterId);
  if (!CentreReach.reachesCentre(await ports.reach.of(caller), regCenterId)) throw syncdataErrors.notYourCentre(regCenterId);
  const staff = await capped(
    MAX_CENTRE_USERS,
    (take) => ports.places.activeStaff(regCenterId, take),
    () => syncdataErrors.listTooLong(`users mapped to centre ${regCenterId}`, MAX_CENTRE_USERS),
  );
  const users = await ports.users.usersById(staff);
  return staff.flatMap((userId) => {
    const user = users.get(userId);
    return user && !user.isLocked && onlyRegistrationRoles(user.roles)
      ? [
          {
            userName: user.userId,
            mail: user.mail,
            mobile: user.mobile,
            langCode: user.langCode,
            userPassword: user.passwordHash,
            name: user.name,
            // each registration client role once: REGISTRATION_CLIENT_ROLES.length at most
            roles: [...new Set(user.roles)],
          },
        ]
      : [];
  });
}
