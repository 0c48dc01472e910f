import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import { vidsSchemas as schemas } from '../../subgraphs/idrepo/vids/inputs.js';
import { optionalTimestamp, pathParam, timestamp, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { IDREPO } from './shared.js';

const route = routeFactory({ ...IDREPO, pathPrefix: '/idrepository/v1/vid' });

/** MOSIP's VidResponseDTO: every member present, null when the call does not fill it. */
const vidResponse = z.object({
  VID: z.string().nullable(),
  vidStatus: z.string().nullable(),
  UIN: z.string().nullable(),
  restoredVid: z.object({ VID: z.string(), vidStatus: z.string(), UIN: z.null(), restoredVid: z.null() }).nullable(),
});
type VidResponse = z.input<typeof vidResponse>;
const answer = (over: Partial<VidResponse>): VidResponse => ({ VID: null, vidStatus: null, UIN: null, restoredVid: null, ...over });

/** MOSIP sends the UIN as a string or a JSON number. */
const uinField = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), schemas.vidsByUin.shape.uin);
const withUin = z.object({ UIN: uinField });

export const vidsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '',
    summary: 'A new VID of the type (Perpetual, Temporary) for an ACTIVATED UIN, under the VID policy',
    idSuffix: 'vid.create',
    input: { from: 'envelope', schema: z.object({ vidType: schemas.createVid.shape.vidType, UIN: withUin.shape.UIN }) },
    operation: ops.VidsCreateDocument,
    variables: (input) => ({ vidType: input.vidType, uin: input.UIN }),
    response: vidResponse,
    result: ({ createVid }) => answer({ VID: createVid.vid, vidStatus: createVid.vidStatus }),
  }),
  route({
    method: 'get',
    path: '/uin/{UIN}',
    summary: "The UIN's ACTIVE, unexpired VIDs",
    idSuffix: 'vid.read',
    operation: ops.VidsByUinDocument,
    variables: (_input, req) => ({ uin: pathParam(req, 'UIN') }),
    response: z.array(
      z.object({
        vid: z.string(),
        vidType: z.string(),
        expiryTimestamp: z.string().nullable(),
        // MOSIP's VidInfoDTO spells it so
        genratedOnTimestamp: z.string(),
        transactionLimit: z.number().nullable(),
        transactionsLeftCount: z.number().nullable(),
      }),
    ),
    result: ({ vidsByUin }) =>
      vidsByUin.map((info) => ({
        vid: info.vid,
        vidType: info.vidType,
        expiryTimestamp: optionalTimestamp(info.expiryTimestamp),
        genratedOnTimestamp: timestamp(info.generatedOnTimestamp),
        transactionLimit: info.transactionLimit ?? null,
        transactionsLeftCount: info.transactionsLeftCount ?? null,
      })),
  }),
  route({
    method: 'post',
    path: '/deactivate',
    summary: 'Every ACTIVE VID of the UIN DEACTIVATED',
    idSuffix: 'vid.deactivate',
    input: { from: 'envelope', schema: withUin },
    operation: ops.VidsDeactivateDocument,
    variables: (input) => ({ uin: input.UIN }),
    response: vidResponse,
    result: ({ deactivateVids }) => answer({ vidStatus: deactivateVids.vidStatus }),
  }),
  route({
    method: 'post',
    path: '/reactivate',
    summary: 'Every DEACTIVATED, unexpired VID of the UIN ACTIVE again',
    idSuffix: 'vid.reactivate',
    input: { from: 'envelope', schema: withUin },
    operation: ops.VidsReactivateDocument,
    variables: (input) => ({ uin: input.UIN }),
    response: vidResponse,
    result: ({ reactivateVids }) => answer({ vidStatus: reactivateVids.vidStatus }),
  }),
  route({
    method: 'get',
    path: '/{VID}',
    summary: 'The UIN of an ACTIVE, unexpired VID',
    idSuffix: 'vid.read',
    operation: ops.VidsUinByVidDocument,
    variables: (_input, req) => ({ vid: pathParam(req, 'VID') }),
    response: vidResponse,
    result: ({ uinByVid }) => answer({ UIN: uinByVid }),
  }),
  route({
    method: 'patch',
    path: '/{VID}',
    summary: 'The status of an ACTIVE VID changed (REVOKED, USED, ...); a revoked perpetual VID is restored',
    idSuffix: 'vid.update',
    input: { from: 'envelope', schema: z.object({ vidStatus: schemas.updateVidStatus.shape.vidStatus }) },
    operation: ops.VidsUpdateStatusDocument,
    variables: (input, req) => ({ vid: pathParam(req, 'VID'), vidStatus: input.vidStatus }),
    response: vidResponse,
    result: ({ updateVidStatus: change }) =>
      answer({
        vidStatus: change.vidStatus,
        restoredVid: change.restoredVid ? { VID: change.restoredVid.vid, vidStatus: change.restoredVid.vidStatus, UIN: null, restoredVid: null } : null,
      }),
  }),
  route({
    method: 'post',
    path: '/{VID}/regenerate',
    summary: 'A temporary VID INVALIDATED and a new one of its type made',
    idSuffix: 'vid.regenerate',
    operation: ops.VidsRegenerateDocument,
    variables: (_input, req) => ({ vid: pathParam(req, 'VID') }),
    response: vidResponse,
    result: ({ regenerateVid }) => answer({ VID: regenerateVid.vid, vidStatus: regenerateVid.vidStatus }),
  }),
];
