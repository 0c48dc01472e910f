import type { PlatformDeps } from '../../../lib/deps.js';
import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { CentreCalendars } from './centre-days.js';
import { bookingCodeFor, bookingSchemas } from './inputs.js';
import { bookingResolvers } from './resolvers.js';
import { BookingService } from './service.js';
import { BookingStorage } from './storage.js';
import { BookingUpkeep } from './upkeep.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** appointments: a centre's slots, an applicant's booking and cancelling, an admin's list of a centre's appointments */
    preregBooking: BookingService;
    /** what booking does later (its jobs): expiry, and cancelling appointments whose slot master data no longer offers */
    preregBookingUpkeep: BookingUpkeep;
  }
}

/** Booking and cancelling: the applicant's own applications only (the service reaches them as 'change'). */
const APPLICANTS = access.roles('INDIVIDUAL');
/** Reading an appointment: the applicant, and pre-registration's administrators (as applications are read). */
const READERS = access.roles('INDIVIDUAL', 'PRE_REGISTRATION_ADMIN', 'GLOBAL_ADMIN');
/** A centre's slots are no one's data: applicants, registration staff (MOSIP's RO, IND) and the administrators. */
const SLOT_READERS = access.roles(
  'INDIVIDUAL',
  'REGISTRATION_OFFICER',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_ADMIN',
  'PRE_REGISTRATION_ADMIN',
  'GLOBAL_ADMIN',
);
/** A centre's appointments: pre-registration's administrators, each within the centres master data says they reach. */
const BOOKING_ADMINS = access.roles('PRE_REGISTRATION_ADMIN', 'GLOBAL_ADMIN');

/** What master data tells of a slot gone becomes a job, so that its write does not wait for the cancelling. */
function hearMasterData(deps: PlatformDeps): void {
  const stops = [
    deps.events.on('holiday.saved', 'prereg', ({ locationCode, holidayDate }) =>
      // One job per location and day: the holiday's translations name the same day.
      deps.jobs.enqueue('prereg.booking.slots-gone', { dates: [holidayDate] }, { singletonKey: `prereg.slots-gone:${locationCode}:${holidayDate}` }),
    ),
    deps.events.on('registrationCentre.closed', 'prereg', ({ centreId }) =>
      deps.jobs.enqueue('prereg.booking.slots-gone', { centreId }, { singletonKey: `prereg.slots-gone:centre:${centreId}` }),
    ),
  ];
  deps.onClose(() => stops.forEach((stop) => stop()));
}

/**
 * Appointments: slots computed from master data (the places taken kept in
 * prereg_slot_usage), booking and cancelling by the applicant, expiry, and
 * appointments cancelled when master data no longer offers their slot.
 */
export const bookingArea = defineArea({
  name: 'booking',
  access: {
    'Query.preRegistrationSlots': SLOT_READERS,
    'Query.preRegistrationBooking': READERS,
    'Query.preRegistrationBookings': BOOKING_ADMINS,
    'Mutation.bookPreRegistrationAppointment': APPLICANTS,
    'Mutation.bookPreRegistrationAppointments': APPLICANTS,
    'Mutation.cancelPreRegistrationAppointment': APPLICANTS,
  },
  schemas: bookingSchemas,
  codeFor: bookingCodeFor,
  services: (deps) => {
    const { centres, holidays, centreReach, notify, preregApplications, preregConfiguration } = deps.services;
    const store = new BookingStorage(deps.prisma);
    const calendars = new CentreCalendars(centres, holidays);
    hearMasterData(deps);
    return {
      preregBooking: new BookingService(store, calendars, preregApplications, preregConfiguration, centreReach, deps.clock),
      preregBookingUpkeep: new BookingUpkeep(store, calendars, preregApplications, notify, deps.clock, deps.logger),
    };
  },
  resolvers: (deps) => bookingResolvers(deps),
});
