import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { codeFor } from '../inputs.js';
import { validationSchemas } from './inputs.js';
import { LinksCache } from './links-cache.js';
import { linksThrough, type Links } from './links.js';
import { validationResolvers } from './resolvers.js';
import { PartnerValidationService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** validatePartnerMisp: the policy of a partner's API key, through a valid MISP license */
    partnerValidation: PartnerValidationService;
  }
}

/** validatePartnerMisp, called by ID authentication on every authentication. It keeps no table: its links are the other areas'. */
export const validationArea = defineArea({
  name: 'validation',
  desk: 'validation',
  access: {
    'Query.validatePartnerMisp': access.roles('ID_AUTHENTICATION', 'GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER'),
  },
  schemas: validationSchemas,
  codeFor,
  services: (deps) => {
    const { license, misps, partners, partnerApiKeys: apiKeys, policies } = deps.services;
    const readLinks = linksThrough({ license, misps, partners, apiKeys, policies });
    const cache = new LinksCache<Links>(deps.logger, deps.events);
    return { partnerValidation: new PartnerValidationService(readLinks, { license, apiKeys }, partners, deps.clock, cache) };
  },
  resolvers: validationResolvers,
});
