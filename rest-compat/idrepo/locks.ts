import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import { identifier } from '../../lib/input.js';
import { formatTimestamp } from '../../lib/time.js';
import { graphLockChange, locksSchemas, requestInstant, spelledState } from '../../subgraphs/idrepo/locks/inputs.js';
import type { EnvelopeFormat } from '../envelope.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { IDREPO } from './shared.js';

/** Locks are ID authentication's calls in MOSIP: its internal code and envelope. */
const route = routeFactory({ ...IDREPO, internalErrorCode: 'IDA-MLC-007', pathPrefix: '/idrepository/v1/identity/authtypes/status' });

/** What the resident is told to do about each failure (MOSIP's action messages). */
const ACTIONS: Readonly<Record<string, string>> = {
  'IDA-MLC-001': 'Please send the request again with the current date and time',
  'IDA-MLC-002': 'Please retry with the correct UIN',
  'IDA-MLC-003': 'Your UIN status is not active',
  'IDA-MLC-006': 'Please send the missing input parameter',
  'IDA-MLC-007': 'Please try again',
  'IDA-MLC-009': 'Please correct the input parameter',
  'IDA-MLC-012': "Please capture the individual's consent",
  'IDA-MLC-015': 'Please use an identity type configured for the country (UIN or VID)',
  'IDA-MLC-018': 'Please retry with your own UIN or VID',
  'KER-ATH-401': 'Please log in again',
  'KER-ATH-403': 'Only the resident may lock or unlock their authentication types',
};

const errorItem = z.object({ errorCode: z.string(), errorMessage: z.string(), actionMessage: z.string().nullable() });

/**
 * The spec's variant envelope of this call: `responseTime`, no `metadata`,
 * errors {errorCode, errorMessage, actionMessage}; `response` only when the
 * call answers with one (the update answers with none, as MOSIP's).
 */
export const authTypeEnvelope: EnvelopeFormat = {
  build: (options, body) => {
    const errors = body.errors?.length ? body.errors : null;
    const response = errors || body.response === null || body.response === undefined ? {} : { response: body.response };
    return {
      id: options.id,
      version: options.version,
      responseTime: formatTimestamp(options.now),
      ...response,
      errors: errors?.map((item) => ({ errorCode: item.errorCode, errorMessage: item.message, actionMessage: ACTIONS[item.errorCode] ?? null })) ?? null,
    };
  },
  schema: (response) => ({
    type: 'object',
    properties: {
      id: { type: ['string', 'null'] },
      version: { type: ['string', 'null'] },
      responseTime: { type: 'string', description: "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'" },
      response,
      errors: { anyOf: [{ type: 'array', items: z.toJSONSchema(errorItem) }, { type: 'null' }] },
    },
    required: ['id', 'version', 'responseTime', 'errors'],
  }),
};

const args = locksSchemas.updateAuthTypeStatus.shape;
/** The request as MOSIP's resident services send it: the individual and the consent beside `request`. */
const updateBody = z.object({
  id: identifier(64).nullish(),
  version: identifier(16).nullish(),
  requestTime: requestInstant,
  consentObtained: args.consentObtained,
  individualId: args.individualId,
  individualIdType: args.individualIdType,
  request: z.object({ authTypes: args.authTypes }),
});

const state = z.object({ authType: z.string(), authSubType: z.string().optional(), isLocked: z.boolean() });
const statesOf = (list: readonly { authType: string; authSubType: string | null; isLocked: boolean }[]) =>
  list.map(({ authType, authSubType, isLocked }) => ({ authType, ...(authSubType ? { authSubType } : {}), isLocked }));

export const locksRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '',
    summary: "Locks or unlocks authentication types of the resident's own identity, by UIN or VID, with their consent",
    idSuffix: 'identity.authtype.status.update',
    envelope: authTypeEnvelope,
    input: { from: 'body', schema: updateBody },
    operation: ops.LocksUpdateAuthTypeStatusDocument,
    // The body's rule has refused a requestTime that is not ISO 8601 (IDA-MLC-009) and read it as the graph's DateTime.
    variables: ({ request, requestTime, consentObtained, individualId, individualIdType }) => ({
      requestTime,
      consentObtained,
      individualId,
      individualIdType,
      authTypes: request.authTypes.map(graphLockChange),
    }),
    response: z.null(),
    result: () => null,
  }),
  route({
    method: 'get',
    path: '/individualIdType/{IDType}/individualId/{ID}',
    summary: 'The lock state of the authentication types of an identity, by UIN or VID (a resident reads their own)',
    idSuffix: 'identity.authtype.status.read',
    envelope: authTypeEnvelope,
    operation: ops.LocksAuthTypeStatusDocument,
    variables: (_input, req) => ({ individualId: pathParam(req, 'ID'), individualIdType: pathParam(req, 'IDType') }),
    response: z.object({ authTypes: z.array(state) }),
    result: (data) => ({ authTypes: statesOf(data.authTypeStatus.map(spelledState)) }),
  }),
];
