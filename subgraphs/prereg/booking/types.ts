import type { SlotTime } from './calendar.js';

/** A slot of one centre's day: its key in prereg_slot_usage. */
export interface SlotKey {
  centreId: string;
  /** yyyy-MM-dd */
  date: string;
  /** HH:mm:ss */
  fromTime: string;
}

export type Slot = SlotKey & SlotTime;

/** One text per slot of the platform: the key of a slot in maps. */
export const slotKey = (slot: SlotKey): string => `${slot.centreId}\u0000${slot.date}\u0000${slot.fromTime}`;

/** An application's appointment as booking's rows hold it. */
export interface BookedSlot extends Slot {
  preRegId: string;
  bookedAt: Date;
}

/** A Booking as the graph answers it. */
export interface BookingRecord {
  preRegistrationId: string;
  registrationCenterId: string;
  appointmentDate: string;
  timeSlotFrom: string;
  timeSlotTo: string;
  bookedAt: Date;
}

export const recordOf = (row: BookedSlot): BookingRecord => ({
  preRegistrationId: row.preRegId,
  registrationCenterId: row.centreId,
  appointmentDate: row.date,
  timeSlotFrom: row.fromTime,
  timeSlotTo: row.toTime,
  bookedAt: row.bookedAt,
});

/** An appointment asked for (one of a multi-booking, or the only one). */
export interface AppointmentRequest {
  preRegistrationId: string;
  registrationCenterId: string;
  appointmentDate: string;
  timeSlotFrom: string;
  timeSlotTo: string;
}

export interface SlotModel {
  date: string;
  fromTime: string;
  toTime: string;
  capacity: number;
  available: number;
}

export interface SlotDayModel {
  date: string;
  holiday: boolean;
  slots: SlotModel[];
}

export interface SlotCalendarModel {
  registrationCenterId: string;
  days: SlotDayModel[];
}

export interface CancelledBookingModel {
  preRegistrationId: string;
  transactionId: string;
  message: string;
  cancelledBy: string;
  cancelledAt: Date;
}
