/** A license key's status changed (event `license.changed`): set by an admin, or blocked before a new key is issued in its place. */
export interface LicenseChanged {
  mispId: string;
  /** the status the key (or every active key of the MISP) now has */
  status: string;
}

declare module '../../lib/events.js' {
  interface DomainEvents {
    /** Heard by whatever depends on a MISP's keys being usable (partner management's validation links). */
    'license.changed': LicenseChanged;
  }
}
