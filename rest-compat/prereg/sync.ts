import { z } from 'zod';
import * as ops from '../../generated/graphql/prereg.operations.js';
import { centreFromWire, dayFromWire } from '../../subgraphs/prereg/sync/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { preregRoute } from './shared.js';

/** One pre-registration for the registration client, under MOSIP's hyphenated keys. */
const archive = z.object({
  'pre-registration-id': z.string(),
  'registration-client-id': z.string(),
  'appointment-date': z.string().nullable(),
  'from-time-slot': z.string().nullable(),
  'to-time-slot': z.string().nullable(),
  'zip-filename': z.string(),
  'zip-bytes': z.string(),
});

const archiveOf = (fetched: ops.PreregArchiveFragment): z.input<typeof archive> => ({
  'pre-registration-id': fetched.preRegistrationId,
  'registration-client-id': fetched.registrationCenterId,
  'appointment-date': fetched.appointmentDate,
  'from-time-slot': fetched.fromTimeSlot,
  'to-time-slot': fetched.toTimeSlot,
  'zip-filename': fetched.zipFilename,
  'zip-bytes': fetched.zipBytes,
});

/** A slot's start as MOSIP's sync answers it: the day and time, yyyy-MM-ddTHH:mm:ss.SSS, no zone (the centre's local time). */
const slotStart = (day: string, time: string) => `${day}T${time.length === 5 ? `${time}:00` : time}.000`;

/** Sync (MOSIP 1.2's datasync service): the registration client's and the registration processor's calls. */
export const syncRoutes: RestRoute[] = [
  preregRoute({
    method: 'post',
    path: '/sync',
    summary: "The pre-registrations booked at a registration centre between two days, each with its slot's start, for the centre's staff",
    idSuffix: 'datasync',
    input: {
      from: 'envelope',
      schema: z.object({ registrationCenterId: z.unknown().optional(), fromDate: z.unknown().optional(), toDate: z.unknown().optional() }),
    },
    operation: ops.PreregSyncDocument,
    // The wire's text as the operation's Date variables, in MOSIP's order: the centre (PRG_DATA_SYNC_009), then each day (PRG_CORE_REQ_019).
    variables: ({ registrationCenterId, fromDate, toDate }) => ({
      registrationCenterId: centreFromWire(registrationCenterId),
      fromDate: dayFromWire(fromDate, 'fromDate'),
      toDate: toDate === undefined || toDate === null || toDate === '' ? null : dayFromWire(toDate, 'toDate'),
    }),
    response: z.object({ transactionId: z.string(), countOfPreRegIds: z.string(), preRegistrationIds: z.record(z.string(), z.string()) }),
    result: ({ preRegistrationSync: synced }) => ({
      transactionId: synced.transactionId,
      // MOSIP's clients read the count as text.
      countOfPreRegIds: String(synced.countOfPreRegIds),
      preRegistrationIds: Object.fromEntries(synced.preRegistrationIds.map((row) => [row.preRegistrationId, slotStart(row.appointmentDate, row.fromTimeSlot)])),
    }),
  }),
  preregRoute({
    method: 'post',
    path: '/sync/consumedPreRegIds',
    summary: 'The pre-registration ids registration took in: each stored once, its application Consumed, then moved to the consumed history',
    idSuffix: 'datasync.store',
    input: { from: 'envelope', schema: z.object({ preRegistrationIds: z.array(z.string()).nullish() }) },
    operation: ops.PreregReportConsumedDocument,
    variables: ({ preRegistrationIds }) => ({ preRegistrationIds: preRegistrationIds ?? null }),
    response: z.object({ transactionId: z.string(), countOfPreRegIds: z.string(), preRegistrationIds: z.array(z.string()) }),
    result: ({ reportConsumedPreRegistrations: consumed }) => ({ ...consumed, countOfPreRegIds: String(consumed.countOfPreRegIds) }),
  }),
  preregRoute({
    method: 'get',
    path: '/sync/{preRegistrationId}/{machineId}',
    summary: "One pre-registration for a registration client: its appointment and a ZIP of its identity and documents, sealed for the machine's key",
    idSuffix: 'datasync.fetch',
    operation: ops.PreregSyncForMachineDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId'), machineId: pathParam(req, 'machineId') }),
    response: archive,
    result: ({ preRegistrationForMachine: fetched }) => archiveOf(fetched),
  }),
  preregRoute({
    method: 'get',
    path: '/sync/{preRegistrationId}',
    summary: "One booked pre-registration with its ZIP unsealed, for the admins of its appointment's centre",
    idSuffix: 'datasync.fetch',
    operation: ops.PreregSyncArchiveDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: archive,
    result: ({ preRegistrationArchive: fetched }) => archiveOf(fetched),
  }),
];
