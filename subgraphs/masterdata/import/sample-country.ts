import type { EventBus } from '../../../lib/events.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import { loadMasterdata, SAMPLE_COUNTRY_DIR } from './loader.js';
import type { SampleCountryStore } from './storage.js';

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

/** The sample rows' createdBy. */
const SAMPLE_BY = 'sample-data';
/** The advisory lock of the sample country's load. */
const SAMPLE_LOCK = 'md_sample_country';

export interface SampleCountryStart {
  /** PLATFORM_SAMPLE_DATA: `true`, `false`, or `auto` (on an embedded database that has no master data yet) */
  sampleData: string;
  /** whether the database is the embedded one */
  embedded: boolean;
  clock: Clock;
  logger: Logger;
  events: Pick<EventBus, 'publish'>;
}

/**
 * The sample country, so that a newcomer can call every endpoint at once
 * (CONTRACT.md: PLATFORM_SAMPLE_DATA), loaded at start when wanted and not
 * there yet (its eng language).
 */
export async function loadSampleCountry(store: SampleCountryStore, start: SampleCountryStart): Promise<void> {
  const wanted = start.sampleData === 'true' || (start.sampleData === 'auto' && start.embedded && (await store.languageCount()) === 0);
  const loaded = async () => (await store.rowsOfLanguage('eng')) > 0;
  if (!wanted || (await loaded())) return;
  // Instances starting together on one database load it once: the first to hold the lock, which the others wait for
  // and then find the eng language (as any later start does) and leave the country alone.
  await store.whileLocked(SAMPLE_LOCK, async () => {
    if (await loaded()) return;
    const at = start.clock.now();
    const report = await loadMasterdata(store, SAMPLE_COUNTRY_DIR, SAMPLE_BY, at, (message) => start.logger.info(`sample country: ${message}`));
    for (const row of report.rejected) start.logger.warn(`sample country: ${row.file} line ${row.line} rejected: ${row.reason}`);
    // The other components' sample rows (the admin as manager of partner management's default group), under the lock
    // too: another instance's start finishes with the country whole.
    await start.events.publish('sampleCountry.loaded', { by: SAMPLE_BY, at });
  });
}
