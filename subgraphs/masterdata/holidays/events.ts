/** A holiday made, or changed, in force (event `holiday.saved`). */
export interface HolidaySaved {
  /** the location whose centres keep it (their holidayLocationCode) */
  locationCode: string;
  /** its day, yyyy-MM-dd */
  holidayDate: string;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by what is planned on days a holiday now closes (pre-registration's appointments). */
    'holiday.saved': HolidaySaved;
  }
}
