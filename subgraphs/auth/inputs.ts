import { z } from 'zod';
import { fieldInputs } from '../../lib/graph/inputs.js';
import { identifier, pageArguments, text as freeText } from '../../lib/input.js';
import { ROLES } from '../../lib/roles.js';
import { CENTRE_FILTER_NAMES, olderNames } from '../../lib/graph/filters.js';

const text = identifier();
// any character a person may type in a password, but NUL; the service sets the least length (KER-ATH-400)
const password = freeText(256);

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

/**
 * A user's or client's id: the service checks a new one's format (KER-ATH-400, 1 to 64 of letters,
 * digits, . @ + - _); none is longer than a pre-registration login's (256).
 */
const subjectId = identifier(256);
/** Application ids, roles, phone numbers, language codes: the service checks them against its lists and formats (KER-ATH-400). */
const short = identifier(64);
/** An id can be at most 256 UTF-16 units, 768 bytes of UTF-8: its cursor (base64url) at most 1,024 characters. */
const page = pageArguments(1024);
const role = z.enum(ROLES);
const grants = { roles: z.array(short).max(64).nullish(), appIds: z.array(short).max(64).nullish() };
const profile = {
  name: text.nullish(),
  mail: text.nullish(),
  mobile: short.nullish(),
  langCode: short.nullish(),
  ...grants,
  rid: short.nullish(),
};
const client = { ...grants, isActive: z.boolean().nullish() };
const byUser = z.object({ userId: subjectId });
const byClient = z.object({ clientId: subjectId });
const listFilter = { role: role.nullish(), appId: short.nullish() };
const sessionFilter = z.object({
  subject: subjectId.nullish(),
  subjectType: z.enum(['USER', 'CLIENT', 'RESIDENT']).nullish(),
  appId: short.nullish(),
  status: z.enum(['ACTIVE', 'EXPIRED', 'REVOKED']).nullish(),
});

/** The arguments of the portal's users, clients and sessions fields (admins'; a bad one is KER-ATH-400, as the service's checks). */
const adminSchemas = {
  users: z.object({
    ...page,
    filter: z
      .object({
        userId: subjectId.nullish(),
        ...listFilter,
        isLocked: z.boolean().nullish(),
        name: text.nullish(),
        nameContains: text.nullish(),
        // master data's codes and ids (zones up to 36 characters, centres up to 10)
        zoneCode: short.nullish(),
        regCenterId: short.nullish(),
        centreId: short.nullish(),
      })
      .transform((filter) => olderNames(filter, CENTRE_FILTER_NAMES)!)
      .nullish(),
    orderBy: z.object({ field: z.enum(['USER_ID', 'CREATED_AT']), direction: z.enum(['ASC', 'DESC']) }).nullish(),
  }),
  user: byUser,
  clients: z.object({ ...page, filter: z.object({ clientId: subjectId.nullish(), ...listFilter, isActive: z.boolean().nullish() }).nullish() }),
  client: byClient,
  sessions: z.object({ ...page, filter: sessionFilter.nullish() }),
  createUser: z.object({ input: z.object({ userId: subjectId, ...profile, password: password.nullish() }) }),
  updateUser: z.object({ userId: subjectId, changes: z.object(profile) }),
  resetPassword: z.object({ userId: subjectId, password }),
  lockUser: byUser,
  unlockUser: byUser,
  createClient: z.object({ input: z.object({ clientId: subjectId, ...client }) }),
  updateClient: z.object({ clientId: subjectId, changes: z.object(client) }),
  rotateClientSecret: byClient,
  // sessions are keyed by UUIDs
  revokeSession: z.object({ id: identifier(64) }),
};

/** The arguments of the login and administration root fields, for GraphQL and REST alike. */
export const authInputs = fieldInputs(
  {
    loginWithPassword: z.object({ userName: text, password, appId: text }),
    changePassword: z.object({ currentPassword: password, newPassword: password }),
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
    ...adminSchemas,
  },
  authCodeFor,
);
