import type { PlatformDeps } from '../../lib/deps.js';
import { buildComponentSchema } from '../../lib/subgraph.js';
import type { Component } from '../component.js';
import { otpResolvers } from './resolvers.js';
import { OtpService } from './service.js';

export const otpServiceOf = (deps: PlatformDeps) => new OtpService(deps.prisma, deps.masterKey, deps.clock, deps.config.otp);

/** The OTP manager. */
export const otp: Component = {
  name: 'otp',
  async build(deps: PlatformDeps) {
    return buildComponentSchema('otp', otpResolvers(otpServiceOf(deps)), deps.config.specOpenEndpoints);
  },
};
