import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { machineInput, machineValidity } from '../../subgraphs/masterdata/centres/inputs.js';
import { masterdataErrors } from '../../subgraphs/masterdata/errors.js';
import { auditShape, withAudit } from '../audit.js';
import { found, instantFromWire, optionalTimestamp, pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

const text = z.string().nullable();

const machineRecord = z.object({
  id: z.string(),
  langCode: z.string(),
  name: z.string(),
  serialNum: text,
  macAddress: text,
  ipAddress: text,
  machineSpecId: text,
  regCenterId: text,
  zoneCode: z.string(),
  validityDateTime: text,
  isActive: z.boolean(),
  ...auditShape,
});
const toMachine = ({ validityDateTime, ...row }: ops.CentresMachineRecordFragment): z.input<typeof machineRecord> =>
  withAudit(row, { validityDateTime: optionalTimestamp(validityDateTime) });
const machines = z.object({ machines: z.array(machineRecord) });
/** The request's validity as the DateTime the operation takes: the service's own check first (KER-MSD-043), as MOSIP parses it with the request. */
const machineVariables = (input: z.infer<typeof machineInput>) => ({
  // An empty validity is none, as the service reads it.
  input: { ...input, validityDateTime: input.validityDateTime ? instantFromWire(input.validityDateTime, machineValidity) : null },
});

const idAndLanguage = (req: Request) => ({ id: pathParam(req, 'id'), langCode: pathParam(req, 'langcode') });
const deleted = z.object({ id: z.string() });

export const machinesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/machines',
    summary: 'Create a machine, or its row in another language',
    idSuffix: 'machine.create',
    input: { from: 'envelope', schema: machineInput },
    operation: ops.CentresCreateMachineDocument,
    variables: machineVariables,
    response: machineRecord,
    result: (data) => toMachine(data.createMachine),
  }),
  route({
    method: 'put',
    path: '/machines',
    summary: 'Update a machine (every language)',
    idSuffix: 'machine.update',
    input: { from: 'envelope', schema: machineInput },
    operation: ops.CentresUpdateMachineDocument,
    variables: machineVariables,
    response: machineRecord,
    result: (data) => toMachine(data.updateMachine),
  }),
  route({
    method: 'get',
    path: '/machines/{id}/{langcode}',
    summary: 'A machine in a language',
    idSuffix: 'machine.get',
    operation: ops.CentresMachineDocument,
    variables: (_, req) => idAndLanguage(req),
    response: machines,
    result: (data, { res }) => ({ machines: [toMachine(found(data.machine, () => masterdataErrors.machineNotFound(idAndLanguage(res.req).id)))] }),
  }),
  route({
    method: 'get',
    path: '/machines/{langcode}',
    summary: 'Every machine of a language',
    idSuffix: 'machine.get',
    operation: ops.CentresMachinesOfLanguageDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: machines,
    result: (data) => ({ machines: data.machinesOfLanguage.map(toMachine) }),
  }),
  route({
    method: 'delete',
    path: '/machines/{id}',
    summary: 'Delete a machine (every language)',
    idSuffix: 'machine.delete',
    operation: ops.CentresDeleteMachineDocument,
    variables: (_, req) => ({ id: pathParam(req, 'id') }),
    response: deleted,
    result: (data) => ({ id: data.deleteMachine }),
  }),
];
