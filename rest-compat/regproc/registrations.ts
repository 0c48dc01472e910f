import { z } from 'zod';
import * as ops from '../../generated/graphql/regproc.operations.js';
import { identifier } from '../../lib/input.js';
import { regproc } from '../../subgraphs/regproc/index.js';
import { RPR } from '../../subgraphs/regproc/errors.js';
import { registrationsSchemas } from '../../subgraphs/regproc/registrations/inputs.js';
import { pathParam, timestamp, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { perRecordEnvelope } from './envelope.js';

const route = routeFactory({
  component: regproc,
  internalErrorCode: RPR.internal,
  idPrefix: 'platform.registration.',
  pathPrefix: '/registrationprocessor/v1',
});

/** The body is a JSON string literal of the encrypted request (MOSIP's client sends it so); anything else is passed on as is and fails decryption. */
function bodyString(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'string' ? parsed : text;
  } catch {
    return text;
  }
}

const syncInput = z.object({
  body: z.string(),
  headers: z.object({
    'center-machine-refid': identifier(80).optional(),
    timestamp: identifier(64).optional(),
  }),
});

const syncItem = z.object({ registrationId: z.string(), status: z.string() });
const syncFailure = z.object({ registrationId: z.string().nullable(), status: z.string(), errorCode: z.string(), message: z.string() });
const statusItem = z.object({ registrationId: z.string(), statusCode: z.string() });
const statusError = z.object({ registrationId: z.string(), errorCode: z.string(), errorMessage: z.string() });
const transaction = z.object({
  id: z.string(),
  registrationId: z.string(),
  transactionTypeCode: z.string(),
  parentTransactionId: z.string().nullable(),
  statusCode: z.string(),
  subStatusCode: z.string().nullable(),
  statusCommentCode: z.string().nullable(),
  statusComment: z.string().nullable(),
  langCode: z.string(),
  createdDateTimes: z.string(),
});

export const registrationsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/registrationstatus/sync',
    summary: 'Records the RIDs a registration client will upload (body: JSON string of base64url(E_REG(sync request)))',
    idSuffix: 'sync',
    envelope: perRecordEnvelope,
    signResponse: true,
    input: { from: 'raw', schema: syncInput, contentType: 'application/json' },
    operation: ops.RegprocSyncRegistrationsDocument,
    // Missing headers reach the field's rules as null: RPR-RGS-015 there, as on GraphQL.
    variables: ({ body, headers }) => ({
      centerMachineRefId: headers['center-machine-refid'] ?? null,
      timestamp: headers.timestamp ?? null,
      data: bodyString(body),
    }),
    response: z.object({ response: z.array(syncItem), errors: z.array(syncFailure) }),
    result: (data) => data.syncRegistrations,
  }),
  route({
    method: 'post',
    path: '/registrationstatus/search',
    summary: 'The status of each RID (UPLOAD_PENDING when synced and not yet uploaded); unknown RIDs as RPR-RGS-031 items',
    idSuffix: 'status',
    envelope: perRecordEnvelope,
    input: { from: 'envelope', schema: registrationsSchemas.registrationStatuses.shape.request, requestId: 'platform.registration.status' },
    operation: ops.RegprocRegistrationStatusesDocument,
    variables: (request) => ({ request }),
    response: z.object({ response: z.array(statusItem), errors: z.array(statusError) }),
    result: (data) => data.registrationStatuses,
  }),
  route({
    method: 'get',
    path: '/registrationtransaction/search/{langcode}/{rid}',
    summary: "A registration's transactions, oldest first (RPR-RTS-001 when it has none)",
    idSuffix: 'transaction',
    input: { from: 'none' },
    operation: ops.RegprocRegistrationTransactionsDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode'), registrationId: pathParam(req, 'rid') }),
    response: z.array(transaction),
    // Document 1's transaction record names the time createdDateTimes.
    result: (data) => data.registrationTransactions.map(({ createdAt, ...row }) => ({ ...row, createdDateTimes: timestamp(createdAt) })),
  }),
];
