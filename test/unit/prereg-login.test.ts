// The applicant's validateOtp when auth's login gives no token: nothing to set as the cookie, so
// pre-registration answers the spec's PRG_PAM_LGN_014 rather than a success without a token.
import { describe, expect, it } from 'vitest';
import type { AuthService } from '../../subgraphs/auth/service.js';
import type { OtpLoginService } from '../../subgraphs/auth/otp-login-service.js';
import { PreregLoginService } from '../../subgraphs/prereg/login/service.js';

type OtpLogin = Pick<OtpLoginService, 'sendOtp' | 'loginWithOtp'>;

const loginGiving = (token: string | undefined) =>
  new PreregLoginService(
    {
      sendOtp: () => Promise.reject(new Error('not called')),
      loginWithOtp: () => Promise.resolve({ token, expiryTime: 0 }),
    } as unknown as OtpLogin,
    {} as Pick<AuthService, 'invalidateToken'>,
  );

describe('validateOtp', () => {
  it('answers PRG_PAM_LGN_014 when the login gives no token', async () => {
    await expect(loginGiving(undefined).login('amina@example.org', '123456', '127.0.0.1')).rejects.toMatchObject({ code: 'PRG_PAM_LGN_014' });
  });

  it('hands the token on when there is one', async () => {
    await expect(loginGiving('a-token').login('amina@example.org', '123456', '127.0.0.1')).resolves.toMatchObject({
      token: 'a-token',
      message: 'VALIDATION_SUCCESSFUL',
    });
  });
});
