import { z } from 'zod';
import * as ops from '../../generated/graphql/prereg.operations.js';
import { bookingWire, MAX_SLOT_DAYS } from '../../subgraphs/prereg/booking/inputs.js';
import { pathParam, timestamp, type RestRoute } from '../route.js';
import { preregRoute } from './shared.js';

/** What MOSIP answers each appointment booked with. */
const BOOKED = 'Appointment booked successfully';

type WireAppointment = z.output<typeof bookingWire.one>;
/** An appointment of REST's body (checked at the edge) as the graph's arguments. */
const appointmentOf = (wire: WireAppointment) => ({
  registrationCenterId: wire.registration_center_id,
  appointmentDate: wire.appointment_date,
  timeSlotFrom: wire.time_slot_from,
  timeSlotTo: wire.time_slot_to,
});

const appointment = z.object({ registration_center_id: z.string(), appointment_date: z.string(), time_slot_from: z.string(), time_slot_to: z.string() });

/** Appointments (MOSIP 1.2's /applications/appointment paths): slots, booking, reading and cancelling. */
export const bookingRoutes: RestRoute[] = [
  preregRoute({
    method: 'get',
    path: '/applications/appointment/slots/availability/{registrationCenterId}',
    summary: "A centre's free slots over the days offered (MOSIP's shape: full slots, and days with none free, left out; holidays marked)",
    idSuffix: 'booking.availability.fetch',
    operation: ops.PreregSlotsDocument,
    variables: (_input, req) => ({ registrationCenterId: pathParam(req, 'registrationCenterId'), first: MAX_SLOT_DAYS }),
    response: z.object({
      regCenterId: z.string(),
      centerDetails: z.array(
        z.object({
          date: z.string(),
          holiday: z.boolean(),
          timeSlots: z.array(z.object({ fromTime: z.string(), toTime: z.string(), availability: z.number() })),
        }),
      ),
    }),
    result: ({ preRegistrationSlots: calendar }) => ({
      regCenterId: calendar.registrationCenterId,
      centerDetails: calendar.days.flatMap((day) => {
        const free = day.slots.filter((slot) => slot.available > 0);
        if (!day.holiday && !free.length) return [];
        return [
          {
            date: day.date,
            holiday: day.holiday,
            timeSlots: free.map((slot) => ({ fromTime: slot.fromTime, toTime: slot.toTime, availability: slot.available })),
          },
        ];
      }),
    }),
  }),
  preregRoute({
    method: 'post',
    path: '/applications/appointment/{preRegistrationId}',
    summary: "Books a slot for the applicant's own application (a Booked one is re-booked, its old place returned)",
    idSuffix: 'booking.book',
    input: { from: 'envelope', schema: bookingWire.one },
    operation: ops.PreregBookDocument,
    variables: (wire, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId'), ...appointmentOf(wire) }),
    response: z.object({ bookingMessage: z.string() }),
    result: () => ({ bookingMessage: BOOKED }),
  }),
  preregRoute({
    method: 'post',
    path: '/applications/appointment',
    summary: "Books several of the applicant's own applications at once: all of them, or none (the first refusal is answered)",
    idSuffix: 'booking.book',
    input: { from: 'envelope', schema: bookingWire.many },
    operation: ops.PreregBookManyDocument,
    variables: ({ bookingRequest }) => ({
      appointments: bookingRequest.map((wire) => ({ preRegistrationId: wire.preRegistrationId, ...appointmentOf(wire) })),
    }),
    response: z.object({ bookingStatusResponse: z.array(z.object({ bookingMessage: z.string() })) }),
    result: ({ bookPreRegistrationAppointments: booked }) => ({ bookingStatusResponse: booked.map(() => ({ bookingMessage: BOOKED })) }),
  }),
  preregRoute({
    method: 'get',
    path: '/applications/appointment/{preRegistrationId}',
    summary: "An application's appointment",
    idSuffix: 'booking.fetch',
    operation: ops.PreregBookingDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: appointment,
    result: ({ preRegistrationBooking: booking }) => ({
      registration_center_id: booking.registrationCenterId,
      appointment_date: booking.appointmentDate,
      time_slot_from: booking.timeSlotFrom,
      time_slot_to: booking.timeSlotTo,
    }),
  }),
  preregRoute({
    method: 'put',
    path: '/applications/appointment/{preRegistrationId}',
    summary: "Cancels the appointment of the applicant's own Booked application: Cancelled, its place returned",
    idSuffix: 'booking.cancel',
    operation: ops.PreregCancelBookingDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: z.object({ transactionId: z.string(), message: z.string() }),
    result: ({ cancelPreRegistrationAppointment: cancelled }) => ({ transactionId: cancelled.transactionId, message: cancelled.message }),
  }),
  preregRoute({
    method: 'delete',
    path: '/applications/appointment',
    summary: 'Deletes the appointment of the applicant’s own Booked application, as the cancel does',
    idSuffix: 'booking.delete',
    input: { from: 'query', schema: z.object({ preRegistrationId: z.string().optional() }) },
    operation: ops.PreregCancelBookingDocument,
    variables: ({ preRegistrationId }) => ({ preRegistrationId: preRegistrationId ?? null }),
    response: z.object({ preRegistrationId: z.string(), deletedBy: z.string(), deletedDateTime: z.string() }),
    result: ({ cancelPreRegistrationAppointment: cancelled }) => ({
      preRegistrationId: cancelled.preRegistrationId,
      deletedBy: cancelled.cancelledBy,
      deletedDateTime: timestamp(cancelled.cancelledAt),
    }),
  }),
];
