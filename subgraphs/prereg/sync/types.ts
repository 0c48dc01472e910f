import type { ApplicationRow } from '../applications/types.js';

/** An appointment as sync reads it: the centre, the day (UTC midnight) and the slot's times of day (HH:mm:ss). */
export interface BookingRow {
  centreId: string;
  date: Date;
  fromTime: string;
  toTime: string;
}

/** One appointment of a centre's day. */
export interface SyncedBooking extends BookingRow {
  preRegId: string;
}

/** An application and its appointment, if it has one. */
export interface ApplicationPlace {
  application: ApplicationRow;
  booking: BookingRow | null;
}

/** A SyncedPreRegistration as its resolvers receive it. */
export interface SyncedPreRegistrationModel {
  preRegistrationId: string;
  /** yyyy-MM-dd */
  appointmentDate: string;
  fromTimeSlot: string;
  toTimeSlot: string;
}

/** POST /sync's answer: the ids booked at a centre between two days. */
export interface PreRegistrationSyncModel {
  transactionId: string;
  countOfPreRegIds: number;
  preRegistrationIds: SyncedPreRegistrationModel[];
}

/** One application for the registration client: its appointment (when booked) and its ZIP, base64 (sealed for a machine, or not). */
export interface PreRegistrationArchiveModel {
  preRegistrationId: string;
  registrationCenterId: string;
  /** yyyy-MM-dd */
  appointmentDate: string | null;
  fromTimeSlot: string | null;
  toTimeSlot: string | null;
  zipFilename: string;
  zipBytes: string;
  encrypted: boolean;
}

/** consumedPreRegIds' answer: the ids taken in. */
export interface ConsumedPreRegistrationsModel {
  transactionId: string;
  countOfPreRegIds: number;
  preRegistrationIds: string[];
}

/** A document of an application as the registration client receives it: its metadata and its bytes, opened. */
export interface SyncDocument {
  docCatCode: string;
  docTypeCode: string;
  langCode: string;
  docName: string;
  docFileFormat: string;
  refNumber: string | null;
  bytes: Buffer;
}

/** A day as the table keeps it (UTC midnight) as the Date scalar and the wire write it: yyyy-MM-dd. */
export const dayText = (day: Date): string => day.toISOString().slice(0, 10);
