import { z } from 'zod';
import { identifier } from '../../../lib/input.js';
import { preregCodeFor, requestErrors, syncErrors } from '../errors.js';

/** The most ids one report of consumed pre-registrations takes (a registration processor's batch). */
export const MAX_REPORTED_IDS = 1000;

const preRegistrationId = identifier(64).pipe(z.string().trim().min(1));
/** A centre or machine id as master data keys them: a blank one is refused by the rules, an unknown one by the service. */
const placeId = identifier(36).pipe(z.string().trim().min(1));
/** A day the graph took as its Date scalar (yyyy-MM-dd, one that exists): REST checks the wire's text with `dayFromWire` first. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const syncSchemas = {
  preRegistrationSync: z.object({ registrationCenterId: placeId, fromDate: day, toDate: day.nullish() }),
  preRegistrationForMachine: z.object({ preRegistrationId, machineId: placeId }),
  preRegistrationArchive: z.object({ preRegistrationId }),
  reportConsumedPreRegistrations: z.object({ preRegistrationIds: z.array(preRegistrationId).min(1).max(MAX_REPORTED_IDS) }),
};

/**
 * A centre id missing or malformed is PRG_DATA_SYNC_009, a day PRG_CORE_REQ_019
 * (as MOSIP's DataSyncServiceUtil checks them, in that order), a machine
 * PRG_DATA_SYNC_018, a reported id list PRG_DATA_SYNC_011, a named
 * application's id PRG_PAM_APP_005 (no such application).
 */
export function syncCodeFor(field: string, missing: boolean): string {
  const [head] = field.split('.');
  if (head === 'registrationCenterId') return 'PRG_DATA_SYNC_009';
  if (head === 'fromDate' || head === 'toDate') return 'PRG_CORE_REQ_019';
  if (head === 'machineId') return 'PRG_DATA_SYNC_018';
  if (head === 'preRegistrationIds') return 'PRG_DATA_SYNC_011';
  if (head === 'preRegistrationId') return 'PRG_PAM_APP_005';
  return preregCodeFor(field, missing);
}

/** The centre id of a sync request as the wire sends it: checked before the days, as MOSIP checks it first (PRG_DATA_SYNC_009). */
export function centreFromWire(value: unknown): string {
  const parsed = placeId.safeParse(value);
  if (!parsed.success) throw syncErrors.centre();
  return parsed.data;
}

/** A day of a sync request as the wire writes it (yyyy-MM-dd, one that exists), for the Date variable; PRG_CORE_REQ_019 otherwise. */
export function dayFromWire(value: unknown, field: 'fromDate' | 'toDate'): string {
  if (typeof value === 'string' && day.safeParse(value).success) {
    const parsed = new Date(`${value}T00:00:00.000Z`);
    if (!Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value)) return value;
  }
  throw requestErrors.dateFormat(field);
}
