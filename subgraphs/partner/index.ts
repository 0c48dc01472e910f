import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { ADMIN_USER } from '../auth/service.js';
import { defineComponent } from '../component.js';
import type { PartnerArea } from './area.js';
import { admitAtDesks, PartnerCallers } from './callers.js';
import { refusingNul } from './inputs.js';
import { mispsArea } from './misps/index.js';
import { partnersArea, viewerAccess } from './partners/index.js';
import { viewerResolvers } from './partners/resolvers.js';
import { policiesArea } from './policies/index.js';
import { validationArea } from './validation/index.js';
import { partnerSettings } from './settings.js';

/** The areas of partner management, each its own folder here, SDL file and REST module. */
const AREAS: readonly PartnerArea[] = [mispsArea, policiesArea, partnersArea, validationArea];

const assembled = assembleAreas(AREAS, 'PMS_COR_002');
/** Every root field's arguments, with no NUL character in any string (PMS_COR_002): one rule for every area. */
const inputs = { ...assembled.inputs, schemas: refusingNul(assembled.inputs.schemas) };

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** who may sit at partner management's desks (PMS_MSP_001/002, PMS_POL_001/002, PMS_PMP_001..003, PMS_PRT_003/004) */
    partnerCallers: PartnerCallers;
  }
}

/** Partner management: MISPs, policy groups and policies, partners and their API keys. */
export const partner = defineComponent({
  name: 'partner',
  uses: ['keys', 'auth', 'license'],
  access: { ...assembled.access, ...viewerAccess },
  inputs,
  settings: partnerSettings,
  services: (deps, settings) => {
    // Offered before the areas are built: they admit callers at their desks.
    Object.assign(deps.services, { partnerCallers: new PartnerCallers(deps.services.users, deps.clock) });
    const offered = { partnerCallers: deps.services.partnerCallers, ...assembled.services(deps, settings) };
    // With the sample country, the bootstrap admin manages the default group at once, as the sample maps it to zone MOR: heard in
    // whichever process master data loads the country (every process builds every component's services), and written to this
    // component's own tables.
    deps.events.on('sampleCountry.loaded', 'partner', async ({ by }) => {
      if (await deps.services.policyGroups.mapSampleManager(by, ADMIN_USER)) {
        deps.logger.info({ userId: ADMIN_USER }, 'sample country: the admin manages the default policy group');
      }
    });
    return offered;
  },
  // The policy group a newcomer creates policies in at once (docs/sample-country.md).
  start: async (deps) => {
    const validation = deps.services.partnerValidation;
    await validation.start(deps.database);
    deps.onClose(() => validation.stop());
    await deps.services.policyGroups.ensureDefault();
  },
  resolvers: (deps) => {
    const callers = deps.services.partnerCallers;
    return admitAtDesks(
      assembled.resolvers(deps, { DateTime: DateTimeScalar, User: { __resolveReference: (ref: { userId: string }) => ref }, ...viewerResolvers(deps) }),
      AREAS,
      () => callers,
    );
  },
});
