import { z } from 'zod';
import { identifier, instantText, pageArguments, text } from '../../../lib/input.js';
import { instantOr } from '../../../lib/time.js';
import { regprocErrors } from '../errors.js';
import { olderNames } from '../../../lib/graph/filters.js';

/** How many RIDs one status search or sync may name (a client syncs a day's registrations at most). */
export const MAX_RIDS = 100;
/** The largest packet size a sync may announce (the column is a 32-bit integer; packets are megabytes). */
export const MAX_PACKET_SIZE = 2_147_483_647;

/** A RID as callers send it: its rules (length RPR-RGS-009, timestamp RPR-RGS-007) are the service's, per record. */
const rid = identifier(64);
const page = pageArguments();

export const REGISTRATION_STATUSES = [
  'UPLOAD_PENDING',
  'PACKET_RECEIVED',
  'PROCESSING',
  'PROCESSED',
  'REJECTED',
  'FAILED',
  'REPROCESS',
  'REPROCESS_FAILED',
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** The stages a registration stands at (the pipeline's, pipeline/stages.ts, and the receiver's). */
export const REGISTRATION_STAGES = [
  'PACKET_RECEIVER',
  'UPLOAD_PACKET',
  'VALIDATE_PACKET',
  'BIOMETRIC_AUTHENTICATION',
  'BIOGRAPHIC_VERIFICATION',
  'MANUAL_ADJUDICATION',
  'UIN_GENERATOR',
] as const;

/** MOSIP's registration types a client syncs (RegistrationType). */
export const REGISTRATION_TYPES = ['NEW', 'UPDATE', 'LOST', 'CORRECTION', 'ACTIVATED', 'DEACTIVATED', 'RES_UPDATE', 'RES_REPRINT'] as const;

/** The types only the platform's request handler makes (packet generator, reprint; its own checks of the caller and the identity): never synced nor uploaded. */
export const REQUEST_HANDLER_TYPES: ReadonlySet<string> = new Set(['ACTIVATED', 'DEACTIVATED', 'RES_UPDATE', 'RES_REPRINT']);

/** The timestamp header as an instant, checked by the sync after the caller's centre (and by REST before it sends one): RPR-RGS-015 when it is not ISO 8601. */
export const syncTimestampOf = (text: string): Date => instantOr(text, () => regprocErrors.invalid('timestamp must be an ISO 8601 date and time'));

/**
 * One record of a decrypted sync request (spec: registrationId,
 * registrationType, packetHashValue, packetSize, supervisorStatus,
 * supervisorComment, langCode, optionalValues [{key, value}]); MOSIP 1.0's
 * `parentRegistrationId` is read too. Checked per record by the service: a
 * bad record fails alone.
 */
export const syncRecordSchema = z.object({
  registrationId: rid,
  registrationType: z.enum(REGISTRATION_TYPES),
  packetHashValue: z.string().regex(/^[0-9A-Fa-f]{64}$/, 'the hex SHA-256 of the packet'),
  packetSize: z.number().int().positive().max(MAX_PACKET_SIZE),
  supervisorStatus: z.enum(['APPROVED', 'REJECTED']),
  supervisorComment: text(1024).nullish(),
  langCode: z.string().regex(/^[a-z]{3}$/, 'a three-letter language code'),
  optionalValues: z
    .array(z.object({ key: identifier(128), value: text(1024).nullish() }))
    .max(64)
    .nullish(),
  parentRegistrationId: rid.nullish(),
});
export type SyncRecordInput = z.output<typeof syncRecordSchema>;

/** The decrypted sync envelope: `id` platform.registration.sync and the records. */
export const syncEnvelopeSchema = z.object({
  id: z.literal('platform.registration.sync'),
  version: identifier(16).nullish(),
  requesttime: identifier(64).nullish(),
  // Records are checked one by one (syncRecordSchema): a bad one must not fail the others.
  request: z.array(z.unknown()).min(1).max(MAX_RIDS),
});

/** The arguments of the registration root fields, for GraphQL and REST alike. */
export const registrationsSchemas = {
  syncRegistrations: z.object({
    centerMachineRefId: z.string().regex(/^[A-Za-z0-9.-]{1,36}_[A-Za-z0-9._-]{1,36}$/, '<centerId>_<machineId>'),
    // The graph's DateTime, as text: REST's header too (the service parses it, RPR-RGS-015 when it cannot).
    timestamp: instantText(identifier(64)),
    // base64url of the encrypted request: a sync of 100 records stays far below this
    data: z.string().min(1).max(4_000_000),
  }),
  registrationStatuses: z.object({
    request: z
      .array(z.object({ registrationId: rid }))
      .min(1)
      .max(MAX_RIDS),
  }),
  registrationTransactions: z.object({
    langCode: z.string().regex(/^[a-z]{3}$/, 'a three-letter language code'),
    registrationId: rid,
  }),
  registration: z.object({ registrationId: rid }),
  registrations: z.object({
    ...page,
    filter: z
      .object({
        status: z.enum(REGISTRATION_STATUSES).nullish(),
        stage: z.enum(REGISTRATION_STAGES).nullish(),
        centreId: identifier(36).nullish(),
        from: z.date().nullish(),
        to: z.date().nullish(),
        createdAfter: z.date().nullish(),
        createdBefore: z.date().nullish(),
      })
      .transform((filter) => olderNames(filter, { createdAfter: 'from', createdBefore: 'to' })!)
      .nullish(),
  }),
};
