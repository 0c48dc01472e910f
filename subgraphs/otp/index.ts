import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { otpResolvers } from './resolvers.js';
import { OtpService } from './service.js';

/** The OTP manager. */
export const otp: Component = {
  name: 'otp',
  services: (deps: PlatformDeps) => ({ otp: new OtpService(deps.prisma, deps.masterKey, deps.clock, deps.config.otp) }),
  async build(deps: PlatformDeps) {
    return buildComponentSchema('otp', otpResolvers(deps.services.otp, deps.config.specOpenEndpoints), deps.config.specOpenEndpoints);
  },
};
