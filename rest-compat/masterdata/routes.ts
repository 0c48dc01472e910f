import type { RestRoute } from '../route.js';
import { centresRoutes } from './centres.js';
import { devicesRoutes } from './devices.js';
import { documentsRoutes } from './documents.js';
import { holidaysRoutes } from './holidays.js';
import { idschemaRoutes } from './idschema.js';

/** Every master data path of the spec, under /v1/masterdata (CONTRACT.md). */
export const masterdataRoutes: RestRoute[] = [...idschemaRoutes, ...holidaysRoutes, ...documentsRoutes, ...devicesRoutes, ...centresRoutes];
