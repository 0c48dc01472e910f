import type { AccessTable } from '../lib/subgraph.js';
import type { RestRoute } from '../rest-compat/route.js';
import { auth } from './auth/index.js';
import type { AnyComponent } from './component.js';
import { keys } from './keys/index.js';
import { license } from './license/index.js';
import { masterdata } from './masterdata/index.js';
import { notify } from './notify/index.js';
import { otp } from './otp/index.js';
import { idrepo } from './idrepo/index.js';
import { partner } from './partner/index.js';
import { syncdata } from './syncdata/index.js';

/**
 * Every component of the platform, in start-up order: a component's services
 * may use those of the components before it. The only list to edit when a
 * component is added.
 */
// Each component keeps its own settings type; the list only needs what all share.
export const COMPONENTS: readonly AnyComponent[] = [keys, notify, otp, auth, license, masterdata, syncdata, partner, idrepo];

export function componentNamed(name: string): AnyComponent | undefined {
  return COMPONENTS.find((component) => component.name === name);
}

/** The one role table, assembled from the components' rows; subgraphs and the REST layer enforce it, a test checks it. */
export const ROLE_TABLE: AccessTable = Object.assign({}, ...COMPONENTS.map((component) => component.access)) as AccessTable;

/** Every REST path of the platform: mounted, and documented by /v3/api-docs, from this one list. */
export const REST_ROUTES: readonly RestRoute[] = COMPONENTS.flatMap((component) => component.routes ?? []);
