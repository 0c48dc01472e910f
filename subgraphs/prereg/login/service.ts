import type { Credentials } from '../../../lib/credentials.js';
import { PlatformError } from '../../../lib/errors.js';
import { OtpNotGeneratedError } from '../../auth/errors.js';
import type { AuthService } from '../../auth/service.js';
import type { OtpLoginService } from '../../auth/otp-login-service.js';
import { loginErrors } from '../errors.js';

const APP_ID = 'preregistration';
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@.]{2,}$/;
const PHONE = /^\+?\d{6,15}$/;

/** The channel an applicant's user id names: an e-mail address or a mobile number. */
export function channelOf(userId: string): 'email' | 'phone' {
  if (EMAIL.test(userId)) return 'email';
  if (PHONE.test(userId)) return 'phone';
  throw loginErrors.invalidUserId();
}

/** The failures of auth's OTP login as pre-registration answers them (spec: sendOtp and validateOtp codes). */
function translated(error: unknown, step: 'send' | 'validate'): unknown {
  if (!(error instanceof PlatformError)) return error;
  if (step === 'send')
    return ['AUTH_ERR_CHANNELPATH_NOT_FOUND', 'AUTH_ERR_USER_NOT_FOUND'].includes(error.code)
      ? loginErrors.invalidUserId()
      : loginErrors.otpNotSent(error.message);
  if (error instanceof OtpNotGeneratedError) return new PlatformError('KER-OTV-005', "Validation can't be performed against this key. Generate OTP first.");
  if (error.code.startsWith('AUTH_ERR_')) return loginErrors.wrongOtp(error.message);
  return error;
}

/**
 * The applicant's login: an OTP to the e-mail address or mobile number they
 * give, exchanged for a token of role INDIVIDUAL in the pre-registration realm
 * (auth's OTP login: applicants are users created on their first login,
 * named by an HMAC of their address).
 */
export class PreregLoginService {
  constructor(
    private readonly otpLogin: Pick<OtpLoginService, 'sendOtp' | 'loginWithOtp'>,
    private readonly auth: Pick<AuthService, 'invalidateToken'>,
  ) {}

  async sendOtp(userId: string, clientAddress: string): Promise<{ message: string; status: string }> {
    const channel = channelOf(userId);
    try {
      await this.otpLogin.sendOtp({ userId, otpChannel: [channel], useridtype: 'USERID', appId: APP_ID, context: 'auth-otp' }, clientAddress);
    } catch (error) {
      throw translated(error, 'send');
    }
    return { message: 'Email Request submitted', status: 'success' };
  }

  async login(userId: string, otp: string, clientAddress: string) {
    if (!userId) throw new PlatformError('KER-ATH-003', 'User detail does not exist: user id is empty or invalid');
    if (!otp) throw new PlatformError('KER-OTV-003', "OTP can't be empty or null");
    if (!/^\d+$/.test(otp)) throw new PlatformError('KER-OTV-004', 'OTP must be numeric only');
    channelOf(userId);
    let login: Awaited<ReturnType<OtpLoginService['loginWithOtp']>>;
    try {
      login = await this.otpLogin.loginWithOtp({ userId, otp, appId: APP_ID }, clientAddress);
    } catch (error) {
      throw translated(error, 'validate');
    }
    // The cookie is the token: a login that gave none has nothing to set (MOSIP: no Authorization header in the answer).
    if (!login.token) throw loginErrors.noToken();
    return { token: login.token, expiryTime: login.expiryTime, message: 'VALIDATION_SUCCESSFUL', status: 'success' };
  }

  /** Force logout: the session of the token ends (KER-ATH-* from the token check). */
  async logout(credentials: Credentials): Promise<{ message: string; status: string }> {
    const { message } = await this.auth.invalidateToken(credentials);
    return { message, status: 'success' };
  }
}
