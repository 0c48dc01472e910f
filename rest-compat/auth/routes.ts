import { z } from 'zod';
import { identifier } from '../../lib/input.js';
import { auth } from '../../subgraphs/auth/index.js';
import { authInputs, sendOtpFields, templateVariableName, templateVariableValue } from '../../subgraphs/auth/inputs.js';
import { refreshCookie, refreshTokenOf, tokenCookie } from '../../lib/credentials.js';
import * as ops from '../../generated/graphql/auth.operations.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const { schemas } = authInputs;
const route = routeFactory({ component: auth, internalErrorCode: 'KER-ATH-500', idPrefix: 'platform.', pathPrefix: '/v1/authmanager' });
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

/** Token checks read the cookie; anything malformed about the call itself is an authentication failure, not the inputs' KER-ATH-400. */
const tokenCodeFor = () => 'KER-ATH-401';

/** REST's template variables are a map; GraphQL's a list of name and value. */
const sendOtp = z.object({ ...sendOtpFields, templateVariables: z.record(templateVariableName, templateVariableValue).optional() });

/** MOSIP's wire name is userId; the spec's userid is accepted too. */
const otpLogin = z.preprocess(
  (value) => (value && typeof value === 'object' && !('userId' in value) && 'userid' in value ? { ...value, userId: value.userid } : value),
  schemas.loginWithOtp,
);

export const authRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/authenticate/sendotp',
    summary: "Send a login OTP to the user's e-mail or phone",
    idSuffix: 'authentication.sendotp',
    versionKey: 'ver',
    input: { from: 'envelope', schema: sendOtp },
    operation: ops.SendOtpDocument,
    variables: ({ templateVariables, ...input }) => ({
      ...input,
      templateVariables: Object.entries(templateVariables ?? {}).map(([name, value]) => ({ name, value })),
    }),
    response: z.object({ status: z.string(), message: z.string() }),
  }),
  route({
    method: 'post',
    path: '/authenticate/useridOTP',
    summary: 'Log in with user id and OTP; the token is set as the Authorization cookie',
    idSuffix: 'authentication.useridOTP',
    versionKey: 'ver',
    input: { from: 'envelope', schema: otpLogin },
    operation: ops.LoginWithOtpDocument,
    response: z.object({ status: z.string(), message: z.string() }),
    result: ({ loginWithOtp: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      // A user's session goes on by refresh, as after a password login; a resident's ends with its access token.
      if (login.refreshToken && login.refreshExpiryTime) res.append('Set-Cookie', refreshCookie(login.refreshToken, login.refreshExpiryTime));
      return { status: login.status, message: login.message };
    },
  }),
  route({
    method: 'post',
    path: '/authenticate/internal/useridPwd',
    summary: 'Log in with user name and password; the token is returned in the body and as the Authorization cookie',
    idSuffix: 'authentication.useridPwd',
    input: { from: 'envelope', schema: passwordLogin },
    operation: ops.LoginWithPasswordDocument,
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
  }),
  route({
    method: 'post',
    path: '/authenticate/clientidsecretkey',
    summary: 'Log an application in with client id and secret key; the token is set as the Authorization cookie',
    idSuffix: 'authentication.clientidsecretkey',
    input: { from: 'envelope', schema: schemas.loginWithClientSecret },
    operation: ops.LoginWithClientSecretDocument,
    response: z.object({ status: z.string(), message: z.string() }),
    result: ({ loginWithClientSecret: login }, { res }) => {
      res.append('Set-Cookie', tokenCookie(login.token, login.expiryTime));
      return { status: login.status, message: login.message };
    },
    // the client login answers every failure with its one code, 500, as its input codes do
    internalErrorCode: '500',
  }),
  route({
    method: 'get',
    path: '/authorize/admin/validateToken',
    summary: "Validate the caller's token (Authorization cookie) and return its identity record",
    idSuffix: 'authentication.validateToken',
    operation: ops.ValidateTokenDocument,
    response: identity,
    result: (data, { res }) => {
      // MOSIP sends the result in a response header too.
      res.setHeader('X-Validated-User', data.validateToken.userId);
      const { userId, mobile, mail, langCode, userPassword, name, roles, token, rid } = data.validateToken;
      // MOSIP's record, its keys in its order: the roles comma-separated.
      return { userId, mobile, mail, langCode, userPassword, name, role: roles.join(','), token, rid };
    },
    codeFor: tokenCodeFor,
  }),
  route({
    method: 'post',
    path: '/authorize/invalidateToken',
    summary: "Invalidate the caller's token (Authorization cookie) everywhere at once",
    idSuffix: 'authorize.invalidatetoken',
    versionKey: 'ver',
    operation: ops.InvalidateTokenDocument,
    response: z.object({ message: z.string() }),
    codeFor: tokenCodeFor,
  }),
  route({
    method: 'post',
    path: '/authorize/refreshToken/{appId}',
    summary:
      'Exchange a refresh token (cookie refresh_token, or request.refreshToken) for new tokens; the refresh token is rotated, and one presented twice revokes its session',
    idSuffix: 'authorize.refreshToken',
    input: { from: 'envelope', schema: schemas.refreshToken.omit({ appId: true }), requestTime: 'optional', bodyOptional: true },
    operation: ops.RefreshTokenDocument,
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
  }),
];
