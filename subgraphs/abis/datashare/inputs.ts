import { z } from 'zod';
import { identifier } from '../../../lib/input.js';

/** The data share's arguments, for GraphQL and REST alike. */
export const dataShareSchemas = {
  dataShare: z.object({ policyId: identifier(128), subscriberId: identifier(128), shareKey: identifier(400) }),
};
