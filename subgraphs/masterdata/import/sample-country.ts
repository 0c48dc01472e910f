/** What the components hear when the sample country has just been loaded (event `sampleCountry.loaded`). */
export interface SampleCountryLoaded {
  /** who loaded it (the rows' createdBy) */
  by: string;
  at: Date;
}

declare module '../../../lib/events.js' {
  interface DomainEvents {
    /**
     * Master data has loaded the sample country, once per database: a
     * component with sample rows of its own (partner management's default
     * group, the sample centre's staff) adds them in its own tables. Heard in
     * whichever process loads it (every process builds every component's
     * services); master data knows nothing of the listeners' tables.
     */
    'sampleCountry.loaded': SampleCountryLoaded;
  }
}
