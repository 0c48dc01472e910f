/**
 * An application's status (MOSIP's status_code): made Application_Incomplete,
 * Pending_Appointment once its required documents are in, Booked with an
 * appointment, Expired when the appointment's day has passed unused,
 * Cancelled when the appointment was cancelled, Prefetched when a centre
 * fetched it without an appointment; Consumed once registration took it in.
 */
export const STATUS = {
  incomplete: 'Application_Incomplete',
  pending: 'Pending_Appointment',
  booked: 'Booked',
  expired: 'Expired',
  cancelled: 'Cancelled',
  prefetched: 'Prefetched',
  consumed: 'Consumed',
} as const;

export type ApplicationStatus = (typeof STATUS)[keyof typeof STATUS];

export const STATUSES: readonly ApplicationStatus[] = Object.values(STATUS);

export const isStatus = (value: string): value is ApplicationStatus => (STATUSES as readonly string[]).includes(value);

/** Statuses in which the demographic data and the documents no longer change (PRG_PAM_APP_022, PRG_PAM_DOC_024). */
export const LOCKED: readonly ApplicationStatus[] = [STATUS.booked, STATUS.expired, STATUS.cancelled, STATUS.prefetched, STATUS.consumed];

/** Statuses from which an appointment may be booked (Booked: a re-booking; Expired: a new one). */
export const BOOKABLE: readonly ApplicationStatus[] = [STATUS.pending, STATUS.cancelled, STATUS.booked, STATUS.expired];
