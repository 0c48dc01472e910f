import type { PlatformDeps } from '../../lib/deps.js';
import { DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import type { ObjectStore } from '../../lib/object-store/index.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { IdrepoArea } from './area.js';
import { IdrepoCipher } from './cipher.js';
import { idrepoKeyStorage } from './storage.js';
import { identitiesArea } from './identities/index.js';
import { locksArea } from './locks/index.js';
import { residentsArea } from './residents/index.js';
import { idrepoSettings } from './settings.js';
import { uinsArea } from './uins/index.js';
import { vidsArea } from './vids/index.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** documents, biometrics and packets: files under PLATFORM_DATA_DIR or an S3-compatible store */
    objectStore: ObjectStore;
    /** the ID repository's encryption and look-up keys */
    idrepoCipher: IdrepoCipher;
  }
}

/** The areas of the ID repository, each its own folder here (and, but residents, SDL file and REST module); each builds on those before it. */
const AREAS: readonly IdrepoArea[] = [identitiesArea, vidsArea, locksArea, uinsArea, residentsArea];
const assembled = assembleAreas(AREAS, 'IDR-IDC-004');

/** The ID repository: every resident's identity, encrypted, with its documents and biometrics. */
export const idrepo = defineComponent({
  name: 'idrepo',
  uses: ['keys', 'auth', 'masterdata'],
  access: assembled.access,
  inputs: assembled.inputs,
  settings: idrepoSettings,
  async services(deps: PlatformDeps, settings) {
    const objectStore = deps.objects;
    const cipher = new IdrepoCipher(idrepoKeyStorage(deps.prisma), deps.services.keys, deps.clock);
    await cipher.start();
    // The areas build on these: each offers its services in turn.
    const own = { objectStore, idrepoCipher: cipher };
    Object.assign(deps.services, own);
    return { ...own, ...assembled.services(deps, settings) };
  },
  // The pool fills in the background (a job): the platform serves at once.
  start: async (deps) => {
    const pool = deps.services.uinPool;
    deps.onClose(() => pool.stop());
    await pool.refillIfLow();
  },
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, JSON: JsonScalar }),
});
