import type { RestRoute } from '../route.js';
import { loginRoutes } from './login.js';

/** Every pre-registration path of the spec, under /preregistration/v1. */
export const preregRoutes: RestRoute[] = [...loginRoutes];
