import type { RestRoute } from '../route.js';
import { mispsRoutes } from './misps.js';
import { partnersRoutes } from './partners.js';
import { policiesRoutes } from './policies.js';
import { validationRoutes } from './validation.js';

/** Every partner management path of the spec, under /partnermanagement/v1. */
export const partnerRoutes: RestRoute[] = [...mispsRoutes, ...policiesRoutes, ...partnersRoutes, ...validationRoutes];
