import type { RestRoute } from '../route.js';
import { applicationsRoutes } from './applications.js';
import { bookingRoutes } from './booking.js';
import { documentsRoutes } from './documents.js';
import { loginRoutes } from './login.js';
import { syncRoutes } from './sync.js';

/** Every pre-registration path of the spec, under /preregistration/v1. */
export const preregRoutes: RestRoute[] = [...loginRoutes, ...applicationsRoutes, ...documentsRoutes, ...bookingRoutes, ...syncRoutes];
