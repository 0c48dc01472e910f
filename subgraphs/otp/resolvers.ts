import type { OtpService } from './service.js';

export function otpResolvers(service: OtpService) {
  return {
    Mutation: {
      generateOtp: (_: unknown, args: { key: string }) => service.generateForKey(args.key),
      validateOtp: (_: unknown, args: { key: string; otp: string }) => service.validateForKey(args.key, args.otp),
    },
  };
}
