import { PlatformError } from '../../lib/errors.js';

/** The authentication manager's codes (spec Document 1, "Authentication and OTP"). */
export const authErrors = {
  unknownRealm: (appId: string) => new PlatformError('KER-ATH-026', `Realm not found for the given appId: ${appId}`),
  missingUser: () => new PlatformError('KER-ATH-003', 'User detail does not exist: user id is empty or invalid'),
  invalidCredentials: () => new PlatformError('KER-ATH-023', 'Invalid Credentials'),
  throttled: () => new PlatformError('KER-ATH-023', 'Invalid Credentials: too many attempts, try again later'),
  clientUnauthorized: () => new PlatformError('500', '401 Unauthorized: client id and secret key combination is invalid'),
  clientThrottled: () => new PlatformError('500', '401 Unauthorized: too many attempts, try again later'),
};
