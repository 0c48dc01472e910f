import type { PlatformDeps } from '../../lib/deps.js';
import { defineComponent } from '../component.js';
import { otpAccess } from './access.js';
import { otpInputs } from './inputs.js';
import { otpResolvers } from './resolvers.js';
import { OtpService } from './service.js';
import { otpSettings } from './settings.js';
import { OtpStorage } from './storage.js';

declare module '../../lib/deps.js' {
  interface PlatformServices {
    /** one-time passwords, for the API (scoped to the caller) and for the login flows */
    otp: OtpService;
  }
}

/** The OTP manager. */
export const otp = defineComponent({
  name: 'otp',
  access: otpAccess,
  inputs: otpInputs,
  settings: otpSettings,
  services: (deps: PlatformDeps, settings) => ({ otp: new OtpService(new OtpStorage(deps.prisma), deps.masterKey, deps.clock, settings) }),
  resolvers: (deps) => otpResolvers(deps.services.otp, deps.config.specOpenEndpoints),
});
