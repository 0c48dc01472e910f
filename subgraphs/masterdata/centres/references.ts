import type { ZoneService } from '../devices/zones.js';
import type { LocationService } from '../holidays/locations-service.js';
import { checkLanguage } from '../keys.js';
import type { LanguageStore } from '../storage.js';
import type { CentreStore } from './storage/centres.js';

/** What centres and machines check before they write: the rows they point to exist (any language, not deleted). */
export class References {
  constructor(
    private readonly languages: LanguageStore,
    private readonly centres: Pick<CentreStore, 'exists'>,
    private readonly locations: Pick<LocationService, 'mustExist'>,
    private readonly zones: Pick<ZoneService, 'exists'>,
  ) {}

  /** KER-MSD-999 unless rows may be written in the language. */
  language(code: string): Promise<void> {
    return checkLanguage(this.languages, code);
  }

  /** KER-MSD-026 for a location that does not exist. */
  location(code: string): Promise<void> {
    return this.locations.mustExist(code);
  }

  zoneExists(code: string): Promise<boolean> {
    return this.zones.exists(code);
  }

  centreExists(id: string): Promise<boolean> {
    return this.centres.exists(id);
  }
}
