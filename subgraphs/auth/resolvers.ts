import type { Client, User } from '../../generated/prisma/client.js';
import type { RequestContext } from '../../lib/context.js';
import { refreshTokenOf } from '../../lib/credentials.js';
import type { OtpLoginInput, OtpLoginService, SendOtpInput } from './otp-login-service.js';
import type { AuthService, ClientLoginInput, PasswordLoginInput } from './service.js';
import type { ClientInput, UserInput, UsersService } from './users-service.js';

type SendOtpArgs = Omit<SendOtpInput, 'templateVariables'> & { templateVariables?: { name: string; value: string }[] | null };

export function authResolvers(service: AuthService, otpLogin: OtpLoginService, users: UsersService) {
  return {
    Query: {
      validateToken: async (_: unknown, __: unknown, context: RequestContext) => service.identityOf(await context.principal()),
      authRealms: () => service.realms(),
      users: (_: unknown, args: { limit?: number; offset?: number }) => users.users(args.limit, args.offset),
      user: (_: unknown, args: { userId: string }) => users.user(args.userId),
      clients: () => users.clients(),
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
    },
    AuthUser: {
      hasPassword: (user: User) => user.passwordHash !== null,
      createdAt: (user: User) => user.createdAt.toISOString(),
    },
    AuthClient: {
      createdAt: (client: Client) => client.createdAt.toISOString(),
    },
  };
}
