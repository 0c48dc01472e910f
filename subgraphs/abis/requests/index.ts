import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import type { AbisSettings } from '../settings.js';
import { requestsSchemas } from './inputs.js';
import { AbisOperatorService, AnswerSignals } from './operator.js';
import { requestsResolvers } from './resolvers.js';
import { AbisRequestService } from './service.js';
import { AbisRequestStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** insert and identify requests to the ABIS over the queue, and their replies */
    abisRequests: AbisRequestService;
    /** an operator's questions and deletes, each ABIS's liveness and backlog */
    abisOperator: AbisOperatorService;
  }
}

const OPERATORS = access.roles('GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR');

/** ABIS requests: the de-duplication the pipeline runs with REGPROC_DEDUPE=abis, and the operators' view and questions. */
export const requestsArea = defineArea({
  name: 'requests',
  access: {
    'Query.abisRequests': OPERATORS,
    'Query.abisSystems': OPERATORS,
    'Subscription.abisSystems': OPERATORS,
    'Mutation.askAbis': OPERATORS,
    'Mutation.deleteAbisReference': OPERATORS,
    'Registration.abisRequests': OPERATORS,
    'Registration.candidates': OPERATORS,
    'Registration.__resolveReference': OPERATORS,
    'AbisRequest.__resolveReference': OPERATORS,
  },
  schemas: requestsSchemas,
  // Every missing or malformed argument is the registration processor's RPR-RGS-015, as the operators' other calls answer.
  codeFor: () => 'RPR-RGS-015',
  services: (deps, settings) => {
    const { dataShares, pipeline, registrations } = deps.services;
    const abisSettings = settings as AbisSettings;
    const store = new AbisRequestStorage(deps.prisma);
    const service = new AbisRequestService(
      store,
      dataShares,
      pipeline,
      async (referenceIds) => {
        const found = await registrations.byBioRefIds(referenceIds);
        return new Map([...found].map(([id, row]) => [id, { rid: row.rid, status: row.status }]));
      },
      deps.jobs,
      deps.queue,
      deps.clock,
      abisSettings,
      deps.logger.child({ component: 'abis' }),
      deps.events,
    );
    // An operator's wait wakes at its answers, applied here (the event) or by another instance (NOTIFY).
    const answers = new AnswerSignals({ database: deps.database, events: deps.events, logger: deps.logger.child({ component: 'abis' }) });
    deps.onClose(() => answers.close());
    const operator = new AbisOperatorService(
      store,
      service,
      async (rid) => (await registrations.byRids([rid])).get(rid) ?? null,
      deps.queue,
      deps.clock,
      abisSettings,
      answers,
    );
    // REGPROC_DEDUPE=abis: the pipeline's de-duplication stage sends its inserts here (workers too: services are built in every process).
    if (pipeline.dedupe.name === 'abis') pipeline.useDeduplication(service.deduplication);
    return { abisRequests: service, abisOperator: operator };
  },
  resolvers: (deps) => requestsResolvers(deps),
});
