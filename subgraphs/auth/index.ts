import type { PlatformDeps } from '../../lib/deps.js';
import { Port } from '../../lib/port.js';
import { defineComponent } from '../component.js';
import { authAccess } from './access.js';
import { authInputs } from './inputs.js';
import { ClientDirectory } from './client-directory.js';
import { OtpLoginService, type ResidentDirectory } from './otp-login-service.js';
import { authResolvers } from './resolvers.js';
import { AuthService } from './service.js';
import { SessionsService } from './sessions-service.js';
import { authSettings } from './settings.js';
import { authStorage } from './storage/index.js';
import { UserScopes, type UserPlacement } from './user-scope.js';
import { UsersService } from './users-service.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** logins, token validation and invalidation, bootstrap accounts */
    auth: AuthService;
    /** login by OTP (sendotp, useridOTP) */
    otpLogin: OtpLoginService;
    /** users and clients administration */
    users: UsersService;
    /** logins as sessions: listed and revoked */
    sessions: SessionsService;
    /** where master data plugs in where users are placed (their zones, their centre) */
    userPlacesPort: Port<UserPlacement>;
    /** where the ID repository plugs in the residents a UIN or VID names */
    residentsPort: Port<ResidentDirectory>;
  }
}

/** The authentication manager: logins (password, client, OTP), token validation and invalidation, users and clients. */
export const auth = defineComponent({
  name: 'auth',
  uses: ['notify', 'otp'],
  access: authAccess,
  inputs: authInputs,
  settings: authSettings,
  async services(deps: PlatformDeps, settings) {
    const storage = authStorage(deps.database);
    const clients = new ClientDirectory(storage.clients, deps.logger.child({ component: 'clients' }));
    await clients.start();
    deps.onClose(() => clients.stop());
    const auth = new AuthService(deps, settings, clients, storage);
    const userPlacesPort = new Port<UserPlacement>("master data's user places");
    const residentsPort = new Port<ResidentDirectory>("the ID repository's residents");
    return {
      auth,
      userPlacesPort,
      residentsPort,
      otpLogin: new OtpLoginService(deps, auth.throttle, storage.users, residentsPort),
      users: new UsersService(
        { users: storage.users, clients: storage.clients, tokens: deps.tokens, clock: deps.clock },
        auth.secretKey,
        { throttle: auth.throttle, maxAgeDays: settings.passwordMaxAgeDays },
        new UserScopes(userPlacesPort),
      ),
      sessions: new SessionsService(storage.sessions, deps.tokens, deps.clock),
    };
  },
  start: (deps) => deps.services.auth.bootstrap(),
  resolvers: (deps) => authResolvers(deps.services.auth, deps.services.otpLogin, deps.services.users, deps.services.sessions, deps.accessTable),
});
