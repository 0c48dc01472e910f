import type { Logger } from '../../../lib/log.js';

/** What the components hear when the sample country has just been loaded. */
export interface SampleCountryLoaded {
  /** who loaded it (the rows' createdBy) */
  by: string;
  at: Date;
}

type Listener = (event: SampleCountryLoaded) => Promise<void>;

/**
 * The sample country's loading as the other components hear of it. A
 * component that has sample rows of its own in its own tables (partner
 * management: the bootstrap admin as manager of the `default` policy group)
 * registers here when its services are built, and does its part when master
 * data has loaded the country: once per database, at the same moment the
 * sample maps the admin to zone MOR and centre 10001. Master data knows
 * nothing of the listeners' tables.
 */
export class SampleCountryEvents {
  private readonly listeners: { name: string; listener: Listener }[] = [];

  constructor(private readonly logger: Logger) {}

  /** `name`: the listening component, for the log. */
  onLoaded(name: string, listener: Listener): void {
    this.listeners.push({ name, listener });
  }

  /** Tells every listener, in registration order; one that fails is logged and the others still run (the country is loaded either way). */
  async loaded(event: SampleCountryLoaded): Promise<void> {
    for (const { name, listener } of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        this.logger.warn({ err: error, listener: name }, 'sample country: a component could not add its sample rows');
      }
    }
  }
}
