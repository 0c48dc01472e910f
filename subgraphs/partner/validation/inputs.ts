import { z } from 'zod';
import { identifier } from '../../../lib/input.js';

const key = identifier(256).trim().min(1);

/** The arguments of validatePartnerMisp, for GraphQL and REST alike. */
export const validationSchemas = {
  validatePartnerMisp: z.object({ partnerId: identifier(64).trim().min(1), partnerApiKey: key, mispLicenseKey: key }),
};
