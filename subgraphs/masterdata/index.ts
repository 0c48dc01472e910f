import { DateScalar, DateTimeScalar } from '../../lib/graph/scalars.js';
import { defineComponent } from '../component.js';
import { assembleAreas } from '../areas.js';
import type { MasterdataArea } from './area.js';
import { centresArea } from './centres/index.js';
import { changesArea } from './changes/index.js';
import { devicesArea } from './devices/index.js';
import { documentsArea } from './documents/index.js';
import { holidaysArea } from './holidays/index.js';
import { idschemaArea } from './idschema/index.js';
import { loadSampleCountry } from './import/sample-country.js';
import { SampleCountryStorage } from './import/storage.js';
import { masterdataSettings } from './settings.js';

/** The areas of master data, each its own folder here, SDL file and REST module. */
const AREAS: readonly MasterdataArea[] = [idschemaArea, holidaysArea, documentsArea, devicesArea, centresArea, changesArea];

const assembled = assembleAreas(AREAS, 'KER-MSD-500');

/** Master data: ID schema, locations and holidays, documents, devices and zones, registration centres and machines. */
export const masterdata = defineComponent({
  name: 'masterdata',
  uses: ['keys', 'auth'],
  access: assembled.access,
  inputs: assembled.inputs,
  settings: masterdataSettings,
  services: (deps, settings) => assembled.services(deps, settings),
  // The sample country, so that a newcomer can call every endpoint at once (CONTRACT.md: PLATFORM_SAMPLE_DATA).
  start: (deps, settings) =>
    loadSampleCountry(new SampleCountryStorage(deps.database), {
      sampleData: settings.sampleData,
      embedded: deps.database.kind === 'pglite',
      clock: deps.clock,
      logger: deps.logger,
      events: deps.events,
    }),
  resolvers: (deps) =>
    assembled.resolvers(deps, { DateTime: DateTimeScalar, Date: DateScalar, User: { __resolveReference: (ref: { userId: string }) => ref } }),
});
