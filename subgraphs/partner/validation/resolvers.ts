import type { Resolvers } from '../../../generated/graphql/partner.js';
import type { PlatformDeps } from '../../../lib/deps.js';

/** validatePartnerMisp: the caller and the three values, to the service. */
export function validationResolvers(deps: PlatformDeps): Resolvers {
  return {
    Query: {
      validatePartnerMisp: async (_, args, context) =>
        deps.services.partnerValidation.validate(await context.principal(), args.partnerId, args.partnerApiKey, args.mispLicenseKey),
    },
  };
}
