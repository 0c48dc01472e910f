import { z } from 'zod';
import { otpInputs } from '../../subgraphs/otp/inputs.js';
import * as ops from '../../generated/graphql/otp.operations.js';
import { operation } from '../operations.js';
import { defineRoute, type HttpMethod, type RestRoute } from '../route.js';

const { schemas, codeFor } = otpInputs;
const validateCodes = (field: string, missing: boolean) => codeFor(field, missing, 'validateOtp');

/** MOSIP serves validation as GET; POST with the same query parameters is accepted too. */
const validateRoute = (method: HttpMethod) =>
  defineRoute({
    method,
    path: '/v1/otpmanager/otp/validate',
    summary: 'Validate and consume an OTP (query parameters key and otp)',
    id: 'platform.otp.validateOTP',
    input: { from: 'query', schema: schemas.validateOtp },
    operation: operation(ops.ValidateOtpDocument),
    variables: (input) => input,
    response: z.object({ status: z.string(), message: z.string() }),
    result: (data) => data.validateOtp,
    codeFor: validateCodes,
    internalErrorCode: 'KER-OTV-500',
  });

export const otpRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: '/v1/otpmanager/otp/generate',
    summary: 'Generate an OTP for a key',
    id: 'platform.otp.generateOTP',
    input: { from: 'envelope', schema: schemas.generateOtp },
    operation: operation(ops.GenerateOtpDocument),
    variables: (input) => ({ key: input.key }),
    // MOSIP answers a frozen key with the string "null" as the OTP.
    response: z.object({ otp: z.string(), status: z.string() }),
    result: (data) => ({ otp: data.generateOtp.otp ?? 'null', status: data.generateOtp.status }),
    codeFor: () => 'KER-OTG-001',
    internalErrorCode: 'KER-OTG-500',
  }),
  validateRoute('get'),
  validateRoute('post'),
];
