import { z } from 'zod';
import * as ops from '../../generated/graphql/regproc.operations.js';
import { identifier, text } from '../../lib/input.js';
import { RPR } from '../../subgraphs/regproc/errors.js';
import { regproc } from '../../subgraphs/regproc/index.js';
import type { RestRoute, UploadInput } from '../route.js';
import { routeFactory } from '../route-factory.js';

const common = { component: regproc, internalErrorCode: RPR.internal, pathPrefix: '/registrationprocessor/v1' } as const;
const registrationRoute = routeFactory({ ...common, idPrefix: 'platform.registration.' });
const verificationRoute = routeFactory({ ...common, idPrefix: 'platform.manual.verification.' });

/** The multipart upload: any field name, the file spooled by the edge (the schema sees its description). */
const uploadInput: z.ZodType<UploadInput> = z.object({
  fields: z.record(z.string(), z.string()),
  upload: z.object({ id: z.string(), filename: z.string().min(1, 'the packet file name'), size: z.number(), sha256: z.string(), truncated: z.boolean() }),
});

const decision = z.object({
  matchedRefType: identifier(32).nullish(),
  mvUsrId: identifier(256),
  reasonCode: text(256).nullish(),
  regId: identifier(64),
  statusCode: identifier(32),
});

export const pipelineRoutes: RestRoute[] = [
  registrationRoute({
    method: 'post',
    path: '/packetreceiver/registrationpackets',
    summary: "A synced registration's packet (multipart, file <RID>.zip = E_REG(zip)), streamed to disk, checked in MOSIP's order and stored encrypted",
    idSuffix: 'packet',
    signResponse: true,
    input: { from: 'upload', schema: uploadInput },
    operation: ops.RegprocReceivePacketDocument,
    variables: ({ upload }) => ({ input: { fileName: upload!.filename, stagedUploadId: upload!.id } }),
    response: z.object({ status: z.string() }),
    result: (data) => ({ status: data.receiveRegistrationPacket.status }),
  }),
  verificationRoute({
    method: 'post',
    path: '/manualverification/assignment',
    summary: 'Assigns the adjudicator (the caller) one registration waiting for manual verification, with its gallery of possible duplicates',
    idSuffix: 'assignment',
    input: {
      from: 'envelope',
      schema: z.object({ userId: identifier(256), matchType: identifier(32).nullish() }),
      requestId: 'platform.manual.verification.assignment',
    },
    operation: ops.RegprocAssignManualVerificationDocument,
    variables: (request) => ({ userId: request.userId, matchType: request.matchType ?? null }),
    response: z.object({
      regId: z.string(),
      url: z.string(),
      mvUsrId: z.string(),
      statusCode: z.string(),
      gallery: z.object({ matchedRefs: z.array(z.object({ matchedRegId: z.string(), matchedRefType: z.string(), reasonCode: z.string() })) }),
    }),
  }),
  verificationRoute({
    method: 'post',
    path: '/manualverification/decision',
    summary: "Records the adjudicator's decision; APPROVED moves the registration on to its UIN, REJECTED ends it",
    idSuffix: 'decision',
    input: { from: 'envelope', schema: decision, requestId: 'platform.manual.verification.decision' },
    operation: ops.RegprocDecideManualVerificationDocument,
    response: decision.extend({ mvUsrId: z.string(), regId: z.string(), statusCode: z.string() }),
  }),
];
