import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import { identitiesSchemas as schemas } from '../../subgraphs/idrepo/identities/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { IDREPO } from './shared.js';

const route = routeFactory({ ...IDREPO, pathPrefix: '/idrepository/v1/identity' });

const stored = z.object({ status: z.string(), entity: z.string() });
const record = z.object({
  status: z.string(),
  identity: z.record(z.string(), z.unknown()),
  documents: z.array(z.object({ category: z.string(), value: z.string() })),
});
const readType = z.object({ type: z.string().optional() });

export const identitiesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/',
    summary: 'Stores a new identity (ACTIVATED) from the registration processor',
    idSuffix: 'id.create',
    input: { from: 'envelope', schema: schemas.createIdentity, requestId: 'platform.id.create' },
    operation: ops.IdrepoCreateIdentityDocument,
    response: stored,
  }),
  route({
    method: 'patch',
    path: '/',
    summary: 'Updates an identity: attributes merged, documents replaced, status changed',
    idSuffix: 'id.update',
    input: { from: 'envelope', schema: schemas.updateIdentity, requestId: 'platform.id.update' },
    operation: ops.IdrepoUpdateIdentityDocument,
    response: stored,
  }),
  route({
    method: 'get',
    path: '/uin/{uin}',
    summary: 'An identity by UIN; type bio, demo or all adds biometrics, documents or both',
    idSuffix: 'id.read',
    input: { from: 'query', schema: readType },
    operation: ops.IdrepoIdentityByUinDocument,
    variables: (input, req) => ({ uin: pathParam(req, 'uin'), type: input.type }),
    response: record,
    result: ({ identityByUin: found }) => ({ ...found, identity: found.identity as Record<string, unknown> }),
  }),
  route({
    method: 'get',
    path: '/rid/{rid}',
    summary: 'An identity by RID (any registration that created or updated it); type as by UIN',
    idSuffix: 'id.read',
    input: { from: 'query', schema: readType },
    operation: ops.IdrepoIdentityByRidDocument,
    variables: (input, req) => ({ rid: pathParam(req, 'rid'), type: input.type }),
    response: record,
    result: ({ identityByRid: found }) => ({ ...found, identity: found.identity as Record<string, unknown> }),
  }),
];
