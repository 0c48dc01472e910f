import { z } from 'zod';
import { otp } from '../../subgraphs/otp/index.js';
import { otpInputs } from '../../subgraphs/otp/inputs.js';
import * as ops from '../../generated/graphql/otp.operations.js';
import type { HttpMethod, RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const { schemas } = otpInputs;
const route = routeFactory({ component: otp, internalErrorCode: 'KER-OTV-500', idPrefix: 'platform.otp.', pathPrefix: '/v1/otpmanager/otp' });

/** MOSIP serves validation as GET; POST with the same query parameters is accepted too. */
const validateRoute = (method: HttpMethod) =>
  route({
    method,
    path: '/validate',
    summary: 'Validate and consume an OTP (query parameters key and otp)',
    idSuffix: 'validateOTP',
    input: { from: 'query', schema: schemas.validateOtp },
    operation: ops.ValidateOtpDocument,
    response: z.object({ status: z.string(), message: z.string() }),
  });

export const otpRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/generate',
    summary: 'Generate an OTP for a key',
    idSuffix: 'generateOTP',
    input: { from: 'envelope', schema: schemas.generateOtp },
    operation: ops.GenerateOtpDocument,
    variables: (input) => ({ key: input.key }),
    // MOSIP answers a frozen key with the string "null" as the OTP.
    response: z.object({ otp: z.string(), status: z.string() }),
    result: (data) => ({ otp: data.generateOtp.otp ?? 'null', status: data.generateOtp.status }),
    // the generator is MOSIP's own service beside the validator, with its own code
    internalErrorCode: 'KER-OTG-500',
  }),
  validateRoute('get'),
  validateRoute('post'),
];
