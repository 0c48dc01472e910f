import type { Client, Session, User } from '../../generated/prisma/client.js';
import type { RequestContext } from '../../lib/context.js';
import { refreshTokenOf } from '../../lib/credentials.js';
import type { PageArgs } from '../../lib/graph/connection.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import type { OtpLoginInput, OtpLoginService, SendOtpInput } from './otp-login-service.js';
import type { AuthService, ClientLoginInput, PasswordLoginInput } from './service.js';
import type { SessionFilter, SessionsService } from './sessions-service.js';
import type { ClientFilter, ClientInput, UserFilter, UserInput, UserOrder, UsersService } from './users-service.js';

type SendOtpArgs = Omit<SendOtpInput, 'templateVariables'> & { templateVariables?: { name: string; value: string }[] | null };
type SessionArgs = PageArgs & { filter?: SessionFilter | null };

export function authResolvers(service: AuthService, otpLogin: OtpLoginService, users: UsersService, sessions: SessionsService) {
  // One query per page of references, whatever the page's size.
  const userRef = (context: RequestContext) => loader(context, 'auth.user', (ids: readonly string[]) => users.usersById(ids));
  const clientRef = (context: RequestContext) => loader(context, 'auth.client', (ids: readonly string[]) => users.clientsById(ids));
  const sessionRef = (context: RequestContext) => loader(context, 'auth.session', (ids: readonly string[]) => sessions.sessionsById(ids));
  const sessionsOf = (subject: string, subjectType: 'USER' | 'CLIENT', args: SessionArgs) =>
    sessions.sessions(args, { ...args.filter, subject, subjectType });

  return {
    DateTime: DateTimeScalar,
    Query: {
      validateToken: async (_: unknown, __: unknown, context: RequestContext) => service.identityOf(await context.principal()),
      authRealms: () => service.realms(),
      users: (_: unknown, args: PageArgs & { filter?: UserFilter | null; orderBy?: UserOrder | null }) => users.users(args, args.filter, args.orderBy),
      user: (_: unknown, args: { userId: string }) => users.user(args.userId),
      clients: (_: unknown, args: PageArgs & { filter?: ClientFilter | null }) => users.clients(args, args.filter),
      client: async (_: unknown, args: { clientId: string }, context: RequestContext) => (await clientRef(context)(args.clientId)) ?? null,
      sessions: (_: unknown, args: SessionArgs) => sessions.sessions(args, args.filter),
    },
    Mutation: {
      loginWithPassword: (_: unknown, args: PasswordLoginInput, context: RequestContext) =>
        service.loginWithPassword(args, context.clientAddress),
      loginWithClientSecret: (_: unknown, args: ClientLoginInput, context: RequestContext) =>
        service.loginWithClientSecret(args, context.clientAddress),
      invalidateToken: (_: unknown, __: unknown, context: RequestContext) => service.invalidateToken(context.credentials),
      refreshToken: (_: unknown, args: { appId: string; refreshToken?: string | null }, context: RequestContext) =>
        service.refresh(args.refreshToken ?? refreshTokenOf(context.credentialHeaders.cookie), args.appId),
      sendOtp: (_: unknown, { templateVariables, ...args }: SendOtpArgs, context: RequestContext) =>
        otpLogin.sendOtp({ ...args, templateVariables: Object.fromEntries((templateVariables ?? []).map((v) => [v.name, v.value])) }, context.clientAddress),
      loginWithOtp: (_: unknown, args: OtpLoginInput, context: RequestContext) => otpLogin.loginWithOtp(args, context.clientAddress),
      createUser: (_: unknown, args: { input: UserInput & { userId: string } }) => users.createUser(args.input),
      updateUser: (_: unknown, args: { userId: string; input: UserInput }) => users.updateUser(args.userId, args.input),
      resetPassword: (_: unknown, args: { userId: string; password: string }) => users.resetPassword(args.userId, args.password),
      lockUser: (_: unknown, args: { userId: string }) => users.setLocked(args.userId, true),
      unlockUser: (_: unknown, args: { userId: string }) => users.setLocked(args.userId, false),
      createClient: (_: unknown, args: { input: ClientInput & { clientId: string } }) => users.createClient(args.input),
      updateClient: (_: unknown, args: { clientId: string; input: ClientInput }) => users.updateClient(args.clientId, args.input),
      rotateClientSecret: (_: unknown, args: { clientId: string }) => users.rotateClientSecret(args.clientId),
      revokeSession: (_: unknown, args: { id: string }) => sessions.revoke(args.id),
    },
    User: {
      __resolveReference: (ref: { userId: string }, context: RequestContext) => userRef(context)(ref.userId),
      hasPassword: (user: User) => user.passwordHash !== null,
      sessions: (user: User, args: SessionArgs) => sessionsOf(user.userId, 'USER', args),
    },
    Client: {
      __resolveReference: (ref: { clientId: string }, context: RequestContext) => clientRef(context)(ref.clientId),
      sessions: (client: Client, args: SessionArgs) => sessionsOf(client.clientId, 'CLIENT', args),
    },
    Session: {
      __resolveReference: (ref: { id: string }, context: RequestContext) => sessionRef(context)(ref.id),
      subjectType: (session: Session) => session.subjectType.toUpperCase(),
      status: (session: Session) => sessions.statusOf(session),
      user: (session: Session, _: unknown, context: RequestContext) => (session.subjectType === 'user' ? userRef(context)(session.subject) : null),
      client: (session: Session, _: unknown, context: RequestContext) => (session.subjectType === 'client' ? clientRef(context)(session.subject) : null),
    },
  };
}
