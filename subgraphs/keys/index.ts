import type { PlatformDeps } from '../../lib/deps.js';
import { Port } from '../../lib/port.js';
import { defineComponent } from '../component.js';
import { keysAccess } from './access.js';
import { keysInputs } from './inputs.js';
import { KeyInventory, type MachineReach } from './inventory.js';
import { KeyStore } from './key-store.js';
import { PartnerCertificateAccess, type PartnerReach } from './partner-access.js';
import { PartnerCertificates } from './partner-certificates.js';
import { keysResolvers } from './resolvers.js';
import { KeysService } from './service.js';
import { keysSettings } from './settings.js';
import { KeysStorage } from './storage.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** key manager, crypto manager, signatures; the platform's own keys (seal, open, response signatures) */
    keys: KeysService;
    /** the key store as the portal reads it */
    keyInventory: KeyInventory;
    /** partners' certificates: checked, kept, certified by partner management's key */
    partnerCertificates: PartnerCertificates;
    /** who reads and replaces partners' certificates, by any door */
    partnerCertificateAccess: PartnerCertificateAccess;
    /** where partner management plugs in which partners a caller reaches */
    partnerReachPort: Port<PartnerReach>;
    /** where master data plugs in which machines a caller may map and list keys of */
    machineReachPort: Port<MachineReach>;
  }
}

/** Key manager, crypto manager, signature service and the sync data key endpoints. */
export const keys = defineComponent({
  name: 'keys',
  access: keysAccess,
  inputs: keysInputs,
  settings: keysSettings,
  async services(deps: PlatformDeps, settings) {
    const storage = new KeysStorage(deps.prisma);
    const store = new KeyStore(storage, deps.masterKey, deps.clock, settings.policy);
    const partnerCertificates = new PartnerCertificates(storage, store, deps.clock);
    // Partner management and master data use the key store: they plug in who reaches which partners and machines.
    const partnerReachPort = new Port<PartnerReach>("partner management's reach");
    const machineReachPort = new Port<MachineReach>("master data's machine reach");
    const partnerAccess = new PartnerCertificateAccess(() => partnerReachPort.current);
    const keys = new KeysService(storage, store, deps.clock, partnerCertificates, partnerAccess, (caller, name) =>
      machineReachPort.get().requireMappable(caller, name),
    );
    // The platform's own keys exist before the first request that needs them.
    await keys.ensurePlatformKeys();
    // Master data says which machines' keys a caller may list (one reach for writing and reading them).
    const keyInventory = new KeyInventory(storage, deps.clock, (caller) => machineReachPort.get().namesInReach(caller));
    return { keys, keyInventory, partnerCertificates, partnerCertificateAccess: partnerAccess, partnerReachPort, machineReachPort };
  },
  resolvers: (deps) =>
    keysResolvers(
      deps.services.keys,
      deps.services.keyInventory,
      deps.services.partnerCertificates,
      deps.services.partnerCertificateAccess,
      deps.config.specOpenEndpoints,
    ),
});
