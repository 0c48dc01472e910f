import { z } from 'zod';
import * as ops from '../../generated/graphql/regproc.operations.js';
import { RPR } from '../../subgraphs/regproc/errors.js';
import { regproc } from '../../subgraphs/regproc/index.js';
import { requestsSchemas } from '../../subgraphs/regproc/requests/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const common = { component: regproc, internalErrorCode: RPR.internal, pathPrefix: '/registrationprocessor/v1' } as const;
const registrationRoute = routeFactory({ ...common, idPrefix: 'platform.registration.' });
const cardRoute = routeFactory({ ...common, idPrefix: 'platform.uincard.' });

const generated = z.object({ registrationId: z.string(), status: z.string(), message: z.string() });

export const requestsRoutes: RestRoute[] = [
  registrationRoute({
    method: 'post',
    path: '/requesthandler/packetgenerator',
    summary: "A UIN's activation or deactivation (resident portal), made into a registration through the pipeline",
    idSuffix: 'packetgenerator',
    input: { from: 'envelope', schema: requestsSchemas.generatePacket.shape.input, requestId: 'platform.registration.packetgenerator' },
    operation: ops.RegprocGeneratePacketDocument,
    response: generated,
  }),
  cardRoute({
    method: 'post',
    path: '/requesthandler/reprint',
    summary: 'A card reprint (resident portal), made into a registration through the pipeline',
    idSuffix: 'reprint',
    input: { from: 'envelope', schema: requestsSchemas.requestReprint.shape.input, requestId: 'platform.uincard.reprint' },
    operation: ops.RegprocRequestReprintDocument,
    response: generated,
  }),
  registrationRoute({
    method: 'post',
    path: '/uploader/securezone',
    summary: "The DMZ bridge's notice that a packet landed: answered in plain text",
    idSuffix: 'securezone',
    input: { from: 'body', schema: requestsSchemas.securezoneNotice.shape.input },
    operation: ops.RegprocSecurezoneNoticeDocument,
    response: z.string(),
    rawSuccess: { contentType: 'text/plain' },
  }),
  registrationRoute({
    method: 'get',
    path: '/bio-dedupe/biometricfile/{referenceid}',
    summary:
      "The registration's CBEFF (exception biometrics left out) for the ABIS, served as its live data share serves it: encrypted for the ABIS partner's certificate, as base64 text (REGPROC_DEDUPE=abis only)",
    idSuffix: 'biometricfile',
    operation: ops.RegprocBiometricFileDocument,
    variables: (_input, req) => ({ referenceId: pathParam(req, 'referenceid') }),
    response: z.string(),
    // The same body as GET /v1/datashare/get: the envelope's base64 text.
    rawSuccess: { contentType: 'application/octet-stream' },
  }),
];
