import type { LiveSubscription, LiveTable } from '../lib/live.js';
import type { Settings } from '../lib/settings.js';
import type { AccessTable } from '../lib/subgraph.js';
import { authRoutes } from '../rest-compat/auth/routes.js';
import { idrepoRoutes } from '../rest-compat/idrepo/routes.js';
import { keysRoutes } from '../rest-compat/keys/routes.js';
import { licenseRoutes } from '../rest-compat/license/routes.js';
import { masterdataRoutes } from '../rest-compat/masterdata/routes.js';
import { notifyRoutes } from '../rest-compat/notify/routes.js';
import { otpRoutes } from '../rest-compat/otp/routes.js';
import { partnerRoutes } from '../rest-compat/partner/routes.js';
import { regprocRoutes } from '../rest-compat/regproc/routes.js';
import { abisRoutes } from '../rest-compat/abis/routes.js';
import type { RestRoute } from '../rest-compat/route.js';
import { dependencyOrder } from './dependencies.js';
import { syncdataRoutes } from '../rest-compat/syncdata/routes.js';
import { preregRoutes } from '../rest-compat/prereg/routes.js';
import { auth } from '../subgraphs/auth/index.js';
import type { AnyComponent, Component, ComponentJobs } from '../subgraphs/component.js';
import { idrepo } from '../subgraphs/idrepo/index.js';
import { idrepoJobs } from '../subgraphs/idrepo/jobs.js';
import { keys } from '../subgraphs/keys/index.js';
import { license } from '../subgraphs/license/index.js';
import { masterdata } from '../subgraphs/masterdata/index.js';
import { notify } from '../subgraphs/notify/index.js';
import { notifyJobs } from '../subgraphs/notify/jobs.js';
import { node } from '../subgraphs/node/index.js';
import { otp } from '../subgraphs/otp/index.js';
import { partner } from '../subgraphs/partner/index.js';
import { regproc } from '../subgraphs/regproc/index.js';
import { abis } from '../subgraphs/abis/index.js';
import { abisJobs } from '../subgraphs/abis/jobs.js';
import { regprocJobs } from '../subgraphs/regproc/jobs.js';
import { syncdata } from '../subgraphs/syncdata/index.js';
import { prereg } from '../subgraphs/prereg/index.js';
import { preregJobs } from '../subgraphs/prereg/jobs.js';

/** One line of the registry: a component (its subgraph and services), its REST routes and its job handlers. */
export interface Registered<S extends Settings = Settings> {
  component: Component<S>;
  routes: readonly RestRoute[];
  jobs?: ComponentJobs<S>;
}

const register = <S extends Settings>(component: Component<S>, routes: readonly RestRoute[], jobs?: ComponentJobs<S>): Registered<S> => ({
  component,
  routes,
  jobs,
});

/**
 * Every component of the platform. The only list to edit when a component is
 * added: its folder under subgraphs/, its REST routes under rest-compat/,
 * and one line here; the order it is built in follows what each declares it
 * uses (COMPONENTS).
 */
// Each line keeps its own settings type; the list only needs what all share (settings are contravariant in services).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const REGISTRY: readonly Registered<any>[] = [
  register(keys, keysRoutes),
  register(notify, notifyRoutes, notifyJobs),
  register(otp, otpRoutes),
  register(auth, authRoutes),
  register(license, licenseRoutes),
  register(masterdata, masterdataRoutes),
  register(syncdata, syncdataRoutes),
  register(partner, partnerRoutes),
  register(idrepo, idrepoRoutes, idrepoJobs),
  register(regproc, regprocRoutes, regprocJobs),
  register(abis, abisRoutes, abisJobs),
  register(prereg, preregRoutes, preregJobs),
  register(node, []),
];

/** The components in build order: each after those it uses (gateway/dependencies.ts). */
export const COMPONENTS: readonly AnyComponent[] = dependencyOrder(REGISTRY.map((line) => line.component));

export function componentNamed(name: string): AnyComponent | undefined {
  return COMPONENTS.find((component) => component.name === name);
}

/** The one role table, assembled from the components' rows; subgraphs and the REST layer enforce it, a test checks it. */
export const ROLE_TABLE: AccessTable = Object.assign({}, ...COMPONENTS.map((component) => component.access)) as AccessTable;

/** Every REST path of the platform: mounted, and documented by /v3/api-docs, from this one list. */
/** Every component's subscriptions, by field name, and the tables whose writes they watch. */
export const LIVE_SUBSCRIPTIONS: ReadonlyMap<string, LiveSubscription> = new Map(
  COMPONENTS.flatMap((component) => Object.entries(component.live?.subscriptions ?? {})),
);
export const LIVE_TABLES: readonly LiveTable[] = COMPONENTS.flatMap((component) => component.live?.tables ?? []);

export const REST_ROUTES: readonly RestRoute[] = REGISTRY.flatMap((line) => line.routes);
