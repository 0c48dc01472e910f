import { access } from '../../lib/roles.js';

/** MISP admins: the platform's admins and partner admins. */
export const MISP_ADMINS = access.roles('GLOBAL_ADMIN', 'PARTNER_ADMIN');
/** Policy managers act inside their policy groups. */
export const POLICY_MANAGERS = access.roles('POLICYMANAGER');
/** Partner managers act inside their policy groups. */
export const PARTNER_MANAGERS = access.roles('PARTNERMANAGER');
