import { z } from 'zod';
import * as ops from '../../generated/graphql/abis.operations.js';
import { abis } from '../../subgraphs/abis/index.js';
import { DAT } from '../../subgraphs/abis/errors.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const route = routeFactory({ component: abis, internalErrorCode: DAT.internal, idPrefix: 'platform.datashare.' });

/** The ABIS's paths: the data share. */
export const abisRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/v1/datashare/get/{policyId}/{subscriberId}/{shareKey}',
    summary:
      "A registration's biometrics for an ABIS: the CBEFF encrypted for its partner certificate, as base64 text (token in the Authorization cookie or header, role ABIS)",
    idSuffix: 'get',
    operation: ops.AbisDataShareDocument,
    variables: (_input, req) => ({ policyId: pathParam(req, 'policyId'), subscriberId: pathParam(req, 'subscriberId'), shareKey: pathParam(req, 'shareKey') }),
    response: z.string(),
    rawSuccess: { contentType: 'application/octet-stream' },
    // ABIS.md: an ABIS tells a refused token from a refused share by the HTTP status.
    httpAuthStatus: true,
  }),
];
