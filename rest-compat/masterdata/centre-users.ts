import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { createdFields, createdShape } from '../audit.js';
import { pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

/** MOSIP's UserDetailsDto names the user `id`; `userId` is accepted too. */
const mappingRequest = z
  .object({ userId: z.string().max(64).nullish(), id: z.string().max(64).nullish(), regCenterId: z.string().max(10) })
  .refine((value) => Boolean(value.userId ?? value.id), { message: 'userId is required', path: ['userId'] });
const mappingRecord = z.object({ userId: z.string(), regCenterId: z.string(), isActive: z.boolean(), ...createdShape });
const toMapping = (row: ops.CentresUserRecordFragment): z.input<typeof mappingRecord> => ({
  userId: row.user.userId,
  regCenterId: row.regCenterId,
  isActive: row.isActive,
  ...createdFields(row),
});

export const centreUsersRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/usercentermapping',
    summary: 'Map a user to a registration centre',
    idSuffix: 'usercentermapping.create',
    input: { from: 'envelope', schema: mappingRequest },
    operation: ops.CentresMapUserDocument,
    variables: (input) => ({ userId: input.userId ?? input.id ?? '', regCenterId: input.regCenterId }),
    response: mappingRecord,
    result: (data) => toMapping(data.mapUserToCentre),
  }),
  route({
    method: 'delete',
    path: '/usercentermapping/{userid}/{regcenterid}',
    summary: 'Unmap a user from a registration centre',
    idSuffix: 'usercentermapping.delete',
    operation: ops.CentresUnmapUserDocument,
    variables: (_, req) => ({ userId: pathParam(req, 'userid'), regCenterId: pathParam(req, 'regcenterid') }),
    response: mappingRecord,
    result: (data) => toMapping(data.unmapUserFromCentre),
  }),
];
