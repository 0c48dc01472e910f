import { PlatformError } from '../../lib/errors.js';
import type { Role } from '../../lib/roles.js';
import type { Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import type { RequestContext } from '../../lib/context.js';
import type { User } from '../../generated/prisma/client.js';
import { partnerErrors } from './errors.js';

/**
 * The desks of partner management: MISP administration, policy management,
 * partner management, partners' own calls, and the validation ID
 * authentication asks for. Each desk has its own codes for a caller it does
 * not accept (spec Document 1: PMS_MSP_001/002, PMS_POL_001/002,
 * PMS_PMP_001/002/003, PMS_PRT_003/004).
 */
export type Desk = 'misp' | 'policy' | 'partnerManager' | 'partner' | 'validation';

interface DeskRules {
  /** the roles that sit at this desk, in the order a caller's desk is chosen by when the call's own desk is not its */
  roles: readonly Role[];
  /** the applications whose tokens it accepts (admins' `admin` tokens are accepted everywhere) */
  apps: readonly string[];
  /** whether a client login (a machine, not a person) may sit here */
  clients: boolean;
  unknown: (why: string) => PlatformError;
  mismatch: (why: string) => PlatformError;
  expired: () => PlatformError;
}

const PARTNER_APP = 'partnermanagement';
const ADMIN_APP = 'admin';
const ADMIN_ROLES: readonly Role[] = ['GLOBAL_ADMIN', 'PARTNER_ADMIN'];
const EXPIRED = 'password expired, reset required';

const DESKS: Readonly<Record<Desk, DeskRules>> = {
  misp: {
    roles: ADMIN_ROLES,
    apps: [PARTNER_APP],
    clients: false,
    unknown: (why) => withReason(partnerErrors.mispAdminUnknown(), why),
    mismatch: (why) => withReason(partnerErrors.mispAdminMismatch(), why),
    expired: () => withReason(partnerErrors.mispAdminMismatch(), EXPIRED),
  },
  partnerManager: {
    roles: ['PARTNERMANAGER'],
    apps: [PARTNER_APP],
    clients: false,
    unknown: (why) => withReason(partnerErrors.partnerManagerUnknown(), why),
    mismatch: (why) => withReason(partnerErrors.partnerManagerMismatch(), why),
    expired: partnerErrors.partnerManagerPasswordExpired,
  },
  policy: {
    roles: ['POLICYMANAGER'],
    apps: [PARTNER_APP],
    clients: false,
    unknown: (why) => withReason(partnerErrors.policyManagerUnknown(), why),
    mismatch: (why) => withReason(partnerErrors.policyManagerMismatch(), why),
    expired: () => withReason(partnerErrors.policyManagerMismatch(), EXPIRED),
  },
  partner: {
    roles: ['PARTNER'],
    apps: [PARTNER_APP],
    clients: false,
    // A partner without a login of its own has no code of its own: its credentials do not match one.
    unknown: (why) => withReason(partnerErrors.partnerMismatch(), why),
    mismatch: (why) => withReason(partnerErrors.partnerMismatch(), why),
    expired: partnerErrors.partnerPasswordExpired,
  },
  // ID authentication logs in as a client of its own application; validatePartnerMisp answers with the partner manager's codes.
  validation: {
    roles: ['ID_AUTHENTICATION'],
    apps: [PARTNER_APP, 'ida'],
    clients: true,
    unknown: (why) => withReason(partnerErrors.partnerManagerUnknown(), why),
    mismatch: (why) => withReason(partnerErrors.partnerManagerMismatch(), why),
    expired: partnerErrors.partnerManagerPasswordExpired,
  },
};

/** The order a caller's own desk is found in when it calls outside the call's desk (an admin reading partners). */
const DESK_ORDER: readonly Desk[] = ['misp', 'partnerManager', 'policy', 'partner', 'validation'];

const withReason = (error: PlatformError, why: string) => new PlatformError(error.code, `${error.message}: ${why}`);

/** What a token's user looks like to partner management, as of the token's issue (a changed password revokes the token). */
interface Account {
  exists: boolean;
  /** epoch ms; null: the password does not expire */
  expiresAt: number | null;
}

const ACCOUNT_CACHE_SIZE = 10_000;

type Password = Pick<User, 'passwordHash' | 'passwordChangedAt'>;

/** What the desks need of auth's users (its UsersService). */
export interface AccountDirectory {
  user(userId: string): PromiseLike<Password | null>;
  passwordExpiresAt(user: Password): Date | null;
}

/**
 * Admits a caller at a desk, after the role check: the token must have been
 * issued for partner management (admins may bring their admin-portal
 * token), a person's desk takes only users (not client logins), the user
 * must still exist, and its password must not have expired. The user is
 * looked up once per token: a password change, lock or role change revokes
 * the token, so what is cached cannot outlive it; expiry is compared with
 * the clock on every call.
 */
export class PartnerCallers {
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly users: AccountDirectory,
    private readonly clock: Clock,
  ) {}

  /** The desk the caller sits at for a call of `desk`: that one when it holds its roles, else its own. */
  deskOf(caller: Pick<Principal, 'roles'>, desk: Desk): Desk {
    const holds = (candidate: Desk) => DESKS[candidate].roles.some((role) => caller.roles.includes(role));
    return holds(desk) ? desk : (DESK_ORDER.find(holds) ?? desk);
  }

  async admit(caller: Principal, callDesk: Desk): Promise<void> {
    const rules = DESKS[this.deskOf(caller, callDesk)];
    const isAdmin = caller.roles.some((role) => ADMIN_ROLES.includes(role as Role));
    if (!rules.apps.includes(caller.appId) && !(isAdmin && caller.appId === ADMIN_APP)) {
      throw rules.mismatch(`the token was issued for ${caller.appId}, not ${PARTNER_APP}`);
    }
    if (caller.subjectType === 'client') {
      if (rules.clients) return;
      throw rules.unknown(`${caller.subject} is a client login, not a user`);
    }
    const account = await this.account(caller);
    if (!account.exists) throw rules.unknown(`no user ${caller.subject}`);
    if (account.expiresAt !== null && account.expiresAt <= this.clock.now().getTime()) throw rules.expired();
  }

  private async account(caller: Principal): Promise<Account> {
    const cached = this.accounts.get(caller.tokenId);
    if (cached) return cached;
    const user = await this.users.user(caller.subject);
    const account = { exists: user !== null, expiresAt: user ? (this.users.passwordExpiresAt(user)?.getTime() ?? null) : null };
    if (this.accounts.size >= ACCOUNT_CACHE_SIZE) this.accounts.delete(this.accounts.keys().next().value!);
    this.accounts.set(caller.tokenId, account);
    return account;
  }
}

