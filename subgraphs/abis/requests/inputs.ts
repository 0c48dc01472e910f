import { z } from 'zod';
import { identifier, pageArguments } from '../../../lib/input.js';
import { ABIS_OPERATIONS, ABIS_QUESTIONS, ABIS_REQUEST_STATUSES } from './messages.js';

const page = pageArguments();
/** An ABIS's name as ABIS_COUNT makes them (abis1 … abis16). */
const abisName = z
  .string()
  .regex(/^abis\d{1,2}$/, 'an ABIS name: abis1, abis2, …')
  .nullish();

/** The arguments of the ABIS requests' root fields. */
export const requestsSchemas = {
  abisRequests: z.object({
    ...page,
    filter: z
      .object({
        status: z.enum(ABIS_REQUEST_STATUSES).nullish(),
        operation: z.enum(ABIS_OPERATIONS).nullish(),
        abisName,
        registrationId: identifier(64).nullish(),
        createdBefore: z.date().nullish(),
        createdAfter: z.date().nullish(),
      })
      .nullish(),
  }),
  abisSystems: z.object({}),
  askAbis: z.object({
    input: z.object({
      question: z.enum(ABIS_QUESTIONS),
      abisName,
      // An operator's call waits for the answers, never longer than the ping timeout.
      waitSeconds: z.number().int().min(0).max(60).nullish(),
    }),
  }),
  deleteAbisReference: z.object({ input: z.object({ registrationId: identifier(64), abisName }) }),
};
