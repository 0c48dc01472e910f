import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Credentials } from '../../lib/credentials.js';
import type { PlatformDeps } from '../../lib/deps.js';
import { ROLES, type Role } from '../../lib/roles.js';
import { hashClientSecret, hashPassword, randomSecret, verifyClientSecret, verifyPassword } from '../../lib/secrets.js';
import type { Principal, Subject, TokenService } from '../../lib/tokens.js';
import { authErrors } from './errors.js';
import { APP_IDS, isAppId } from './realms.js';
import type { ClientDirectory, LoginClient } from './client-directory.js';
import type { AuthSettings } from './settings.js';
import type { AuthStorage } from './storage/index.js';
import type { UserRow } from './storage/users.js';
import { LoginThrottle } from './throttle.js';

const CLIENT_SECRET_PURPOSE = 'auth/client-secret-hmac';
/** The key counters are named under: no account (an e-mail address, a phone number) or client address lies in clear in auth_throttle. */
const THROTTLE_PURPOSE = 'auth/throttle-hmac';
export const ADMIN_USER = 'admin';
export const ADMIN_CLIENT = 'admin-client';

export interface PasswordLoginInput {
  userName: string;
  password: string;
  appId: string;
}
export interface ClientLoginInput {
  clientId: string;
  secretKey: string;
  appId: string;
}

/** The token subject of a user: roles, and the profile validateToken answers with. */
export function userSubject(user: UserRow, appId: string): Subject {
  return {
    id: user.userId,
    type: 'user',
    appId,
    roles: user.roles,
    profile: { name: user.name, mail: user.mail, mobile: user.mobile, langCode: user.langCode, rid: user.rid },
  };
}

/** The signed-in caller as the portal shows it (Query.viewer). */
export interface Viewer {
  id: string;
  type: 'USER' | 'CLIENT' | 'RESIDENT';
  name: string | null;
  roles: Role[];
  appId: string;
}

export interface TokenIdentity {
  userId: string;
  mobile: string | null;
  mail: string | null;
  langCode: string | null;
  userPassword: null;
  name: string | null;
  roles: string[];
  token: string;
  rid: string | null;
}

/** The authentication manager's rules: logins, token validation and invalidation, bootstrap accounts. */
export class AuthService {
  private readonly tokens: TokenService;
  /** shared with the OTP login, so every login path counts in one place */
  readonly throttle: LoginThrottle;
  /** the HMAC key of client secrets, shared with client administration */
  readonly secretKey: Buffer;

  constructor(
    private readonly deps: PlatformDeps,
    settings: AuthSettings,
    private readonly clients: ClientDirectory,
    /** the users and clients tables, and the login counters */
    private readonly storage: Pick<AuthStorage, 'users' | 'clients' | 'throttle'>,
  ) {
    this.tokens = deps.tokens;
    this.secretKey = deps.masterKey.derive(CLIENT_SECRET_PURPOSE);
    this.throttle = new LoginThrottle(
      storage.throttle,
      deps.clock,
      { account: settings.throttleAccount, address: settings.throttleAddress },
      deps.masterKey.derive(THROTTLE_PURPOSE),
    );
  }

  private requireRealm(appId: string): void {
    if (!isAppId(appId)) throw authErrors.unknownRealm(appId);
  }

  async loginWithPassword(input: PasswordLoginInput, clientAddress: string) {
    this.requireRealm(input.appId);
    const userName = input.userName.trim();
    if (!userName) throw authErrors.missingUser();
    let user: UserRow | null = null;
    await this.throttle.attempt(
      `user:${userName.toLowerCase()}`,
      clientAddress,
      { throttled: authErrors.throttled, denied: authErrors.invalidCredentials },
      async () => {
        user = await this.storage.users.byId(userName);
        // The hash is checked even for an unknown user, so timing does not tell which names exist.
        const passwordOk = await verifyPassword(input.password, user?.passwordHash);
        return passwordOk && user !== null && !user.isLocked && user.appIds.includes(input.appId);
      },
    );
    const issued = await this.tokens.issue(userSubject(user!, input.appId), { clientAddress });
    return {
      token: issued.token,
      refreshToken: issued.refreshToken!,
      expiryTime: issued.expiresIn,
      refreshExpiryTime: issued.refreshExpiresIn!,
      userId: user!.userId,
      status: 'success',
      message: 'Username and password combination had been validated successfully',
    };
  }

