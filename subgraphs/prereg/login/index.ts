import { access } from '../../../lib/roles.js';
import { defineArea } from '../area.js';
import { loginCodeFor, loginSchemas } from './inputs.js';
import { PreregLoginService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** applicants' OTP login (auth's, in the pre-registration realm) */
    preregLogin: PreregLoginService;
  }
}

type Parsed<F extends keyof typeof loginSchemas> = ReturnType<(typeof loginSchemas)[F]['parse']>;

/** The applicant's sign-in: anyone may ask for an OTP; the token that comes of it is an INDIVIDUAL's. */
export const loginArea = defineArea({
  name: 'login',
  access: {
    'Mutation.sendPreRegistrationOtp': access.PUBLIC,
    'Mutation.loginPreRegistration': access.PUBLIC,
    'Mutation.logoutPreRegistration': access.AUTHENTICATED,
  },
  schemas: loginSchemas,
  codeFor: loginCodeFor,
  services: (deps) => ({ preregLogin: new PreregLoginService(deps.services.otpLogin, deps.services.auth) }),
  resolvers: (deps) => {
    const login = deps.services.preregLogin;
    return {
      Mutation: {
        sendPreRegistrationOtp: (_, args, context) => login.sendOtp((args as Parsed<'sendPreRegistrationOtp'>).userId, context.clientAddress),
        loginPreRegistration: (_, args, context) => {
          const { userId, otp } = args as Parsed<'loginPreRegistration'>;
          return login.login(userId, otp, context.clientAddress);
        },
        logoutPreRegistration: (_, __, context) => login.logout(context.credentials),
      },
    };
  },
});
