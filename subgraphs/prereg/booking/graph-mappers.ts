import type { Connection } from '../../../lib/graph/connection.js';
import type { BookingRecord } from './types.js';

export type BookingConnectionModel = Connection<BookingRecord>;

/** GraphQL type → the value its resolvers receive as parent, for the booking area's types (paths from subgraphs/prereg). */
export const bookingMappers: Record<string, string> = {
  Booking: './booking/types.js#BookingRecord',
  BookingConnection: './booking/graph-mappers.js#BookingConnectionModel',
  CancelledBooking: './booking/types.js#CancelledBookingModel',
  Slot: './booking/types.js#SlotModel',
  SlotDay: './booking/types.js#SlotDayModel',
  SlotCalendar: './booking/types.js#SlotCalendarModel',
};
