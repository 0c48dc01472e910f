import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, text as freeText } from '../../lib/input.js';

const text = identifier();

/** The fields REST's sendotp shares with GraphQL's (template variables differ in shape: a map there, a list here). */
export const sendOtpFields = { userId: text, otpChannel: z.array(z.string().max(16)).max(4), useridtype: text, appId: text, context: text.nullish() };
export const templateVariableName = z.string().max(64);
export const templateVariableValue = z.string().max(1024);

/** Input codes of the login paths: a bad appId is a realm error, a bad user name a user error. */
function authCodeFor(field: string, _missing: boolean, rootField: string): string {
  if (field === 'appId') return 'KER-ATH-026';
  switch (rootField) {
    case 'loginWithPassword':
      return field === 'userName' ? 'KER-ATH-003' : 'KER-ATH-023';
    case 'loginWithClientSecret':
      return '500';
    case 'sendOtp':
      return field.startsWith('otpChannel') ? 'KER-AUTH-CHANNEL_INVALID' : 'AUTH_ERR_USER_NOT_FOUND';
    case 'loginWithOtp':
      return field === 'userId' ? 'KER-ATH-003' : 'AUTH_ERR_INVALIDOTP';
    case 'refreshToken':
      return 'KER-ATH-401';
    default:
      return 'KER-ATH-400';
  }
}

/** The arguments of the login root fields, for GraphQL and REST alike. */
export const authInputs = fieldInputs(
  {
    // any character a person may type in a password, but NUL
    loginWithPassword: z.object({ userName: text, password: freeText(256), appId: text }),
    changePassword: z.object({ currentPassword: freeText(256), newPassword: freeText(256) }),
    loginWithClientSecret: z.object({ clientId: text, secretKey: text, appId: text }),
    sendOtp: z.object({
      ...sendOtpFields,
      templateVariables: z
        .array(z.object({ name: templateVariableName, value: templateVariableValue }))
        .max(64)
        .nullish(),
    }),
    loginWithOtp: z.object({ userId: text, otp: z.string().max(16), appId: text }),
    refreshToken: z.object({ appId: text, refreshToken: identifier(4096).nullish() }),
  },
  authCodeFor,
);
