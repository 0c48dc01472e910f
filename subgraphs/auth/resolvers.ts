import type { Resolvers, Role } from '../../generated/graphql/auth.js';
import { withSessionCookies, type RequestContext } from '../../lib/context.js';
import { refreshTokenOf } from '../../lib/credentials.js';
import { loader } from '../../lib/graph/loader.js';
import { nestedConnection } from '../../lib/graph/nested.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { permittedOperations, type AccessTable } from '../../lib/subgraph.js';
import type { OtpLoginService } from './otp-login-service.js';
import type { AuthService } from './service.js';
import type { SessionsService } from './sessions-service.js';
import type { UserScope } from './user-scope.js';
import type { UsersService } from './users-service.js';

export function authResolvers(
  service: AuthService,
  otpLogin: OtpLoginService,
  users: UsersService,
  sessions: SessionsService,
  accessTable: AccessTable,
): Resolvers {
  // One query per page of references, whatever the page's size.
  const userRef = (context: RequestContext) => loader(context, 'auth.user', (ids: readonly string[]) => users.usersById(ids));
  const clientRef = (context: RequestContext) => loader(context, 'auth.client', (ids: readonly string[]) => users.clientsById(ids));
  const sessionRef = (context: RequestContext) => loader(context, 'auth.session', (ids: readonly string[]) => sessions.sessionsById(ids));
  /** The users the caller manages, read once per request whichever users need it. */
  const scopeOf = (context: RequestContext): Promise<UserScope> => {
    let once = context.loaders.get('auth.userScope') as (() => Promise<UserScope>) | undefined;
    if (!once) {
      const scope = context.principal().then((principal) => users.scopeOf(principal));
      once = () => scope;
      context.loaders.set('auth.userScope', once);
    }
    return once();
  };

  return {
    DateTime: DateTimeScalar,
    Query: {
      validateToken: async (_, __, context) => service.identityOf(await context.principal()),
      authRealms: () => service.realms(),
      viewer: async (_, __, context) => service.viewerOf(await context.principal()),
      users: async (_, args, context) => users.users(await scopeOf(context), args, args.filter, args.orderBy),
      user: (_, args) => users.user(args.userId),
      clients: (_, args) => users.clients(args, args.filter),
      client: async (_, args, context) => (await clientRef(context)(args.clientId)) ?? null,
      sessions: (_, args) => sessions.sessions(args, args.filter),
    },
    Mutation: {
      loginWithPassword: (_, args, context) => withSessionCookies(context, service.loginWithPassword(args, context.clientAddress)),
      loginWithClientSecret: (_, args, context) => withSessionCookies(context, service.loginWithClientSecret(args, context.clientAddress)),
      invalidateToken: async (_, __, context) => {
        const ended = await service.invalidateToken(context.credentials);
        context.sessionCookies?.ended();
        return ended;
      },
      refreshToken: (_, args, context) =>
        withSessionCookies(context, service.refresh(args.refreshToken ?? refreshTokenOf(context.credentialHeaders.cookie), args.appId)),
      sendOtp: (_, { templateVariables, ...args }, context) =>
        otpLogin.sendOtp({ ...args, templateVariables: Object.fromEntries((templateVariables ?? []).map((v) => [v.name, v.value])) }, context.clientAddress),
      loginWithOtp: (_, args, context) => withSessionCookies(context, otpLogin.loginWithOtp(args, context.clientAddress)),
      createUser: (_, args) => users.createUser(args.input),
      updateUser: (_, args) => users.updateUser(args.userId, args.changes),
      resetPassword: (_, args) => users.resetPassword(args.userId, args.password),
      changePassword: async (_, args, context) =>
        users.changePassword(await context.principal(), args.currentPassword, args.newPassword, context.clientAddress),
      lockUser: (_, args) => users.setLocked(args.userId, true),
      unlockUser: (_, args) => users.setLocked(args.userId, false),
      createClient: (_, args) => users.createClient(args.input),
      updateClient: (_, args) => users.updateClient(args.clientId, args.changes),
      rotateClientSecret: (_, args) => users.rotateClientSecret(args.clientId),
      revokeSession: (_, args) => sessions.revoke(args.id),
    },
    User: {
      __resolveReference: (ref, context) => userRef(context)(ref.userId),
      roles: async (user, _, context) => users.rolesOf(await scopeOf(context), user) as Role[],
      hasPassword: (user) => user.passwordHash !== null,
      passwordExpiresAt: (user) => users.passwordExpiresAt(user),
      sessions: (user, args, context) => nestedConnection(context, 'auth.userSessions', args, user.userId, sessions.sessionsOfSubjects('USER', args.filter)),
    },
    ClientCredentials: {
      client: (credentials, _, context) => clientRef(context)(credentials.clientId),
    },
    Client: {
      __resolveReference: (ref, context) => clientRef(context)(ref.clientId),
      sessions: (client, args, context) =>
        nestedConnection(context, 'auth.clientSessions', args, client.clientId, sessions.sessionsOfSubjects('CLIENT', args.filter)),
    },
    Viewer: {
      permissions: (viewer) => permittedOperations(accessTable, viewer.roles),
      // Only the caller itself, whatever id a representation names.
      __resolveReference: async (ref, context) => {
        const viewer = service.viewerOf(await context.principal());
        return viewer.id === ref.id ? viewer : null;
      },
    },
    Session: {
      __resolveReference: (ref, context) => sessionRef(context)(ref.id),
      subjectType: (session) => session.subjectType.toUpperCase() as 'USER' | 'CLIENT' | 'RESIDENT',
      status: (session) => sessions.statusOf(session),
      user: (session, _, context) => (session.subjectType === 'user' ? userRef(context)(session.subject) : null),
      client: (session, _, context) => (session.subjectType === 'client' ? clientRef(context)(session.subject) : null),
    },
  };
}
