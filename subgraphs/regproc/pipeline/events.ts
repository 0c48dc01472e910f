import type { JobTx } from '../../../lib/jobs/types.js';

/**
 * A registration reached PROCESSED (event `registration.processed`): its
 * identity is in the ID repository. Published inside the transaction that
 * records the outcome, which `tx` is: what a listener writes or enqueues with
 * it commits with the outcome, or not at all (a stage run again publishes again).
 */
export interface RegistrationProcessed {
  rid: string;
  /** the centre the packet was made at (its sync's) */
  centreId: string;
  /** the pre-registration the packet names (packet_meta_info.json's `preRegistrationId`), or null */
  preRegistrationId: string | null;
  tx: JobTx;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by pre-registration, which consumes the application the packet names (MOSIP's reverse data sync). */
    'registration.processed': RegistrationProcessed;
  }
}
