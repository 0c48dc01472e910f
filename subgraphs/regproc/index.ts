import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { RegprocArea } from './area.js';
import { RPR } from './errors.js';
import { pipelineArea } from './pipeline/index.js';
import { registrationsArea } from './registrations/index.js';
import { requestsArea } from './requests/index.js';
import { regprocSettings } from './settings.js';

/** The areas of the registration processor: registrations (sync, status), then the pipeline that builds on them. */
const AREAS: readonly RegprocArea[] = [registrationsArea, pipelineArea, requestsArea];
const assembled = assembleAreas(AREAS, RPR.internal);

/** The registration processor: registrations synced by registration clients, then their packets through the pipeline. */
export const regproc = defineComponent({
  name: 'regproc',
  uses: ['keys', 'notify', 'auth', 'masterdata', 'idrepo'],
  access: assembled.access,
  inputs: assembled.inputs,
  settings: regprocSettings,
  services: (deps, settings) => assembled.services(deps, settings),
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, JSON: JsonScalar }),
  live: {
    tables: [
      { topic: 'registrations', table: 'regproc_registration', keyColumn: 'rid' },
      { topic: 'registrations', table: 'regproc_manual_verification', keyColumn: 'rid' },
    ],
    subscriptions: {
      registrationCounts: { topics: ['registrations'] },
      // A registration becomes stuck by waiting, with no write to announce it.
      stuckRegistrations: { topics: ['registrations'], refreshSeconds: 30 },
      registration: { topics: ['registrations'], keyArgument: 'registrationId' },
    },
  },
});
