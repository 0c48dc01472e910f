import { z } from 'zod';
import { identifier, instantText } from '../../../lib/input.js';
import { instantOr } from '../../../lib/time.js';
import { masterdataErrors } from '../errors.js';
import { connectionPage } from '../paged.js';
import { WEEK_DAYS } from './working-days.js';
import { CENTRE_FILTER_NAMES, olderNames } from '../../../lib/graph/filters.js';

// eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const code = (max: number) => z.string().trim().min(1).max(max).regex(NO_CONTROL, 'must not contain control characters');
const optional = (max: number) => z.string().trim().max(max).regex(NO_CONTROL, 'must not contain control characters').nullish();
const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be HH:mm or HH:mm:ss')
  .nullish();
const langCode = z.string().regex(/^[a-z]{3}$/, 'must be a three-letter ISO 639-2 code');
/** MOSIP's ids: up to 10 characters (KER-MSD-377 for centres); digits and letters. */
const id = z.string().regex(/^[A-Za-z0-9_-]{1,10}$/, 'must be 1 to 10 letters or digits');

export const weekDay = z.enum(WEEK_DAYS);

/** A machine's validity as a request writes it: an ISO 8601 instant, UTC when it has no zone (KER-MSD-043 otherwise). */
export const machineValidity = (text: string): Date => instantOr(text, masterdataErrors.badValidity);

export const centreInput = z.object({
  id: id.nullish(),
  langCode,
  name: code(128),
  centerTypeCode: code(36),
  addressLine1: optional(256),
  addressLine2: optional(256),
  addressLine3: optional(256),
  latitude: optional(32),
  longitude: optional(32),
  locationCode: code(36),
  holidayLocationCode: code(36),
  contactPhone: optional(16),
  contactPerson: optional(128),
  numberOfKiosks: z.number().int().min(0).max(1000).nullish(),
  workingHours: optional(32),
  perKioskProcessTime: time,
  centerStartTime: time,
  centerEndTime: time,
  lunchStartTime: time,
  lunchEndTime: time,
  timeZone: optional(64),
  zoneCode: code(36),
  isActive: z.boolean().nullish(),
  workingDays: z
    .array(z.object({ dayCode: weekDay, isWorking: z.boolean() }))
    .max(7)
    .nullish(),
});

export const machineInput = z.object({
  id: id.nullish(),
  langCode,
  name: code(64),
  serialNum: optional(64),
  macAddress: optional(64),
  ipAddress: optional(64),
  machineSpecId: optional(36),
  regCenterId: optional(10),
  zoneCode: code(36),
  validityDateTime: instantText(z.string().max(64)).nullish(),
  isActive: z.boolean().nullish(),
});

const withId = <T extends z.ZodObject<{ id: z.ZodType }>>(schema: T) =>
  schema.refine((value: { id?: unknown }) => typeof value.id === 'string' && value.id.length > 0, { message: 'id is required', path: ['id'] });

const key = z.object({ id, langCode });
const language = z.object({ langCode });
const userMapping = z.object({ userId: code(64), regCenterId: id });
/** What both portal lists filter on, bounded as the columns; `name` is any part of the name. */
const listFilter = { langCode: identifier(3).nullish(), zoneCode: identifier(36).nullish(), isActive: z.boolean().nullish() };

/** The arguments of the area's root fields, for GraphQL and REST alike. */
export const centresSchemas = {
  createRegistrationCentre: z.object({ input: centreInput }),
  updateRegistrationCentre: z.object({ input: withId(centreInput) }),
  deleteRegistrationCentre: z.object({ id }),
  registrationCentre: key,
  registrationCentresOfLanguage: language,
  registrationCentreWorkingDays: key,
  createMachine: z.object({ input: machineInput }),
  updateMachine: z.object({ input: withId(machineInput) }),
  deleteMachine: z.object({ id }),
  machine: key,
  machinesOfLanguage: language,
  mapUserToCentre: userMapping,
  unmapUserFromCentre: userMapping,
  registrationCentres: z.object({
    ...connectionPage,
    filter: z
      .object({
        ...listFilter,
        locationCode: identifier(36).nullish(),
        centerTypeCode: identifier(36).nullish(),
        name: identifier(128).nullish(),
        nameContains: identifier(128).nullish(),
      })
      .transform((filter) => olderNames(filter, CENTRE_FILTER_NAMES)!)
      .nullish(),
  }),
  machines: z.object({
    ...connectionPage,
    filter: z
      .object({
        ...listFilter,
        regCenterId: identifier(10).nullish(),
        centreId: identifier(10).nullish(),
        name: identifier(64).nullish(),
        nameContains: identifier(64).nullish(),
      })
      .transform((filter) => olderNames(filter, CENTRE_FILTER_NAMES)!)
      .nullish(),
  }),
};

/** MOSIP's masterdata answers every malformed or missing request field with KER-MSD-999 (RequestErrorCode). */
export const centresCodeFor = (): string => 'KER-MSD-999';
