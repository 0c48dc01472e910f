import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { AbisArea } from './area.js';
import { dataShareArea } from './datashare/index.js';
import { DAT } from './errors.js';
import { abisSettings } from './settings.js';

const AREAS: readonly AbisArea[] = [dataShareArea];
const assembled = assembleAreas(AREAS, DAT.internal);

/** ABIS integration: data shares of registrations' biometrics (requests over the queue come next). */
export const abis = defineComponent({
  name: 'abis',
  access: assembled.access,
  inputs: assembled.inputs,
  settings: abisSettings,
  services: (deps, settings) => assembled.services(deps, settings),
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar }),
});
