import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';
import { uinRules, vidRules } from '../../../lib/numbers.js';
import { ResidentDirectory } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** residents by UIN or VID, for OTP login (the authentication manager's `useridtype` UIN) */
    residents: ResidentDirectory;
  }
}

/** Residents as the authentication manager finds them: a service only (no field of the graph, no table of its own). */
export const residentsArea = defineArea({
  name: 'residents',
  access: {},
  schemas: {},
  codeFor: idrepoCodeFor,
  services: (deps) => {
    const global = deps.globalConfiguration;
    const { idrepoCipher, identities, vids } = deps.services;
    const residents = new ResidentDirectory(idrepoCipher, identities, vids, { uin: uinRules(global), vid: vidRules(global) });
    // Auth's OTP login names residents by UIN or VID: the ID repository's answer, plugged into auth.
    deps.services.residentsPort.plug(residents);
    return { residents };
  },
  resolvers: () => ({}),
});
