import { z } from 'zod';
import * as ops from '../../generated/graphql/idrepo.operations.js';
import { idrepoCodeFor as codeFor } from '../../subgraphs/idrepo/errors.js';
import { identitiesSchemas as schemas } from '../../subgraphs/idrepo/identities/index.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute } from '../route.js';

const PREFIX = '/idrepository/v1/identity';
const internalErrorCode = 'IDR-IDC-004';

const stored = z.object({ status: z.string(), entity: z.string() });
const record = z.object({
  status: z.string(),
  identity: z.record(z.string(), z.unknown()),
  documents: z.array(z.object({ category: z.string(), value: z.string() })),
});
const readType = z.object({ type: z.string().optional() });

export const identitiesRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: `${PREFIX}/`,
    summary: 'Stores a new identity (ACTIVATED) from the registration processor',
    id: 'platform.id.create',
    input: { from: 'envelope', schema: schemas.createIdentity, requestId: 'platform.id.create' },
    operation: operation(ops.IdrepoCreateIdentityDocument),
    variables: (input) => input,
    response: stored,
    result: (data) => data.createIdentity,
    codeFor,
    internalErrorCode,
  }),
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/`,
    summary: 'Updates an identity: attributes merged, documents replaced, status changed',
    id: 'platform.id.update',
    input: { from: 'envelope', schema: schemas.updateIdentity, requestId: 'platform.id.update' },
    operation: operation(ops.IdrepoUpdateIdentityDocument),
    variables: (input) => input,
    response: stored,
    result: (data) => data.updateIdentity,
    codeFor,
    internalErrorCode,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/uin/{uin}`,
    summary: 'An identity by UIN; type bio, demo or all adds biometrics, documents or both',
    id: 'platform.id.read',
    input: { from: 'query', schema: readType },
    operation: operation(ops.IdrepoIdentityByUinDocument),
    variables: (input, req) => ({ uin: pathParam(req, 'uin'), type: input.type }),
    response: record,
    result: ({ identityByUin: found }) => ({ ...found, identity: found.identity as Record<string, unknown> }),
    codeFor,
    internalErrorCode,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/rid/{rid}`,
    summary: 'An identity by RID (any registration that created or updated it); type as by UIN',
    id: 'platform.id.read',
    input: { from: 'query', schema: readType },
    operation: operation(ops.IdrepoIdentityByRidDocument),
    variables: (input, req) => ({ rid: pathParam(req, 'rid'), type: input.type }),
    response: record,
    result: ({ identityByRid: found }) => ({ ...found, identity: found.identity as Record<string, unknown> }),
    codeFor,
    internalErrorCode,
  }),
];
