import { partner } from '../../subgraphs/partner/index.js';
import { routeFactory } from '../route-factory.js';

/** What every partner management route shares: `errors: []` on success, PMS_COR_003 for the platform's failures, ids and paths. */
export const route = routeFactory({
  component: partner,
  internalErrorCode: 'PMS_COR_003',
  emptyErrors: [],
  idPrefix: 'platform.partnermanagement.',
  pathPrefix: '/partnermanagement/v1',
});
