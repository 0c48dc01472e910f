import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { partnerRoutes } from '../../rest-compat/partner/routes.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { PartnerArea } from './area.js';
import { admitAtDesks, PartnerCallers } from './callers.js';
import { mispsArea } from './misps/index.js';
import { partnersArea } from './partners/index.js';
import { policiesArea } from './policies/index.js';
import { validationArea } from './validation/index.js';
import { partnerSettings } from './settings.js';

/** The areas of partner management, each its own folder here, SDL file and REST module. */
const AREAS: readonly PartnerArea[] = [mispsArea, policiesArea, partnersArea, validationArea];

const assembled = assembleAreas(AREAS, 'PMS_COR_002');

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** who may sit at partner management's desks (PMS_MSP_001/002, PMS_POL_001/002, PMS_PMP_001..003, PMS_PRT_003/004) */
    partnerCallers: PartnerCallers;
  }
}

/** Partner management: MISPs, policy groups and policies, partners and their API keys. */
export const partner = defineComponent({
  name: 'partner',
  access: assembled.access,
  inputs: assembled.inputs,
  routes: partnerRoutes,
  settings: partnerSettings,
  services: (deps, settings) => ({ partnerCallers: new PartnerCallers(deps.services.users, deps.clock), ...assembled.services(deps, settings) }),
  // The policy group a newcomer creates policies in at once (README, "Sample data").
  start: async (deps) => {
    await deps.services.partnerValidation.start(deps.database);
    deps.onClose(() => deps.services.partnerValidation.stop());
    const now = deps.clock.now();
    await deps.prisma.policyGroup.upsert({
      where: { id: 'default' },
      create: { id: 'default', name: 'default', description: 'The default policy group', createdBy: 'system', createdAt: now },
      update: {},
    });
  },
  resolvers: (deps) =>
    admitAtDesks(
      assembled.resolvers(deps, { DateTime: DateTimeScalar, User: { __resolveReference: (ref: { userId: string }) => ref } }),
      AREAS,
      () => deps.services.partnerCallers,
    ),
});
