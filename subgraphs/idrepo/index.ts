import type { PlatformDeps } from '../../lib/deps.js';
import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store/index.js';
import { idrepoRoutes } from '../../rest-compat/idrepo/routes.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { IdrepoArea } from './area.js';
import { IdrepoCipher } from './cipher.js';
import { identitiesArea } from './identities/index.js';
import { locksArea } from './locks/index.js';
import { vidsArea } from './vids/index.js';
import { IdentityFiles } from './identities/records.js';
import { IdentityService } from './identities/service.js';
import { uinRules } from './numbers.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** documents, biometrics and packets: files under PLATFORM_DATA_DIR or an S3-compatible store */
    objectStore: ObjectStore;
    /** the ID repository's encryption and look-up keys */
    idrepoCipher: IdrepoCipher;
    /** identities: create, read (audited), update */
    identities: IdentityService;
  }
}

/** The areas of the ID repository, each its own folder here, SDL file and REST module. */
const AREAS: readonly IdrepoArea[] = [identitiesArea, vidsArea, locksArea];
const assembled = assembleAreas(AREAS, 'IDR-IDC-004');

/** The ID repository: every resident's identity, encrypted, with its documents and biometrics. */
export const idrepo = defineComponent({
  name: 'idrepo',
  access: assembled.access,
  inputs: assembled.inputs,
  routes: idrepoRoutes,
  async services(deps: PlatformDeps) {
    const objectStore = openObjectStore({ url: deps.config.objectStoreUrl, dataDir: deps.config.dataDir });
    deps.onClose(() => objectStore.close?.());
    const cipher = new IdrepoCipher(deps.prisma, deps.services.keys, deps.clock);
    await cipher.start();
    const rules = uinRules(deps.services.syncdata.globalConfiguration());
    const identities = new IdentityService(deps.prisma, deps.clock, cipher, new IdentityFiles(objectStore, cipher), deps.services.idSchemas, rules);
    // The areas build on these: each offers its services in turn.
    Object.assign(deps.services, { objectStore, idrepoCipher: cipher, identities });
    return { objectStore, idrepoCipher: cipher, identities, ...assembled.services(deps, undefined) };
  },
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, JSON: JsonScalar }),
});
