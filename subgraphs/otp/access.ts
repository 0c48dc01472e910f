import { access, type Role } from '../../lib/roles.js';

/**
 * Callers of the OTP manager: the services that send OTPs (authentication,
 * pre-registration, registration processing). Self-registered users
 * (INDIVIDUAL, RESIDENT) do not reach it: their OTPs come from the login flows.
 */
const OTP_CALLERS: Role[] = ['GLOBAL_ADMIN', 'ID_AUTHENTICATION', 'PRE_REGISTRATION_ADMIN', 'REGISTRATION_PROCESSOR'];

export const otpAccess = {
  'Mutation.generateOtp': access.specOpen(...OTP_CALLERS),
  'Mutation.validateOtp': access.specOpen(...OTP_CALLERS),
};
