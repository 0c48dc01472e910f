import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { abisCodeFor } from '../errors.js';
import type { AbisSettings } from '../settings.js';
import { dataShareSchemas } from './inputs.js';
import { dataShareResolvers } from './resolvers.js';
import { DataShareService } from './service.js';
import { DataShareStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the ABIS's data shares of registrations' biometrics */
    dataShares: DataShareService;
  }
}

/** Data shares: a registration's biometrics for an ABIS, encrypted for its partner certificate. */
export const dataShareArea = defineArea({
  name: 'datashare',
  access: {
    // ABIS.md: the ABIS's client (role ABIS) fetches shares, and nobody else.
    'Query.dataShare': access.roles('ABIS'),
  },
  schemas: dataShareSchemas,
  codeFor: abisCodeFor,
  services: (deps, settings) => {
    const { registrationRequests, keys } = deps.services;
    const base = (deps.config.publicUrl ?? `http://127.0.0.1:${deps.config.port}`).replace(/\/$/, '');
    const dataShares = new DataShareService(
      new DataShareStorage(deps.prisma),
      {
        cbeffOf: (rid) => registrationRequests.cbeffOfRegistration(rid),
        certificateOf: async (subscriberId) => (await keys.partnerCertificate(subscriberId)).certificate,
      },
      deps.clock,
      settings as AbisSettings,
      base,
    );
    // The registration processor's biometric file is served by the shares' rules, through these shares alone.
    registrationRequests.useBiometricShares(dataShares);
    return { dataShares };
  },
  resolvers: (deps) => dataShareResolvers(deps),
});
