import type { PlatformDeps } from '../../lib/deps.js';
import { DateScalar, DateTimeScalar, JsonScalar } from '../../lib/graph/scalars.js';
import { assembleAreas } from '../areas.js';
import { defineComponent } from '../component.js';
import type { PreregArea } from './area.js';
import { PreregCipher } from './cipher.js';
import { applicationsArea } from './applications/index.js';
import { bookingArea } from './booking/index.js';
import { configurationArea } from './configuration/index.js';
import { documentsArea } from './documents/index.js';
import { PREREG_INTERNAL } from './errors.js';
import { loginArea } from './login/index.js';
import { preregSettings } from './settings.js';
import { syncArea } from './sync/index.js';
import { preregKeyStorage } from './storage.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** pre-registration's field encryption: demographic data and documents */
    preregCipher: PreregCipher;
  }
}

/** The areas of pre-registration, each its own folder here, SDL file and REST module; each builds on those before it. */
const AREAS: readonly PreregArea[] = [configurationArea, loginArea, applicationsArea, documentsArea, bookingArea, syncArea];
const assembled = assembleAreas(AREAS, PREREG_INTERNAL);

/** Pre-registration: residents apply, upload their documents and book an appointment; centres sync their day from it. */
export const prereg = defineComponent({
  name: 'prereg',
  uses: ['keys', 'notify', 'otp', 'auth', 'masterdata', 'syncdata'],
  access: assembled.access,
  inputs: assembled.inputs,
  settings: preregSettings,
  async services(deps: PlatformDeps, settings) {
    const cipher = new PreregCipher(preregKeyStorage(deps.prisma), deps.services.keys, deps.clock);
    await cipher.start();
    const own = { preregCipher: cipher };
    Object.assign(deps.services, own);
    const services = assembled.services(deps, settings);
    await deps.services.preregConfiguration.start();
    return { ...own, ...services };
  },
  resolvers: (deps) => assembled.resolvers(deps, { DateTime: DateTimeScalar, Date: DateScalar, JSON: JsonScalar }),
});
