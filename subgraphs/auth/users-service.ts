import type { Connection, PageArgs } from '../../lib/graph/connection.js';
import { ROLES } from '../../lib/roles.js';
import { hashClientSecret, hashPassword, randomSecret, verifyPassword } from '../../lib/secrets.js';
import type { Clock } from '../../lib/time.js';
import type { Principal, TokenService } from '../../lib/tokens.js';
import { NotificationService } from '../notify/service.js';
import { authErrors } from './errors.js';
import { APP_IDS } from './realms.js';
import type { ClientFilter, ClientRow, ClientStore } from './storage/clients.js';
import type { UserOrder, UserRow, UserStore } from './storage/users.js';
import type { LoginThrottle } from './throttle.js';
import { UserScopes, type UserScope } from './user-scope.js';

export type { ClientFilter, UserOrder };

export interface UserInput {
  userId?: string;
  name?: string | null;
  mail?: string | null;
  mobile?: string | null;
  langCode?: string | null;
  password?: string | null;
  roles?: string[] | null;
  appIds?: string[] | null;
  rid?: string | null;
}

export interface ClientInput {
  clientId?: string;
  roles?: string[] | null;
  appIds?: string[] | null;
  isActive?: boolean | null;
}

const USER_ID = /^[\w.@+-]{1,64}$/;

export interface UserFilter {
  userId?: string | null;
  role?: string | null;
  appId?: string | null;
  isLocked?: boolean | null;
  /** part of the name, any case, taken literally */
  name?: string | null;
  /** placed in this zone or below it (master data) */
  zoneCode?: string | null;
  /** mapped to this centre (master data) */
  regCenterId?: string | null;
}
const MIN_PASSWORD = 8;
const DAY_MS = 86_400_000;

/** The password rules: wrong current passwords count against the login limits; passwords expire after `maxAgeDays` (0: never). */
export interface PasswordPolicy {
  throttle: LoginThrottle;
  maxAgeDays: number;
}

/** What users and clients administration works over: the two tables, the sessions it ends, the time. */
export interface UsersServiceDeps {
  users: UserStore;
  clients: Pick<ClientStore, 'byId' | 'byIds' | 'page' | 'create' | 'update'>;
  tokens: Pick<TokenService, 'revokeSubject'>;
  clock: Clock;
}

/** Users and clients administration: who may log in, with which roles, to which applications. */
export class UsersService {
  private readonly userRows: UserStore;
  private readonly clientRows: UsersServiceDeps['clients'];
  private readonly tokens: UsersServiceDeps['tokens'];
  private readonly clock: Clock;

  constructor(
    deps: UsersServiceDeps,
    private readonly secretKey: Buffer,
    private readonly passwords: PasswordPolicy,
    /** which users each admin manages */
    private readonly scopes: UserScopes,
  ) {
    this.userRows = deps.users;
    this.clientRows = deps.clients;
    this.tokens = deps.tokens;
    this.clock = deps.clock;
  }

  /** The columns of a newly set password. */
  private async passwordColumns(password: string) {
    return { passwordHash: await hashPassword(password), passwordChangedAt: this.clock.now() };
  }

  /** When the user's password stops being accepted where expiry is enforced; null when it never does (no expiry, no password). */
  passwordExpiresAt(user: Pick<UserRow, 'passwordHash' | 'passwordChangedAt'>): Date | null {
    if (!this.passwords.maxAgeDays || !user.passwordHash || !user.passwordChangedAt) return null;
    return new Date(user.passwordChangedAt.getTime() + this.passwords.maxAgeDays * DAY_MS);
  }

  private checkRolesAndApps(input: { roles?: string[] | null; appIds?: string[] | null }): void {
    const badRole = input.roles?.find((role) => !(ROLES as readonly string[]).includes(role));
    if (badRole) throw authErrors.invalidInput(`unknown role ${badRole}`);
    const badApp = input.appIds?.find((appId) => !(APP_IDS as readonly string[]).includes(appId));
    if (badApp) throw authErrors.invalidInput(`unknown appId ${badApp}`);
  }

