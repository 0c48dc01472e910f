import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { instantText } from '../../lib/input.js';
import { instantOr } from '../../lib/time.js';
import { syncdataErrors } from './errors.js';

/** A given lastUpdated as an instant (KER-SNC-100 otherwise); REST runs it on the wire's text before the graph takes it as a DateTime. */
export const lastUpdatedOf = (lastUpdated: string): Date => instantOr(lastUpdated, syncdataErrors.badLastUpdated);

/** A centre id as master data keeps it. */
const centreId = z.string().regex(/^[A-Za-z0-9_-]{1,10}$/, 'must be 1 to 10 letters or digits');

/** The arguments of sync data's root fields, for GraphQL and REST alike; anything malformed is MOSIP's KER-SNC-999. */
export const syncdataInputs = fieldInputs(
  {
    syncUserDetails: z.object({ regCenterId: centreId }),
    clientSettings: z.object({
      // the hex SHA-256 thumbprint of the machine's key (MOSIP also accepts other key index forms: up to 128 characters)
      keyIndex: z.string().trim().min(1).max(128),
      lastUpdated: instantText(z.string().max(64)).nullish(),
      regCenterId: centreId.nullish(),
    }),
  },
  () => 'KER-SNC-999',
);
