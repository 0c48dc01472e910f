import type { PlatformDeps } from '../../lib/deps.js';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { masterdataRoutes } from '../../rest-compat/masterdata/routes.js';
import { defineComponent } from '../component.js';
import { mergeResolvers, type MasterdataArea } from './area.js';
import { centresArea } from './centres/index.js';
import { devicesArea } from './devices/index.js';
import { documentsArea } from './documents/index.js';
import { holidaysArea } from './holidays/index.js';
import { idschemaArea } from './idschema/index.js';

/** The areas of master data, each its own folder here, SDL file and REST module. */
const AREAS: readonly MasterdataArea[] = [idschemaArea, holidaysArea, documentsArea, devicesArea, centresArea];

const areaOf = (rootField: string) => AREAS.find((area) => rootField in area.schemas);

/** Master data: ID schema, locations and holidays, documents, devices and zones, registration centres and machines. */
export const masterdata = defineComponent({
  name: 'masterdata',
  access: Object.assign({}, ...AREAS.map((area) => area.access)) as MasterdataArea['access'],
  inputs: fieldInputs(Object.assign({}, ...AREAS.map((area) => area.schemas)) as MasterdataArea['schemas'], (field, missing, rootField) =>
    (areaOf(rootField)?.codeFor ?? (() => 'KER-MSD-500'))(field, missing, rootField),
  ),
  routes: masterdataRoutes,
  services: (deps: PlatformDeps) => Object.assign({}, ...AREAS.map((area) => area.services(deps))) as ReturnType<MasterdataArea['services']>,
  resolvers: (deps) => mergeResolvers([{ DateTime: DateTimeScalar, User: { __resolveReference: (ref) => ref } }, ...AREAS.map((area) => area.resolvers(deps))]),
});
