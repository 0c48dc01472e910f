import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { RegprocArea } from './area.js';
import { RPR } from './errors.js';
import { registrationsArea } from './registrations/index.js';

/** The areas of the registration processor; the packet receiver and the pipeline's stages come next. */
const AREAS: readonly RegprocArea[] = [registrationsArea];
const assembled = assembleAreas(AREAS, RPR.internal);

/** The registration processor: registrations synced by registration clients, then their packets through the pipeline. */
export const regproc = defineComponent({
  name: 'regproc',
  access: assembled.access,
  inputs: assembled.inputs,
  services: (deps) => assembled.services(deps, undefined),
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, JSON: JsonScalar }),
});
