import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { abisCodeFor } from '../errors.js';
import type { AbisSettings } from '../settings.js';
import { AbisRequestService } from './service.js';
import { AbisRequestStorage } from './storage.js';
import { requestsResolvers } from './resolvers.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** insert and identify requests to the ABIS over the queue, and their replies */
    abisRequests: AbisRequestService;
  }
}

const OPERATORS = access.roles('GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR');

/** ABIS requests: the de-duplication the pipeline runs with REGPROC_DEDUPE=abis. */
export const requestsArea = defineArea({
  name: 'requests',
  access: {
    'Registration.abisRequests': OPERATORS,
    'Registration.__resolveReference': OPERATORS,
  },
  schemas: {},
  codeFor: abisCodeFor,
  services: (deps, settings) => {
    const { dataShares, pipeline, registrations } = deps.services;
    const service = new AbisRequestService(
      new AbisRequestStorage(deps.prisma),
      dataShares,
      pipeline,
      async (referenceIds) => {
        const found = await registrations.byBioRefIds(referenceIds);
        return new Map([...found].map(([id, row]) => [id, { rid: row.rid, status: row.status }]));
      },
      deps.jobs,
      deps.queue,
      deps.clock,
      settings as AbisSettings,
      deps.logger.child({ component: 'abis' }),
    );
    // REGPROC_DEDUPE=abis: the pipeline's de-duplication stage sends its inserts here (workers too: services are built in every process).
    if (pipeline.dedupe.name === 'abis') pipeline.useDeduplication(service.deduplication);
    return { abisRequests: service };
  },
  resolvers: (deps) => requestsResolvers(deps),
});