  async loginWithClientSecret(input: ClientLoginInput, clientAddress: string) {
    this.requireRealm(input.appId);
    let client: LoginClient | null = null;
    await this.throttle.attempt(
      `client:${input.clientId}`,
      clientAddress,
      { throttled: authErrors.clientThrottled, denied: authErrors.clientUnauthorized },
      async () => {
        client = input.clientId ? await this.clients.get(input.clientId) : null;
        const secretOk = verifyClientSecret(input.secretKey, client?.secretHash ?? '', this.secretKey);
        return secretOk && client !== null && client.isActive && client.appIds.includes(input.appId);
      },
    );
    const { clientId, roles } = client!;
    const issued = await this.tokens.issue({ id: clientId, type: 'client', appId: input.appId, roles }, { clientAddress });
    return { token: issued.token, expiryTime: issued.expiresIn, status: 'Success', message: 'Clientid and Token combination had been validated successfully' };
  }

  /**
   * The caller as its token speaks for it: a user's name as it was at login,
   * a client's client id, no name for a resident; only the roles the platform
   * knows (a token names no other).
   */
  viewerOf(principal: Principal): Viewer {
    const type = principal.subjectType;
    return {
      id: principal.subject,
      type: type === 'client' ? 'CLIENT' : type === 'resident' ? 'RESIDENT' : 'USER',
      name: type === 'client' ? principal.subject : type === 'user' ? (principal.profile.name ?? null) : null,
      roles: principal.roles.filter((role): role is Role => (ROLES as readonly string[]).includes(role)),
      appId: principal.appId,
    };
  }

  /** The identity record of a verified token, from its claims; a client's record carries its client id as user id. */
  identityOf(principal: Principal): TokenIdentity {
    const { profile } = principal;
    return {
      userId: principal.subject,
      mobile: profile.mobile ?? null,
      mail: profile.mail ?? null,
      langCode: profile.langCode ?? null,
      userPassword: null,
      name: profile.name ?? null,
      roles: [...principal.roles],
      token: principal.token,
      rid: profile.rid ?? null,
    };
  }

  /** Logout: the caller's session ends, its refresh token with it. */
  async invalidateToken(credentials: Credentials): Promise<{ message: string }> {
    const principal = await this.tokens.verify(credentials);
    await this.tokens.revokeSession(principal.sessionId);
    return { message: 'Token has been invalidated successfully' };
  }

  /** MOSIP's refreshToken/{appId}: new tokens in the same session; the refresh token is rotated. */
  async refresh(refreshToken: string | undefined, appId: string) {
    this.requireRealm(appId);
    const issued = await this.tokens.refresh(refreshToken, appId);
    return {
      token: issued.token,
      refreshToken: issued.refreshToken!,
      expiryTime: issued.expiresIn,
      refreshExpiryTime: issued.refreshExpiresIn!,
      status: 'success',
      message: 'Token refreshed successfully',
    };
  }

  realms(): string[] {
    return [...APP_IDS];
  }

  /**
   * Creates the bootstrap accounts of CONTRACT.md: `admin` and `admin-client`
   * from the environment, or a generated admin password on a first start.
   * Instances starting together on one database each offer the accounts; an
   * insert that skips what exists keeps one, and only the instance whose row
   * was stored reports it (and hands out the password it generated).
   */
  async bootstrap(): Promise<void> {
    const { config, logger } = this.deps;
    const everything = { roles: [...ROLES], appIds: [...APP_IDS] };
    let password = config.adminPassword;
    let generated = false;
    if (!password && !config.adminClientSecret && (await this.storage.users.count()) === 0) {
      password = randomSecret(18);
      generated = true;
    }
    if (password && !(await this.storage.users.byId(ADMIN_USER))) {
      const stored = await this.storage.users.insertIfAbsent({
        userId: ADMIN_USER,
        name: 'Platform administrator',
        passwordHash: await hashPassword(password),
        passwordChangedAt: this.deps.clock.now(),
        ...everything,
      });
      if (stored) {
        logger.info({ userId: ADMIN_USER }, 'created the bootstrap admin user');
        if (generated) this.reportGeneratedPassword(password);
      }
    }
    const secret = config.adminClientSecret;
    if (secret && !(await this.storage.clients.byId(ADMIN_CLIENT))) {
      if (secret.length < 32) logger.warn('PLATFORM_ADMIN_CLIENT_SECRET is shorter than 32 characters; use a long random secret');
      const stored = await this.storage.clients.insertIfAbsent({ clientId: ADMIN_CLIENT, secretHash: hashClientSecret(secret, this.secretKey), ...everything });
      if (stored) logger.info({ clientId: ADMIN_CLIENT }, 'created the bootstrap admin client');
    }
  }

  /** Shown once on the console (not through the logger) and kept in a 0600 file. */
  private reportGeneratedPassword(password: string): void {
    const dir = this.deps.config.dataDir;
    const file = path.join(dir, 'bootstrap-credentials.json');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ userName: ADMIN_USER, password, appIds: APP_IDS }, null, 2) + '\n', { mode: 0o600 });
    process.stdout.write(`\nGenerated the first admin account: user "${ADMIN_USER}", password "${password}" (also in ${file}, mode 0600).\n\n`);
  }
}
