import { z } from 'zod';
import * as ops from '../../generated/graphql/prereg.operations.js';
import { tokenCookie } from '../../lib/credentials.js';
import { loginSchemas } from '../../subgraphs/prereg/login/inputs.js';
import type { RestRoute } from '../route.js';
import { preregRoute } from './shared.js';

const message = z.object({ message: z.string(), status: z.string() });

/** Sign-in and the configuration the portal reads first (spec: /preregistration/v1/login/...). */
export const loginRoutes: RestRoute[] = [
  preregRoute({
    method: 'post',
    path: '/login/sendOtp',
    summary: 'Sends a login OTP to the e-mail address or mobile number given; the channel follows from it',
    idSuffix: 'login.sendotp',
    input: { from: 'envelope', schema: loginSchemas.sendPreRegistrationOtp },
    operation: ops.PreregSendOtpDocument,
    response: message,
  }),
  preregRoute({
    method: 'post',
    path: '/login/validateOtp',
    summary: "Exchanges the OTP for the applicant's token, set as the Authorization cookie",
    idSuffix: 'login.useridotp',
    input: { from: 'envelope', schema: loginSchemas.loginPreRegistration },
    operation: ops.PreregLoginDocument,
    response: message,
    result: ({ loginPreRegistration: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      return { message: login.message, status: login.status };
    },
  }),
  preregRoute({
    method: 'post',
    path: '/login/invalidateToken',
    summary: "Ends the caller's session (force logout)",
    idSuffix: 'login.invalidate',
    operation: ops.PreregLogoutDocument,
    response: message,
  }),
  preregRoute({
    method: 'get',
    path: '/login/config',
    summary: "Every key of pre-registration's configuration file with its value",
    idSuffix: 'login.config',
    operation: ops.PreregConfigurationDocument,
    response: z.record(z.string(), z.string()),
    result: ({ preRegistrationConfiguration }) => Object.fromEntries(preRegistrationConfiguration.map(({ key, value }) => [key, value])),
  }),
  preregRoute({
    method: 'get',
    path: '/login/refreshconfig',
    summary: 'Reads the configuration file again',
    idSuffix: 'login.refreshconfig',
    operation: ops.PreregRefreshConfigurationDocument,
    response: z.string(),
  }),
];