  private checkProfile(input: UserInput): void {
    if (input.mail && !NotificationService.isEmail(input.mail)) throw authErrors.invalidInput('mail is not an e-mail address');
    if (input.mobile && !/^\+?\d{6,15}$/.test(input.mobile)) throw authErrors.invalidInput('mobile is 6 to 15 digits');
    if (input.langCode && !/^[a-z]{3}$/.test(input.langCode)) throw authErrors.invalidInput('langCode is a three-letter ISO 639-2 code');
    if (input.password != null && input.password.length < MIN_PASSWORD) throw authErrors.invalidInput(`password has at least ${MIN_PASSWORD} characters`);
    this.checkRolesAndApps(input);
  }

  private async requireUser(userId: string) {
    const user = await this.userRows.byId(userId);
    if (!user) throw authErrors.noSuchUser(userId);
    return user;
  }

  /** The users a caller manages (UserScopes): read it once per request. */
  scopeOf(caller: Pick<Principal, 'subject' | 'roles'>): Promise<UserScope> {
    return this.scopes.of(caller);
  }

  /** A user's roles, for a caller whose scope holds the user (KER-ATH-403 otherwise). */
  rolesOf(scope: UserScope, user: Pick<UserRow, 'userId' | 'roles'>): string[] {
    return UserScopes.rolesOf(scope, user);
  }

  /**
   * A page of the users of a scope, filtered and ordered (the unique user id
   * breaks ties). Where users are placed (the scope of a zonal admin, the
   * filter's zone and centre) is read first, in a fixed number of
   * statements, and narrows the same query that pages and counts.
   */
  async users(scope: UserScope, page: PageArgs, filter?: UserFilter | null, order?: UserOrder | null): Promise<Connection<UserRow>> {
    const among = await this.scopes.among(scope, filter);
    return this.userRows.page(
      page,
      { userId: filter?.userId, name: filter?.name, role: filter?.role, appId: filter?.appId, isLocked: filter?.isLocked, among },
      order,
    );
  }

  user(userId: string): Promise<UserRow | null> {
    return this.userRows.byId(userId);
  }

  /** Users by id, in one query (the batch behind User references). */
  async usersById(userIds: readonly string[]): Promise<Map<string, UserRow>> {
    const rows = await this.userRows.byIds(userIds);
    return new Map(rows.map((row) => [row.userId, row]));
  }

  async createUser(input: UserInput & { userId: string }) {
    if (!USER_ID.test(input.userId)) throw authErrors.invalidInput('userId is 1 to 64 letters, digits or . @ + - _');
    this.checkProfile(input);
    if (await this.user(input.userId)) throw authErrors.alreadyExists(`User ${input.userId}`);
    return this.userRows.create({
      userId: input.userId,
      name: input.name ?? null,
      mail: input.mail ?? null,
      mobile: input.mobile ?? null,
      langCode: input.langCode ?? 'eng',
      rid: input.rid ?? null,
      roles: input.roles ?? [],
      appIds: input.appIds ?? [],
      ...(input.password ? await this.passwordColumns(input.password) : { passwordHash: null }),
    });
  }

  async updateUser(userId: string, input: UserInput) {
    this.checkProfile({ ...input, password: null });
    await this.requireUser(userId);
    const data = Object.fromEntries(
      Object.entries({
        name: input.name,
        mail: input.mail,
        mobile: input.mobile,
        langCode: input.langCode,
        rid: input.rid,
        roles: input.roles,
        appIds: input.appIds,
      }).filter(([, value]) => value !== undefined && value !== null),
    );
    const user = await this.userRows.update(userId, data);
    // New roles or realms take effect at the next login.
    if (input.roles || input.appIds) await this.tokens.revokeSubject(userId);
    return user;
  }

