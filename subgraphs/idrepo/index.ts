import type { PlatformDeps } from '../../lib/deps.js';
import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store/index.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { IdrepoArea } from './area.js';
import { IdrepoCipher } from './cipher.js';
import { identitiesArea } from './identities/index.js';
import { locksArea } from './locks/index.js';
import { idrepoSettings, type IdrepoSettings } from './settings.js';
import { UinPool } from './uins/pool.js';
import { uinsArea } from './uins/index.js';
import { vidsArea } from './vids/index.js';
import { IdentityFiles } from './identities/records.js';
import { IdentityService } from './identities/service.js';
import { uinRules, vidRules } from './numbers.js';
import { ResidentDirectory } from './residents/service.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** documents, biometrics and packets: files under PLATFORM_DATA_DIR or an S3-compatible store */
    objectStore: ObjectStore;
    /** the ID repository's encryption and look-up keys */
    idrepoCipher: IdrepoCipher;
    /** identities: create, read (audited), update */
    identities: IdentityService;
    /** UINs generated ahead for the registration processor */
    uinPool: UinPool;
    /** residents by UIN or VID, for OTP login (the authentication manager's `useridtype` UIN) */
    residents: ResidentDirectory;
  }
}

/** The pool's size and threshold: the settings, else the global configuration's platform.kernel.uin keys. */
function poolSize(settings: IdrepoSettings, global: Readonly<Record<string, string>>) {
  const size = settings.uinPoolSize ?? Number(global['platform.kernel.uin.uins-to-generate']);
  const threshold = settings.uinPoolThreshold ?? Number(global['platform.kernel.uin.min-unused-threshold']);
  if (!(size > 0) || !(threshold >= 0) || threshold > size) throw new Error(`UIN pool: size ${size} and threshold ${threshold} do not make a pool`);
  return { size, threshold };
}

/** The areas of the ID repository, each its own folder here, SDL file and REST module. */
const AREAS: readonly IdrepoArea[] = [identitiesArea, vidsArea, locksArea, uinsArea];
const assembled = assembleAreas(AREAS, 'IDR-IDC-004');

/** The ID repository: every resident's identity, encrypted, with its documents and biometrics. */
export const idrepo = defineComponent({
  name: 'idrepo',
  access: assembled.access,
  inputs: assembled.inputs,
  settings: idrepoSettings,
  async services(deps: PlatformDeps, settings) {
    const objectStore = openObjectStore({ url: deps.config.objectStoreUrl, dataDir: deps.config.dataDir });
    deps.onClose(() => objectStore.close?.());
    const cipher = new IdrepoCipher(deps.prisma, deps.services.keys, deps.clock);
    await cipher.start();
    const global = deps.services.syncdata.globalConfiguration();
    const rules = uinRules(global);
    const identities = new IdentityService(deps.prisma, deps.clock, cipher, new IdentityFiles(objectStore, cipher), deps.services.idSchemas, rules);
    const uinPool = new UinPool(deps.prisma, deps.clock, cipher, rules, poolSize(settings, global), deps.logger.child({ component: 'uin-pool' }), deps.jobs);
    // The areas build on these: each offers its services in turn.
    const own = { objectStore, idrepoCipher: cipher, identities, uinPool };
    Object.assign(deps.services, own);
    const areas = assembled.services(deps, settings);
    const residents = new ResidentDirectory(deps.prisma, cipher, identities, deps.services.vids, { uin: rules, vid: vidRules(global) });
    return { ...own, ...areas, residents };
  },
  // The pool fills in the background (a job): the platform serves at once.
  start: async (deps) => {
    const pool = deps.services.uinPool;
    deps.onClose(() => pool.stop());
    await pool.refillIfLow();
  },
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, JSON: JsonScalar }),
});