type Resolve = (...args: [unknown, unknown, unknown, unknown]) => unknown;

/**
 * Puts the desk check in front of every row of the areas' role tables (root
 * fields and entity references), inside the role check: REST and GraphQL
 * reach the same resolvers, so both are admitted alike.
 */
export function admitAtDesks(
  resolvers: Record<string, object>,
  areas: readonly { access: Readonly<Record<string, unknown>>; desk: Desk; desks?: Readonly<Record<string, Desk>> }[],
  callers: () => PartnerCallers,
): Record<string, object> {
  // Only the types with rows are copied: the others (scalars among them) stay as they are.
  const admitted = { ...resolvers } as Record<string, Record<string, unknown>>;
  for (const area of areas) {
    for (const operation of Object.keys(area.access)) {
      const [type = '', field = ''] = operation.split('.');
      const fields = (admitted[type] = { ...admitted[type] });
      const resolve = fields[field];
      if (typeof resolve !== 'function') throw new Error(`${operation} has a role row but no resolver`);
      const desk = area.desks?.[operation] ?? area.desk;
      // A reference resolver gets (reference, context, info); any other (parent, args, context, info).
      const contextAt = field === '__resolveReference' ? 1 : 2;
      fields[field] = async (...args: [unknown, unknown, unknown, unknown]) => {
        const context = args[contextAt] as RequestContext;
        await callers().admit(await context.principal(), desk);
        return (resolve as Resolve)(...args);
      };
    }
  }
  return admitted;
}
