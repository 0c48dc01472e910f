import type { Port } from '../../lib/port.js';
import type { UserRow } from './storage/users.js';
import type { Principal } from '../../lib/tokens.js';
import { authErrors } from './errors.js';

/** Who asks: its id and roles. */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** Where users are placed, as a list filters on it. */
export interface PlacementFilter {
  /** placed in this zone or a zone below it (mapped to it, or working at a centre there) */
  zoneCode?: string | null;
  /** mapped to this registration centre */
  regCenterId?: string | null;
}

/**
 * Where users are placed (their zones, the registration centre they work at)
 * is master data's: auth asks it through its service (`userPlaces`), never in
 * its tables. Master data is built after auth, so the service is looked up at
 * call time.
 */
export interface UserPlacement {
  /** the users an admin administers: placed in the zones it covers, or working at a centre it reaches */
  usersAdministeredBy(caller: Caller): Promise<ReadonlySet<string>>;
  /** the users placed as the filter says; `seenBy`: only in the zones it covers and at the centres it reaches (none elsewhere) */
  placedUsers(filter: PlacementFilter, seenBy?: Caller): Promise<ReadonlySet<string>>;
}

/** The users a caller manages: every user (`userIds` null), or those ids. */
export interface UserScope {
  caller: Caller;
  userIds: ReadonlySet<string> | null;
}

/**
 * Which users an admin manages, as MOSIP's admin portal scopes them: a
 * GLOBAL_ADMIN every user; a ZONAL_ADMIN the users of its zones (the user
 * zone and user centre mappings it administers), whatever path reaches them
 * (the users list and its filters, a user's roles on any record that names
 * the user).
 */
export class UserScopes {
  /** where users are placed: master data's, which uses auth, plugs it in */
  constructor(private readonly placement: Port<UserPlacement>) {}

  private placements(): UserPlacement {
    return this.placement.get();
  }

  /** The caller's scope: read it once per request. */
  async of(caller: Caller): Promise<UserScope> {
    return { caller, userIds: caller.roles.includes('GLOBAL_ADMIN') ? null : await this.placements().usersAdministeredBy(caller) };
  }

  /**
   * The user ids a list may hold: those of the scope, placed as the filter
   * says, a scoped caller's filter looking only where it sees (in the zones
   * it covers, at the centres it reaches); null when neither narrows the
   * list. A fixed number of statements.
   */
  async among(scope: UserScope, filter?: PlacementFilter | null): Promise<ReadonlySet<string> | null> {
    const placed = filter?.zoneCode || filter?.regCenterId;
    if (!placed) return scope.userIds;
    const { zoneCode, regCenterId } = filter;
    const mine = scope.userIds;
    const users = await this.placements().placedUsers({ zoneCode, regCenterId }, mine ? scope.caller : undefined);
    return mine ? new Set([...users].filter((userId) => mine.has(userId))) : users;
  }

  /** A user's roles, for a caller whose scope holds the user (KER-ATH-403 otherwise). */
  static rolesOf(scope: UserScope, user: Pick<UserRow, 'userId' | 'roles'>): string[] {
    if (scope.userIds && !scope.userIds.has(user.userId)) throw authErrors.notYourUser(user.userId);
    return user.roles;
  }
}
