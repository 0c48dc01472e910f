/** A registration centre deactivated or deleted (event `registrationCentre.closed`). */
export interface CentreClosed {
  centreId: string;
  how: 'deactivated' | 'deleted';
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by what is planned at the centre (pre-registration's appointments). */
    'registrationCentre.closed': CentreClosed;
  }
}
