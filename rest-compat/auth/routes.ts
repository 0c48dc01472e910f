import { z } from 'zod';
import { identifier } from '../../lib/input.js';
import { authInputs, sendOtpFields, templateVariableName, templateVariableValue } from '../../subgraphs/auth/inputs.js';
import { refreshCookie, refreshTokenOf, tokenCookie } from '../../lib/credentials.js';
import * as ops from '../../generated/graphql/auth.operations.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute } from '../route.js';

const { schemas, codeFor } = authInputs;
const codesOf = (rootField: string) => (field: string, missing: boolean) => codeFor(field, missing, rootField);
const text = identifier();

/** MOSIP's password login may name a client too: accepted, not used. */
const passwordLogin = schemas.loginWithPassword.extend({ clientId: text.optional(), clientSecret: text.optional() });

const identity = z.object({
  userId: z.string(),
  mobile: z.string().nullable(),
  mail: z.string().nullable(),
  langCode: z.string().nullable(),
  userPassword: z.string().nullable(),
  name: z.string().nullable(),
  role: z.string(),
  token: z.string(),
  rid: z.string().nullable(),
});

/** Token checks read the cookie; anything malformed about the call itself is an authentication failure. */
const tokenCodeFor = () => 'KER-ATH-401';

/** REST's template variables are a map; GraphQL's a list of name and value. */
const sendOtp = z.object({ ...sendOtpFields, templateVariables: z.record(templateVariableName, templateVariableValue).optional() });

/** MOSIP's wire name is userId; the spec's userid is accepted too. */
const otpLogin = z.preprocess(
  (value) => (value && typeof value === 'object' && !('userId' in value) && 'userid' in value ? { ...value, userId: value.userid } : value),
  schemas.loginWithOtp,
);

export const authRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authenticate/sendotp',
    summary: "Send a login OTP to the user's e-mail or phone",
    id: 'platform.authentication.sendotp',
    versionKey: 'ver',
    input: { from: 'envelope', schema: sendOtp },
    operation: operation(ops.SendOtpDocument),
    variables: ({ templateVariables, ...input }) => ({
      ...input,
      templateVariables: Object.entries(templateVariables ?? {}).map(([name, value]) => ({ name, value })),
    }),
    response: z.object({ status: z.string(), message: z.string() }),
    result: (data) => data.sendOtp,
    codeFor: codesOf('sendOtp'),
    internalErrorCode: 'KER-ATH-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authenticate/useridOTP',
    summary: 'Log in with user id and OTP; the token is set as the Authorization cookie',
    id: 'platform.authentication.useridOTP',
    versionKey: 'ver',
    input: { from: 'envelope', schema: otpLogin },
    operation: operation(ops.LoginWithOtpDocument),
    variables: (input) => input,
    response: z.object({ status: z.string(), message: z.string() }),
    result: ({ loginWithOtp: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      return { status: login.status, message: login.message };
    },
    codeFor: codesOf('loginWithOtp'),
    internalErrorCode: 'KER-ATH-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authenticate/internal/useridPwd',
    summary: 'Log in with user name and password; the token is returned in the body and as the Authorization cookie',
    id: 'platform.authentication.useridPwd',
    input: { from: 'envelope', schema: passwordLogin },
    operation: operation(ops.LoginWithPasswordDocument),
    variables: ({ userName, password, appId }) => ({ userName, password, appId }),
    response: z.object({
      token: z.string(),
      refreshToken: z.string(),
      expiryTime: z.number().int(),
      refreshExpiryTime: z.number().int(),
      userId: z.string().nullable(),
      status: z.string(),
      message: z.string(),
    }),
    result: ({ loginWithPassword: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      res.append('Set-Cookie', refreshCookie(login.refreshToken, login.refreshExpiryTime));
      return login;
    },
    codeFor: codesOf('loginWithPassword'),
    internalErrorCode: 'KER-ATH-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authenticate/clientidsecretkey',
    summary: 'Log an application in with client id and secret key; the token is set as the Authorization cookie',
    id: 'platform.authentication.clientidsecretkey',
    input: { from: 'envelope', schema: schemas.loginWithClientSecret },
    operation: operation(ops.LoginWithClientSecretDocument),
    variables: (input) => input,
    response: z.object({ status: z.string(), message: z.string() }),
    result: ({ loginWithClientSecret: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      return { status: login.status, message: login.message };
    },
    codeFor: codesOf('loginWithClientSecret'),
    internalErrorCode: '500',
  }),
  defineRoute({
    method: 'get',
    path: '/v1/authmanager/authorize/admin/validateToken',
    summary: "Validate the caller's token (Authorization cookie) and return its identity record",
    id: 'platform.authentication.validateToken',
    input: { from: 'none' },
    operation: operation(ops.ValidateTokenDocument),
    variables: () => ({}),
    response: identity,
    result: (data, { res }) => {
      // MOSIP sends the result in a response header too.
      res.setHeader('X-Validated-User', data.validateToken.userId);
      return data.validateToken;
    },
    codeFor: tokenCodeFor,
    internalErrorCode: 'KER-ATH-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authorize/invalidateToken',
    summary: "Invalidate the caller's token (Authorization cookie) everywhere at once",
    id: 'platform.authorize.invalidatetoken',
    versionKey: 'ver',
    input: { from: 'none' },
    operation: operation(ops.InvalidateTokenDocument),
    variables: () => ({}),
    response: z.object({ message: z.string() }),
    result: (data) => data.invalidateToken,
    codeFor: tokenCodeFor,
    internalErrorCode: 'KER-ATH-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/authmanager/authorize/refreshToken/{appId}',
    summary:
      'Exchange a refresh token (cookie refresh_token, or request.refreshToken) for new tokens; the refresh token is rotated, and one presented twice revokes its session',
    id: 'platform.authorize.refreshToken',
    input: { from: 'envelope', schema: schemas.refreshToken.omit({ appId: true }), requestTime: 'optional', bodyOptional: true },
    operation: operation(ops.RefreshTokenDocument),
    variables: (input, req) => ({ appId: pathParam(req, 'appId'), refreshToken: input.refreshToken ?? refreshTokenOf(req.headers.cookie) }),
    response: z.object({
      token: z.string(),
      refreshToken: z.string(),
      expiryTime: z.number().int(),
      refreshExpiryTime: z.number().int(),
      status: z.string(),
      message: z.string(),
    }),
    result: ({ refreshToken: refreshed }, { res }) => {
      res.append('Set-Cookie', tokenCookie(refreshed.token, refreshed.expiryTime));
      res.append('Set-Cookie', refreshCookie(refreshed.refreshToken, refreshed.refreshExpiryTime));
      return refreshed;
    },
    codeFor: codesOf('refreshToken'),
    internalErrorCode: 'KER-ATH-500',
  }),
];
