import { access, type Role } from '../../lib/roles.js';

const { roles, specOpen } = access;
/**
 * Services that reach the crypto manager; which application's keys each may
 * use is the key policy's business (cryptoRoles), checked in the service.
 */
const CRYPTO_USERS: Role[] = [
  'GLOBAL_ADMIN',
  'KEY_MAKER',
  'REGISTRATION_PROCESSOR',
  'ID_AUTHENTICATION',
  'ID_REPOSITORY',
  'RESIDENT',
  'PRE_REGISTRATION_ADMIN',
  'PARTNER_ADMIN',
  'PARTNERMANAGER',
  'REGISTRATION_ADMIN',
  'REGISTRATION_SUPERVISOR',
  'REGISTRATION_OFFICER',
];
/** Everyone who may read public certificates: the crypto users, registration staff and partners. */
const KEY_READERS: Role[] = [...CRYPTO_USERS, 'PARTNER', 'MISP', 'INDIVIDUAL'];
const REGISTRATION_STAFF: Role[] = ['GLOBAL_ADMIN', 'REGISTRATION_ADMIN', 'REGISTRATION_SUPERVISOR', 'REGISTRATION_OFFICER'];

/** MOSIP's keymanager roles. */
export const keysAccess = {
  'Query.certificate': roles(...KEY_READERS),
  'Query.syncPublicKey': roles(...KEY_READERS),
  'Mutation.generateMasterKey': roles('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.generateCsr': specOpen('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.uploadCertificate': specOpen('GLOBAL_ADMIN', 'KEY_MAKER'),
  // The key store's admins only: partners' certificates change through partner management's upload, with its scope (partner-access.ts).
  'Mutation.uploadOtherDomainCertificate': specOpen('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Mutation.encrypt': roles(...CRYPTO_USERS),
  'Mutation.decrypt': roles(...CRYPTO_USERS),
  'Mutation.sign': roles(
    'GLOBAL_ADMIN',
    'KEY_MAKER',
    'REGISTRATION_PROCESSOR',
    'ID_AUTHENTICATION',
    'ID_REPOSITORY',
    'PRE_REGISTRATION_ADMIN',
    'PARTNER_ADMIN',
    'REGISTRATION_ADMIN',
  ),
  'Mutation.validateSignature': roles(...KEY_READERS),
  'Mutation.uploadMachinePublicKey': roles(...REGISTRATION_STAFF),
  'Mutation.verifyMachinePublicKey': roles(...REGISTRATION_STAFF),
  'Query.keys': roles('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Query.key': roles('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Query.machineKeys': roles(...REGISTRATION_STAFF),
  'Key.__resolveReference': roles('GLOBAL_ADMIN', 'KEY_MAKER'),
  'Certificate.__resolveReference': roles(...KEY_READERS),
  'MachineKey.__resolveReference': roles(...REGISTRATION_STAFF),
  // a partner's certificate, to whom partner management lets reach the partner (partner-access.ts), on every path
  'Partner.__resolveReference': roles('GLOBAL_ADMIN', 'PARTNER_ADMIN', 'PARTNERMANAGER', 'PARTNER'),
};
