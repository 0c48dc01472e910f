import { z } from 'zod';
import { identifier, text } from '../../../lib/input.js';

// A registration the platform makes has a RID of the centre's and machine's five digits each (makeRid).
const fiveDigits = identifier(36).regex(/^\d{5}$/, 'must be five digits');
const centreMachine = { centerId: fiveDigits, machineId: fiveDigits };

/** The request handler's, the secure zone's and the biometric file's arguments, for GraphQL and REST alike. */
export const requestsSchemas = {
  generatePacket: z.object({
    input: z.object({ ...centreMachine, reason: text(1024).nullish(), registrationType: identifier(32), uin: identifier(64) }),
  }),
  requestReprint: z.object({
    input: z.object({
      ...centreMachine,
      cardType: identifier(64).nullish(),
      id: identifier(64),
      idType: identifier(16),
      reason: text(1024).nullish(),
      registrationType: identifier(32),
    }),
  }),
  securezoneNotice: z.object({
    input: z.object({
      rid: identifier(64),
      reg_type: identifier(32).nullish(),
      regType: identifier(32).nullish(),
      isValid: z.boolean().nullish(),
      internalError: z.boolean().nullish(),
      messageBusAddress: text(256).nullish(),
      retryCount: z.number().int().nullish(),
    }),
  }),
  biometricFile: z.object({ referenceId: identifier(64) }),
};

/** The packet generator's and reprint's codes: RPR-PGS-011 for any missing or malformed value. */
export const requestsCodeFor = (): string => 'RPR-PGS-011';
