import { z } from 'zod';
import { announceAfter, PARTNER_LINKS } from '../../../lib/changes.js';
import { identifier } from '../../../lib/input.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { LinksCache } from './links-cache.js';
import { PartnerValidationService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** validatePartnerMisp: the policy of a partner's API key, through a valid MISP license */
    partnerValidation: PartnerValidationService;
  }
}

const key = identifier(256).trim().min(1);

/** The arguments of validatePartnerMisp, for GraphQL and REST alike. */
export const validationSchemas = {
  validatePartnerMisp: z.object({ partnerId: identifier(64).trim().min(1), partnerApiKey: key, mispLicenseKey: key }),
};

/** validatePartnerMisp, called by ID authentication on every authentication. */
export const validationArea = defineArea({
  name: 'validation',
  desk: 'validation',
  access: {
    'Query.validatePartnerMisp': access.roles('ID_AUTHENTICATION', 'GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER'),
  },
  schemas: validationSchemas,
  codeFor: (_field, missing) => (missing ? 'PMS_COR_001' : 'PMS_COR_002'),
  services: (deps) => {
    const { license, misps, partners, policies } = deps.services;
    // The writes that can turn a passing validation into a failing one, or change its answer.
    announceAfter(license, ['updateStatus', 'blockAllOf'], PARTNER_LINKS);
    announceAfter(misps, ['decide', 'setActive'], PARTNER_LINKS);
    announceAfter(partners, ['updatePartnerStatus', 'updateApiKeyStatus', 'changeKeyPolicy'], PARTNER_LINKS);
    announceAfter(policies, ['update', 'setActive'], PARTNER_LINKS);
    return { partnerValidation: new PartnerValidationService(deps.prisma, deps.clock, license, partners, new LinksCache(deps.logger)) };
  },
  resolvers: (deps) => ({
    Query: {
      validatePartnerMisp: async (_, args, context) =>
        deps.services.partnerValidation.validate(await context.principal(), args.partnerId, args.partnerApiKey, args.mispLicenseKey),
    },
  }),
});
