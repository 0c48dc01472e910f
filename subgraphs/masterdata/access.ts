import { access } from '../../lib/roles.js';

/** Who maintains master data (MOSIP's admin roles). */
export const MASTERDATA_WRITERS = access.roles('GLOBAL_ADMIN', 'ZONAL_ADMIN', 'MASTERDATA_ADMIN');

/** Who reads it: the admins, and the services and clients that validate against it. */
export const MASTERDATA_READERS = access.roles(
  'GLOBAL_ADMIN',
  'ZONAL_ADMIN',
  'MASTERDATA_ADMIN',
  'REGISTRATION_ADMIN',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_OFFICER',
  'REGISTRATION_PROCESSOR',
  'PRE_REGISTRATION_ADMIN',
  'INDIVIDUAL',
  'RESIDENT',
  'ID_AUTHENTICATION',
  'ID_REPOSITORY',
  'PARTNER_ADMIN',
);

/** Who sees the registration network's internals (machines, their addresses, the staff of a centre): admins and registration staff, not residents. */
export const REGISTRATION_STAFF = access.roles(
  'GLOBAL_ADMIN',
  'ZONAL_ADMIN',
  'MASTERDATA_ADMIN',
  'REGISTRATION_ADMIN',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_OFFICER',
  'REGISTRATION_PROCESSOR',
);

/** Who sees devices and zones: the admins, each limited to their own zones by the services. */
export const DEVICE_READERS = access.roles('GLOBAL_ADMIN', 'ZONAL_ADMIN', 'MASTERDATA_ADMIN', 'REGISTRATION_ADMIN');
