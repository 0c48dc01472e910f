import type { RequestContext } from '../../lib/context.js';
import type { AuthService, ClientLoginInput, PasswordLoginInput } from './service.js';

export function authResolvers(service: AuthService) {
  return {
    Query: {
      validateToken: async (_: unknown, __: unknown, context: RequestContext) => service.identityOf(await context.principal()),
      authRealms: () => service.realms(),
    },
    Mutation: {
      loginWithPassword: (_: unknown, args: PasswordLoginInput, context: RequestContext) =>
        service.loginWithPassword(args, context.clientAddress),
      loginWithClientSecret: (_: unknown, args: ClientLoginInput, context: RequestContext) =>
        service.loginWithClientSecret(args, context.clientAddress),
      invalidateToken: (_: unknown, __: unknown, context: RequestContext) => service.invalidateToken(context.credentials),
    },
  };
}
