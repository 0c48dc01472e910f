import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';
import { uinRules, vidRules } from '../../../lib/numbers.js';
import { vidsSchemas } from './inputs.js';
import { loadVidPolicy, VidPolicies } from './policy.js';
import { vidsResolvers } from './resolvers.js';
import { VidService } from './service.js';
import { VidStorage } from './storage.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** VIDs: generated under the VID policy, resolved to UINs, revoked, regenerated */
    vids: VidService;
  }
}

const { roles } = access;
/** Who acts on VIDs: a resident on its own (the service checks), the processor and the repository's operators on any. */
const MANAGERS = roles('RESIDENT', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR');
/** The services that act on any resident's VIDs. */
const SYSTEMS = roles('ID_REPOSITORY', 'REGISTRATION_PROCESSOR');

/**
 * VIDs (MOSIP's VID service). The roles follow MOSIP's callers: resident
 * services for residents (each on its own UIN and VIDs only), the registration
 * processor, ID authentication to resolve a VID (and mark it USED), and the
 * repository's own operators.
 */
export const vidsArea = defineArea({
  name: 'vids',
  access: {
    'Mutation.createVid': MANAGERS,
    'Mutation.updateVidStatus': roles('RESIDENT', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR', 'ID_AUTHENTICATION'),
    'Mutation.regenerateVid': MANAGERS,
    'Query.vidsByUin': MANAGERS,
    'Query.uinByVid': roles('ID_AUTHENTICATION', 'ID_REPOSITORY', 'REGISTRATION_PROCESSOR'),
    'Mutation.deactivateVids': SYSTEMS,
    'Mutation.reactivateVids': SYSTEMS,
    // the portal graph: status and times for admins, the number only for the repository's operators
    'Vid.__resolveReference': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
    'Vid.vid': roles('ID_REPOSITORY'),
    'Identity.vids': roles('GLOBAL_ADMIN', 'ID_REPOSITORY'),
  },
  schemas: vidsSchemas,
  codeFor: idrepoCodeFor,
  services: (deps, settings) => {
    const global = deps.globalConfiguration;
    // The policy: the operator's file (PLATFORM_VID_POLICY_FILE), else MOSIP's shipped one.
    const policies = settings.vidPolicyFile ? loadVidPolicy(settings.vidPolicyFile) : new VidPolicies();
    return {
      vids: new VidService(new VidStorage(deps.prisma), deps.clock, deps.services.idrepoCipher, deps.services.identities, policies, {
        vid: vidRules(global),
        uin: uinRules(global),
      }),
    };
  },
  resolvers: (deps) => vidsResolvers(deps),
});
