import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';
import { REGISTRATION_STAGES } from '../registrations/inputs.js';

const page = pageArguments();

/** The arguments of the pipeline's and manual verification's root fields, for GraphQL and REST alike. */
export const pipelineSchemas = {
  receiveRegistrationPacket: z.object({
    input: z.object({
      fileName: z.string().min(1).max(255),
      // base64 of a packet small enough for a GraphQL request; larger ones come through the REST upload
      contentBase64: z
        .string()
        .max(50_000_000)
        .regex(/^[A-Za-z0-9+/=\s]*$/, 'base64')
        .nullish(),
      stagedUploadId: identifier(64).nullish(),
    }),
  }),
  resumeRegistrations: z.object({
    input: z
      .object({ registrationId: identifier(64).nullish(), stage: z.enum(REGISTRATION_STAGES).nullish() })
      .refine((value) => !!value.registrationId !== !!value.stage, 'name either a registrationId or a stage'),
  }),
  stuckRegistrations: z.object({ ...page, stage: z.enum(REGISTRATION_STAGES).nullish() }),
  registrationCounts: z.object({}),
  assignManualVerification: z.object({ userId: identifier(256).nullish(), matchType: identifier(32).nullish() }),
  manualVerifications: z.object({
    ...page,
    filter: z
      .object({
        assignedTo: z.enum(['ME', 'NOBODY', 'ANYONE']).nullish(),
        status: z.enum(['PENDING', 'ASSIGNED', 'APPROVED', 'REJECTED']).nullish(),
      })
      .nullish(),
  }),
  adjudicateRegistration: z.object({ registrationId: identifier(64), decision: z.enum(['APPROVED', 'REJECTED']) }),
  decideManualVerification: z.object({
    input: z.object({
      matchedRefType: identifier(32).nullish(),
      mvUsrId: identifier(256),
      reasonCode: text(256).nullish(),
      regId: identifier(64),
      statusCode: identifier(32),
    }),
  }),
};
