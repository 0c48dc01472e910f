import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import type { RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { IDREPO } from './shared.js';

const route = routeFactory(IDREPO);

/** MOSIP's kernel UIN generator path: the registration processor takes a UIN for a new identity. */
export const uinsRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/v1/idgenerator/uin',
    summary: 'A UIN from the pool for a new identity',
    idSuffix: 'kernel.uinservice',
    operation: ops.UinsDrawDocument,
    response: z.object({ uin: z.string() }),
  }),
];
