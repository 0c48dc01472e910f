import { access } from '../../lib/roles.js';

const { PUBLIC, ADMIN, AUTHENTICATED } = access;

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
  'Mutation.changePassword': AUTHENTICATED,
  'Mutation.lockUser': ADMIN,
  'Mutation.unlockUser': ADMIN,
  'Mutation.createClient': ADMIN,
  'Mutation.updateClient': ADMIN,
  'Mutation.rotateClientSecret': ADMIN,
  'Query.client': ADMIN,
  'Query.sessions': ADMIN,
  'Mutation.revokeSession': ADMIN,
  // entities: any caller with a token may see who a user or client is (a name on a record);
  // contact details, national ids and logins are for admins, whichever path reaches them
  'User.__resolveReference': AUTHENTICATED,
  'User.mail': ADMIN,
  'User.mobile': ADMIN,
  'User.rid': ADMIN,
  'User.sessions': ADMIN,
  'User.passwordChangedAt': ADMIN,
  'User.passwordExpiresAt': ADMIN,
  'Client.__resolveReference': AUTHENTICATED,
  'Client.sessions': ADMIN,
  'Session.__resolveReference': ADMIN,
};
