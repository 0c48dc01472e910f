import { access } from '../../lib/roles.js';

const { PUBLIC, ADMIN } = access;

/** The authentication manager's role rows: logins and token checks read the credentials themselves. */
export const authAccess = {
  'Mutation.loginWithPassword': PUBLIC,
  'Mutation.loginWithClientSecret': PUBLIC,
  'Mutation.invalidateToken': PUBLIC,
  'Mutation.refreshToken': PUBLIC,
  'Query.validateToken': PUBLIC,
  'Query.authRealms': ADMIN,
  'Mutation.sendOtp': PUBLIC,
  'Mutation.loginWithOtp': PUBLIC,
  // users and clients administration
  'Query.users': ADMIN,
  'Query.user': ADMIN,
  'Query.clients': ADMIN,
  'Mutation.createUser': ADMIN,
  'Mutation.updateUser': ADMIN,
  'Mutation.resetPassword': ADMIN,
  'Mutation.lockUser': ADMIN,
  'Mutation.unlockUser': ADMIN,
  'Mutation.createClient': ADMIN,
  'Mutation.updateClient': ADMIN,
  'Mutation.rotateClientSecret': ADMIN,
};
