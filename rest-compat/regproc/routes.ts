import type { RestRoute } from '../route.js';
import { registrationsRoutes } from './registrations.js';

/** Every registration processor path of the spec so far, under /registrationprocessor/v1. */
export const regprocRoutes: RestRoute[] = [...registrationsRoutes];
