import type { PlatformDeps } from '../../lib/deps.js';
import { openObjectStore, type ObjectStore } from '../../lib/object-store/index.js';
import { idrepoRoutes } from '../../rest-compat/idrepo/routes.js';
import { defineComponent } from '../component.js';
import { idrepoAccess } from './access.js';
import { IdrepoCipher } from './cipher.js';
import { idrepoInputs } from './inputs.js';
import { uinRules } from './numbers.js';
import { IdentityFiles } from './records.js';
import { idrepoResolvers } from './resolvers.js';
import { IdentityService } from './service.js';

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

/** The ID repository: every resident's identity, encrypted, with its documents and biometrics. */
export const idrepo = defineComponent({
  name: 'idrepo',
  access: idrepoAccess,
  inputs: idrepoInputs,
  routes: idrepoRoutes,
  async services(deps: PlatformDeps) {
    const objectStore = openObjectStore({ url: deps.config.objectStoreUrl, dataDir: deps.config.dataDir });
    deps.onClose(() => objectStore.close?.());
    const cipher = new IdrepoCipher(deps.prisma, deps.services.keys, deps.clock);
    await cipher.start();
    const rules = uinRules(deps.services.syncdata.globalConfiguration());
    const identities = new IdentityService(deps.prisma, deps.clock, cipher, new IdentityFiles(objectStore, cipher), deps.services.idSchemas, rules);
    return { objectStore, idrepoCipher: cipher, identities };
  },
  resolvers: (deps) => {
    const base = deps.config.publicUrl ?? `http://localhost:${deps.config.port}`;
    return idrepoResolvers(deps.services.identities, (uin) => `${base.replace(/\/$/, '')}/idrepository/v1/identity/uin/${uin}`);
  },
});
