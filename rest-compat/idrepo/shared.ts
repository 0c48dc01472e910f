import { idrepo } from '../../subgraphs/idrepo/index.js';
import type { RouteModule } from '../route-factory.js';

/** What the ID repository's routes share: IDR-IDC-004 for the platform's failures, envelope ids under `platform.`; each file names its paths. */
export const IDREPO = { component: idrepo, internalErrorCode: 'IDR-IDC-004', idPrefix: 'platform.' } satisfies RouteModule;
