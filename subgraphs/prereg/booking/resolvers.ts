import { GraphQLScalarType, Kind } from 'graphql';
import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/prereg.js';
import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { readableApplication } from '../applications/loaders.js';
import { normalTime } from './calendar.js';
import { DEFAULT_SLOT_DAYS, type bookingSchemas } from './inputs.js';

type Parsed<F extends keyof typeof bookingSchemas> = z.output<(typeof bookingSchemas)[F]>;

function toTimeOfDay(value: unknown): string {
  const time = typeof value === 'string' ? normalTime(value) : undefined;
  if (time === undefined) throw new TypeError('TimeOfDay: a time of day, HH:mm:ss, e.g. 09:15:00');
  return time;
}

/** Times of day of a centre's wall clock, HH:mm:ss both ways. */
export const TimeOfDayScalar = new GraphQLScalarType({
  name: 'TimeOfDay',
  description: "A time of day on a registration centre's wall clock, HH:mm:ss",
  serialize: toTimeOfDay,
  parseValue: toTimeOfDay,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('TimeOfDay: a string');
    return toTimeOfDay(ast.value);
  },
});

/** The booking area's fields: each call acts as the caller, whose applications and centres the service keeps. */
export function bookingResolvers(deps: PlatformDeps): Resolvers {
  const booking = deps.services.preregBooking;
  // One query for the appointments of a page of applications.
  const bookingOf = (context: RequestContext) => loader(context, 'prereg.booking', (ids: readonly string[]) => booking.bookingsOf(ids));
  return {
    TimeOfDay: TimeOfDayScalar,
    Query: {
      preRegistrationSlots: (_, args) => {
        const { registrationCenterId, first } = args as Parsed<'preRegistrationSlots'>;
        return booking.slots(registrationCenterId, first ?? DEFAULT_SLOT_DAYS);
      },
      preRegistrationBooking: async (_, args, context) => booking.get(await context.principal(), (args as Parsed<'preRegistrationBooking'>).preRegistrationId),
      preRegistrationBookings: async (_, args, context) => {
        const { registrationCenterId, date, ...page } = args as Parsed<'preRegistrationBookings'>;
        return booking.ofCentre(await context.principal(), registrationCenterId, date, page);
      },
    },
    Mutation: {
      bookPreRegistrationAppointment: async (_, args, context) => {
        const [booked] = await booking.book(await context.principal(), [args as Parsed<'bookPreRegistrationAppointment'>]);
        return booked!;
      },
      bookPreRegistrationAppointments: async (_, args, context) =>
        booking.book(await context.principal(), (args as Parsed<'bookPreRegistrationAppointments'>).appointments),
      cancelPreRegistrationAppointment: async (_, args, context) =>
        booking.cancel(await context.principal(), (args as Parsed<'cancelPreRegistrationAppointment'>).preRegistrationId),
    },
    Booking: { application: readableApplication(deps.services.preregApplications) },
    CancelledBooking: { application: readableApplication(deps.services.preregApplications) },
    Application: {
      booking: (application, _, context) => bookingOf(context)(application.id),
      // A reference master data resolves: the centre's row in the application's language.
      centre: async (application, _, context) => {
        const found = await bookingOf(context)(application.id);
        return found ? { id: found.registrationCenterId, langCode: application.langCode } : null;
      },
    },
  };
}
