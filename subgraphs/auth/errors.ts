import { PlatformError } from '../../lib/errors.js';

/** The authentication manager's codes (spec Document 1, "Authentication and OTP"). */
export const authErrors = {
  unknownRealm: (appId: string) => new PlatformError('KER-ATH-026', `Realm not found for the given appId: ${appId}`),
  missingUser: () => new PlatformError('KER-ATH-003', 'User detail does not exist: user id is empty or invalid'),
  invalidCredentials: () => new PlatformError('KER-ATH-023', 'Invalid Credentials'),
  throttled: () => new PlatformError('KER-ATH-023', 'Invalid Credentials: too many attempts, try again later'),
  clientUnauthorized: () => new PlatformError('500', '401 Unauthorized: client id and secret key combination is invalid'),
  clientThrottled: () => new PlatformError('500', '401 Unauthorized: too many attempts, try again later'),
  // OTP login (sendotp, useridOTP)
  channelInvalid: (channel: string) => new PlatformError('KER-AUTH-CHANNEL_INVALID', `Channel ${channel} is not supported: use email or phone`),
  multipleChannels: () => new PlatformError('AUTH_ERR_MULTIPLE_CHANNELS', 'This application supports a single channel'),
  userNotFound: () => new PlatformError('AUTH_ERR_USER_NOT_FOUND', 'User not found'),
  channelPathNotFound: (channel: string) =>
    new PlatformError(
      'AUTH_ERR_CHANNELPATH_NOT_FOUND',
      `No ${channel === 'phone' ? 'mobile number' : 'e-mail address'} is registered for the channel ${channel}`,
    ),
  invalidOtp: () => new PlatformError('AUTH_ERR_INVALIDOTP', 'OTP is invalid'),
  /** no OTP was sent to this user, or it was used: still AUTH_ERR_INVALIDOTP for auth's callers; pre-registration tells it apart (KER-OTV-005) */
  otpNotGenerated: () => new OtpNotGeneratedError(),
  expiredOtp: () => new PlatformError('AUTH_ERR_EXPIREDOTP', 'OTP has expired'),
  otpThrottled: () => new PlatformError('AUTH_ERR_INVALIDOTP', 'OTP is invalid: too many attempts, try again later'),
  otpFrozen: () => new PlatformError('AUTH_ERR_OTP_BLOCKED', 'Too many wrong OTP entries: OTP login is frozen for this user, try again later'),
  sendThrottled: () => new PlatformError('AUTH_ERR_OTP_BLOCKED', 'Too many OTP requests: try again later'),
  // users and clients administration (GraphQL)
  noSuchUser: (userId: string) => new PlatformError('KER-ATH-003', `User detail does not exist: ${userId}`),
  noSuchSession: (id: string) => new PlatformError('KER-ATH-003', `Session does not exist: ${id}`),
  noSuchClient: (clientId: string) => new PlatformError('KER-ATH-003', `Client does not exist: ${clientId}`),
  alreadyExists: (what: string) => new PlatformError('KER-ATH-409', `${what} already exists`),
  invalidInput: (reason: string) => new PlatformError('KER-ATH-400', `Invalid input: ${reason}`),
  notYourUser: (userId: string) => new PlatformError('KER-ATH-403', `Forbidden: user ${userId} is not one of the caller's zones`),
};

/** An OTP login for which no OTP is waiting (none sent, or already used). */
export class OtpNotGeneratedError extends PlatformError {
  constructor() {
    super('AUTH_ERR_INVALIDOTP', 'OTP is invalid');
  }
}
