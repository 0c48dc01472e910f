import type { RestRoute } from '../route.js';
import { pipelineRoutes } from './pipeline.js';
import { registrationsRoutes } from './registrations.js';

/** Every registration processor path of the spec under /registrationprocessor/v1. */
export const regprocRoutes: RestRoute[] = [...registrationsRoutes, ...pipelineRoutes];
