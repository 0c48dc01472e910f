/** A MISP's decision or switch changed (event `misp.changed`). */
export interface MispChanged {
  mispId: string;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /** Heard by what depends on a MISP being approved and on (partner validation's links). */
    'misp.changed': MispChanged;
  }
}
