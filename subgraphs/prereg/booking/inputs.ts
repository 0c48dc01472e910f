import { z } from 'zod';
import { MAX_PAGE } from '../../../lib/graph/connection.js';
import { identifier } from '../../../lib/input.js';
import { preRegistrationId } from '../applications/inputs.js';
import { preregCodeFor } from '../errors.js';
import { isDay, normalTime } from './calendar.js';

/** The most appointments one multi-booking takes. */
export const MAX_APPOINTMENTS = 10;
/** The most days a slot query answers: the longest window the configuration allows (preregistration.availability.noOfDays). */
export const MAX_SLOT_DAYS = 366;
/** How many days a slot query answers when it does not say (the schema's default of `first`: a month). */
export const DEFAULT_SLOT_DAYS = 31;

/** An empty text is a field not given (MOSIP answers both with the field's "not entered" code). */
const given = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === 'string' && !value.trim() ? undefined : value), schema);

const prid = given(preRegistrationId);
const centreId = given(identifier(36).pipe(z.string().trim().min(1)));
const day = given(z.string().refine(isDay, { message: 'a calendar day, yyyy-MM-dd' }));
const time = given(
  z
    .string()
    .refine((value) => normalTime(value) !== undefined, { message: 'a time of day, HH:mm:ss' })
    .transform((value) => normalTime(value)!),
);
const first = z.number().int().min(0).nullish();

/** An appointment's fields as the graph names them, in the order MOSIP checks them. */
const appointment = { registrationCenterId: centreId, appointmentDate: day, timeSlotFrom: time, timeSlotTo: time };

export const bookingSchemas = {
  preRegistrationSlots: z.object({ registrationCenterId: centreId, first: first.refine((n) => n == null || n <= MAX_SLOT_DAYS) }),
  preRegistrationBooking: z.object({ preRegistrationId: prid }),
  preRegistrationBookings: z.object({
    registrationCenterId: centreId,
    date: day.nullish(),
    first: first.refine((n) => n == null || n <= MAX_PAGE),
    after: identifier(512).nullish(),
    last: first.refine((n) => n == null || n <= MAX_PAGE),
    before: identifier(512).nullish(),
    reversed: z.boolean().nullish(),
  }),
  bookPreRegistrationAppointment: z.object({ preRegistrationId: prid, ...appointment }),
  bookPreRegistrationAppointments: z.object({
    appointments: z
      .array(z.object({ preRegistrationId: prid, ...appointment }))
      .min(1)
      .max(MAX_APPOINTMENTS),
  }),
  cancelPreRegistrationAppointment: z.object({ preRegistrationId: prid }),
};

/** An appointment as REST's bodies name its fields (MOSIP's snake case): checked at the edge with the same rules and codes. */
const wireAppointment = { registration_center_id: centreId, appointment_date: day, time_slot_from: time, time_slot_to: time };

/** The bodies of POST /applications/appointment/{preRegistrationId} and POST /applications/appointment. */
export const bookingWire = {
  one: z.object(wireAppointment),
  many: z.object({
    bookingRequest: z
      .array(z.object({ preRegistrationId: prid, ...wireAppointment }))
      .min(1)
      .max(MAX_APPOINTMENTS),
  }),
};

/**
 * A field's code (the last part of its path: `appointments.0.appointmentDate`):
 * an id not entered PRG_BOOK_RCI_006, a centre PRG_BOOK_RCI_007 (malformed:
 * PRG_BOOK_RCI_035, no such centre), a day PRG_BOOK_RCI_008 (malformed:
 * PRG_BOOK_RCI_031, MOSIP's invalid booking date), a time missing or
 * malformed PRG_BOOK_RCI_003; a malformed id is no application
 * (PRG_PAM_APP_005), an admin's day PRG_CORE_REQ_019.
 */
export function bookingCodeFor(field: string, missing: boolean): string {
  const leaf = field.split('.').at(-1) ?? field;
  if (leaf === 'preRegistrationId') return missing ? 'PRG_BOOK_RCI_006' : 'PRG_PAM_APP_005';
  if (leaf === 'registrationCenterId' || leaf === 'registration_center_id') return missing ? 'PRG_BOOK_RCI_007' : 'PRG_BOOK_RCI_035';
  if (leaf === 'appointmentDate' || leaf === 'appointment_date') return missing ? 'PRG_BOOK_RCI_008' : 'PRG_BOOK_RCI_031';
  if (['timeSlotFrom', 'timeSlotTo', 'time_slot_from', 'time_slot_to'].includes(leaf)) return 'PRG_BOOK_RCI_003';
  if (field === 'date') return 'PRG_CORE_REQ_019';
  return preregCodeFor(field, missing);
}
