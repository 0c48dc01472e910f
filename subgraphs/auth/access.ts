import { access } from '../../lib/roles.js';

const { PUBLIC, ADMIN, AUTHENTICATED } = access;
/** The global admin, and zonal admins within their zones (the users service scopes them). */
const ZONE_ADMINS = access.roles('GLOBAL_ADMIN', 'ZONAL_ADMIN');

/** The authentication manager's role rows: logins and token checks read the credentials themselves. */
export const authAccess = {
  'Mutation.loginWithPassword': PUBLIC,
  'Mutation.loginWithClientSecret': PUBLIC,
  'Mutation.invalidateToken': PUBLIC,
  'Mutation.refreshToken': PUBLIC,
  'Query.validateToken': PUBLIC,
  'Query.authRealms': ADMIN,
  // the caller itself: any valid token sees its own id, type, name, roles and application id, never another's
  'Query.viewer': AUTHENTICATED,
  'Viewer.__resolveReference': AUTHENTICATED,
  'Viewer.type': AUTHENTICATED,
  'Viewer.name': AUTHENTICATED,
  'Viewer.roles': AUTHENTICATED,
  'Viewer.appId': AUTHENTICATED,
  'Mutation.sendOtp': PUBLIC,
  'Mutation.loginWithOtp': PUBLIC,
  // users and clients administration
  // MOSIP's zonal admins manage the users of their zones (the admin portal's user zone and user centre
  // mappings): they list them, with their roles; the service keeps them to their zones' users.
  'Query.users': ZONE_ADMINS,
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
  // entities: any caller with a token may see who a user or client is (its id and a name on a
  // record); everything else — contact details, national ids, roles, application ids, lock state,
  // logins — is for the admins who manage users (as Query.users), whichever path reaches them: the
  // roles for zonal admins too, of their zones' users only; the rest for the global admin.
  // Those fields are nullable: a refusal nulls the field, not the record that names the user.
  'User.__resolveReference': AUTHENTICATED,
  'User.mail': ADMIN,
  'User.mobile': ADMIN,
  'User.langCode': ADMIN,
  'User.roles': ZONE_ADMINS,
  'User.appIds': ADMIN,
  'User.rid': ADMIN,
  'User.isLocked': ADMIN,
  'User.hasPassword': ADMIN,
  'User.createdAt': ADMIN,
  'User.updatedAt': ADMIN,
  'User.sessions': ADMIN,
  'User.passwordChangedAt': ADMIN,
  'User.passwordExpiresAt': ADMIN,
  'Client.__resolveReference': AUTHENTICATED,
  'Client.roles': ADMIN,
  'Client.appIds': ADMIN,
  'Client.isActive': ADMIN,
  'Client.createdAt': ADMIN,
  'Client.updatedAt': ADMIN,
  'Client.sessions': ADMIN,
  'Session.__resolveReference': ADMIN,
};
