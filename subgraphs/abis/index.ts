import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { AbisArea } from './area.js';
import { dataShareArea } from './datashare/index.js';
import { requestsArea } from './requests/index.js';
import { DAT } from './errors.js';
import { abisSettings } from './settings.js';

const AREAS: readonly AbisArea[] = [dataShareArea, requestsArea];
const assembled = assembleAreas(AREAS, DAT.internal);

/** ABIS integration: data shares of registrations' biometrics, insert and identify over the queue. */
export const abis = defineComponent({
  name: 'abis',
  uses: ['keys', 'regproc'],
  access: assembled.access,
  inputs: assembled.inputs,
  settings: abisSettings,
  services: (deps, settings) => assembled.services(deps, settings),
  // Replies are consumed by the platform's instances (the stages' jobs run anywhere).
  start: (deps) => {
    const stop = deps.services.abisRequests.listen();
    // A broker back after an outage: the requests it held back go out now, not at their next back-off.
    const stopWaking = deps.queue.onUp(
      () => void deps.jobs.runDueNow('abis.send').catch((error: unknown) => deps.logger.warn({ err: error }, 'waking ABIS sends failed')),
    );
    deps.onClose(() => {
      stop.forEach((unsubscribe) => unsubscribe());
      stopWaking();
    });
    return Promise.resolve();
  },
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar }),
  live: {
    tables: [{ topic: 'abis', table: 'abis_request', keyColumn: 'abisName' }],
    // Liveness lapses with time: an ABIS that stops answering its pings writes nothing.
    subscriptions: { abisSystems: { topics: ['abis'], refreshSeconds: 10 } },
  },
});
