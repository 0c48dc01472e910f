import { z } from 'zod';
import * as ops from '../../generated/graphql/regproc.operations.js';
import { fieldInputs, parseArguments } from '../../lib/graph/inputs.js';
import { identifier } from '../../lib/input.js';
import { regproc } from '../../subgraphs/regproc/index.js';
import { regprocCodeFor, RPR } from '../../subgraphs/regproc/errors.js';
import { registrationsSchemas, syncTimestampOf } from '../../subgraphs/regproc/registrations/inputs.js';
import { instantFromWire, pathParam, timestamp, type RestRoute } from '../route.js';
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

/** The sync's field rules, as the registrations area declares them (regprocCodeFor: RPR-RGS-015). */
const syncInputs = fieldInputs({ syncRegistrations: registrationsSchemas.syncRegistrations }, regprocCodeFor);

interface SyncArgs {
  centerMachineRefId: string | null;
  timestamp: string | null;
  data: string;
}

/**
 * The timestamp header as the graph's DateTime, which takes what the service
 * parses. One it cannot parse is refused as the graph refused it: a bad field
 * first (the field rules' first refusal), then the service's own check
 * (RPR-RGS-015). A missing header stays null: the field's rule refuses it.
 */
const syncTimestamp = (args: SyncArgs): Date | null =>
  args.timestamp === null ? null : instantFromWire(args.timestamp, syncTimestampOf, () => void parseArguments(syncInputs, 'syncRegistrations', { ...args }));

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
    variables: ({ body, headers }) => {
      const args: SyncArgs = { centerMachineRefId: headers['center-machine-refid'] ?? null, timestamp: headers.timestamp ?? null, data: bodyString(body) };
      return { ...args, timestamp: syncTimestamp(args) };
    },
    response: z.object({ response: z.array(syncItem), errors: z.array(syncFailure) }),
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
  }),
  route({
    method: 'get',
    path: '/registrationtransaction/search/{langcode}/{rid}',
    summary: "A registration's transactions, oldest first (RPR-RTS-001 when it has none)",
    idSuffix: 'transaction',
    operation: ops.RegprocRegistrationTransactionsDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode'), registrationId: pathParam(req, 'rid') }),
    response: z.array(transaction),
    // Document 1's transaction record names the time createdDateTimes.
    result: (data) => data.registrationTransactions.map(({ createdAt, ...row }) => ({ ...row, createdDateTimes: timestamp(createdAt) })),
  }),
];
