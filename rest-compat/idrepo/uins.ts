import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import { idrepoCodeFor as codeFor } from '../../subgraphs/idrepo/errors.js';
import { operation } from '../operations.js';
import { defineRoute, type RestRoute } from '../route.js';

/** MOSIP's kernel UIN generator path: the registration processor takes a UIN for a new identity. */
export const uinsRoutes: RestRoute[] = [
  defineRoute({
    method: 'get',
    path: '/v1/idgenerator/uin',
    summary: 'A UIN from the pool for a new identity',
    id: 'platform.kernel.uinservice',
    input: { from: 'none' },
    operation: operation(ops.UinsDrawDocument),
    variables: () => ({}),
    response: z.object({ uin: z.string() }),
    result: (data) => data.drawUin,
    codeFor,
    internalErrorCode: 'IDR-IDC-004',
  }),
];
