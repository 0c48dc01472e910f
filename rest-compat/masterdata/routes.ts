import type { RestRoute } from '../route.js';
import { centreUsersRoutes } from './centre-users.js';
import { centresRoutes } from './centres.js';
import { deviceCatalogueRoutes } from './device-catalogue.js';
import { devicesRoutes } from './devices.js';
import { documentCategoriesRoutes } from './document-categories.js';
import { documentTypesRoutes } from './document-types.js';
import { holidaysRoutes } from './holidays.js';
import { idschemaRoutes } from './idschema.js';
import { locationsRoutes } from './locations.js';
import { machinesRoutes } from './machines.js';
import { validDocumentsRoutes } from './valid-documents.js';
import { zonesRoutes } from './zones.js';

/** Every master data path of the spec, under /v1/masterdata (CONTRACT.md). */
export const masterdataRoutes: RestRoute[] = [
  ...idschemaRoutes,
  ...holidaysRoutes,
  ...locationsRoutes,
  ...documentCategoriesRoutes,
  ...documentTypesRoutes,
  ...validDocumentsRoutes,
  ...devicesRoutes,
  ...deviceCatalogueRoutes,
  ...zonesRoutes,
  ...centresRoutes,
  ...machinesRoutes,
  ...centreUsersRoutes,
];
