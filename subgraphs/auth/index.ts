import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { OtpLoginService } from './otp-login-service.js';
import { authResolvers } from './resolvers.js';
import { AuthService } from './service.js';
import { UsersService } from './users-service.js';

/** The authentication manager: logins (password, client, OTP), token validation and invalidation, users and clients. */
export const auth: Component = {
  name: 'auth',
  async build(deps: PlatformDeps) {
    const service = new AuthService(deps);
    await service.bootstrap();
    const otpLogin = new OtpLoginService(deps, service.throttle);
    const users = new UsersService(deps, service.secretKey);
    return buildComponentSchema('auth', authResolvers(service, otpLogin, users), deps.config.specOpenEndpoints);
  },
};