  async resetPassword(userId: string, password: string) {
    this.checkProfile({ password });
    await this.requireUser(userId);
    const user = await this.userRows.update(userId, await this.passwordColumns(password));
    await this.tokens.revokeSubject(userId);
    return user;
  }

  /**
   * A user changes its own password, proving the current one (an expired
   * password is changed this way). Wrong attempts count against the login
   * limits of the account and the address; success ends every session of
   * the user, this one included, so the user logs in again.
   */
  async changePassword(
    caller: Pick<Principal, 'subject' | 'subjectType'>,
    currentPassword: string,
    newPassword: string,
    clientAddress: string,
  ): Promise<boolean> {
    if (caller.subjectType !== 'user') throw authErrors.invalidInput('only a user has a password to change');
    this.checkProfile({ password: newPassword });
    if (newPassword === currentPassword) throw authErrors.invalidInput('the new password is the current one');
    const refuse = { throttled: authErrors.throttled, denied: authErrors.invalidCredentials };
    await this.passwords.throttle.attempt(`user:${caller.subject.toLowerCase()}`, clientAddress, refuse, async () =>
      verifyPassword(currentPassword, (await this.userRows.byId(caller.subject))?.passwordHash),
    );
    await this.userRows.update(caller.subject, await this.passwordColumns(newPassword));
    await this.tokens.revokeSubject(caller.subject);
    return true;
  }

  async setLocked(userId: string, isLocked: boolean) {
    await this.requireUser(userId);
    const user = await this.userRows.update(userId, { isLocked });
    if (isLocked) await this.tokens.revokeSubject(userId);
    return user;
  }

  clients(page: PageArgs, filter?: ClientFilter | null): Promise<Connection<ClientRow>> {
    return this.clientRows.page(page, filter);
  }

  /** Clients by id, in one query (the batch behind Client references). */
  async clientsById(clientIds: readonly string[]): Promise<Map<string, ClientRow>> {
    const rows = await this.clientRows.byIds(clientIds);
    return new Map(rows.map((row) => [row.clientId, row]));
  }

  /** A new client with a platform-issued secret, shown only in this answer. */
  /** `chosenSecret`: an operator's own (the admin command line, from its environment), at least 32 characters; else one is generated. */
  async createClient(input: ClientInput & { clientId: string }, chosenSecret?: string) {
    if (!USER_ID.test(input.clientId)) throw authErrors.invalidInput('clientId is 1 to 64 letters, digits or . @ + - _');
    if (chosenSecret !== undefined && chosenSecret.length < 32) throw authErrors.invalidInput('a client secret has at least 32 characters');
    this.checkRolesAndApps(input);
    if (await this.clientRows.byId(input.clientId)) throw authErrors.alreadyExists(`Client ${input.clientId}`);
    const secretKey = chosenSecret ?? randomSecret(32);
    await this.clientRows.create({
      clientId: input.clientId,
      secretHash: hashClientSecret(secretKey, this.secretKey),
      roles: input.roles ?? [],
      appIds: input.appIds ?? [],
      isActive: input.isActive ?? true,
    });
    return { clientId: input.clientId, secretKey };
  }

  async updateClient(clientId: string, input: ClientInput) {
    this.checkRolesAndApps(input);
    if (!(await this.clientRows.byId(clientId))) throw authErrors.noSuchClient(clientId);
    const data = Object.fromEntries(
      Object.entries({ roles: input.roles, appIds: input.appIds, isActive: input.isActive }).filter(([, v]) => v !== undefined && v !== null),
    );
    const client = await this.clientRows.update(clientId, data);
    await this.tokens.revokeSubject(clientId);
    return client;
  }

  async rotateClientSecret(clientId: string) {
    if (!(await this.clientRows.byId(clientId))) throw authErrors.noSuchClient(clientId);
    const secretKey = randomSecret(32);
    await this.clientRows.update(clientId, { secretHash: hashClientSecret(secretKey, this.secretKey) });
    await this.tokens.revokeSubject(clientId);
    return { clientId, secretKey };
  }
}
