import type { Resolvers } from '../../generated/graphql/otp.js';
import type { RequestContext } from '../../lib/context.js';
import type { OtpCaller, OtpService } from './service.js';

/**
 * The caller an OTP belongs to. Only with PLATFORM_SPEC_OPEN_ENDPOINTS may a
 * request without a token get here (the role table lets it through); a token,
 * when present, is always verified.
 */
async function callerOf(context: RequestContext, specOpen: boolean): Promise<OtpCaller> {
  if (specOpen && !context.credentials.token) return null;
  return context.principal();
}

export function otpResolvers(service: OtpService, specOpen: boolean): Resolvers {
  return {
    Mutation: {
      generateOtp: async (_, args, context) => service.generateForKey(await callerOf(context, specOpen), args.key),
      validateOtp: async (_, args, context) => service.validateForKey(await callerOf(context, specOpen), args.key, args.otp),
    },
  };
}
