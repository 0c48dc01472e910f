import type { RestRoute } from '../route.js';
import { pipelineRoutes } from './pipeline.js';
import { registrationsRoutes } from './registrations.js';
import { requestsRoutes } from './requests.js';

/** Every registration processor path of the spec under /registrationprocessor/v1. */
export const regprocRoutes: RestRoute[] = [...registrationsRoutes, ...pipelineRoutes, ...requestsRoutes];
