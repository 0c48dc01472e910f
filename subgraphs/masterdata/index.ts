import { whileLocked } from '../../lib/db/lock.js';
import { DateScalar, DateTimeScalar } from '../../lib/graph/scalars.js';
import { defineComponent } from '../component.js';
import { assembleAreas } from '../areas.js';
import type { MasterdataArea } from './area.js';
import { centresArea } from './centres/index.js';
import { devicesArea } from './devices/index.js';
import { documentsArea } from './documents/index.js';
import { holidaysArea } from './holidays/index.js';
import { idschemaArea } from './idschema/index.js';
import { importMasterdata, SAMPLE_COUNTRY_DIR } from './import/loader.js';
import { masterdataSettings } from './settings.js';

/** The areas of master data, each its own folder here, SDL file and REST module. */
const AREAS: readonly MasterdataArea[] = [idschemaArea, holidaysArea, documentsArea, devicesArea, centresArea];

const assembled = assembleAreas(AREAS, 'KER-MSD-500');

/** The sample rows' createdBy. */
const SAMPLE_BY = 'sample-data';
/** The advisory lock of the sample country's load. */
const SAMPLE_LOCK = 'md_sample_country';

/** Master data: ID schema, locations and holidays, documents, devices and zones, registration centres and machines. */
export const masterdata = defineComponent({
  name: 'masterdata',
  access: assembled.access,
  inputs: assembled.inputs,
  settings: masterdataSettings,
  services: (deps, settings) => assembled.services(deps, settings),
  // The sample country, so that a newcomer can call every endpoint at once (CONTRACT.md: PLATFORM_SAMPLE_DATA).
  start: async (deps, settings) => {
    const wanted =
      settings.sampleData === 'true' || (settings.sampleData === 'auto' && deps.database.kind === 'pglite' && (await deps.prisma.language.count()) === 0);
    const loaded = async () => (await deps.prisma.language.count({ where: { code: 'eng' } })) > 0;
    if (!wanted || (await loaded())) return;
    // Instances starting together on one database load it once: the first to hold the lock, which the others wait for
    // and then find the eng language (as any later start does) and leave the country alone.
    await whileLocked(deps.database, SAMPLE_LOCK, async () => {
      if (await loaded()) return;
      const at = deps.clock.now();
      const report = await importMasterdata(deps.prisma, SAMPLE_COUNTRY_DIR, SAMPLE_BY, at, (message) => deps.logger.info(`sample country: ${message}`));
      for (const row of report.rejected) deps.logger.warn(`sample country: ${row.file} line ${row.line} rejected: ${row.reason}`);
      // The other components' sample rows (the admin as manager of partner management's default group), under the lock
      // too: another instance's start finishes with the country whole.
      await deps.events.publish('sampleCountry.loaded', { by: SAMPLE_BY, at });
    });
  },
  resolvers: (deps) =>
    assembled.resolvers(deps, { DateTime: DateTimeScalar, Date: DateScalar, User: { __resolveReference: (ref: { userId: string }) => ref } }),
});
