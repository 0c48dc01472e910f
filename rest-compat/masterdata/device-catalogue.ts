import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { deviceSpecificationInput, deviceTypeInput } from '../../subgraphs/masterdata/devices/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

// Device types and specifications: MOSIP's wire name minDriverversion; the spec's minDriverVersion is accepted too.

const text = z.string().nullable();

const codeAndLanguage = z.object({ code: z.string(), langCode: z.string() });
const idAndLanguage = z.object({ id: z.string(), langCode: z.string() });
const specificationRequest = deviceSpecificationInput.extend({ minDriverversion: deviceSpecificationInput.shape.minDriverVersion });
const specificationVariables = ({ minDriverversion, minDriverVersion, ...input }: z.infer<typeof specificationRequest>) => ({
  input: { ...input, minDriverVersion: minDriverversion ?? minDriverVersion },
});
const specificationRecord = z.object({
  id: z.string(),
  langCode: z.string(),
  name: z.string(),
  brand: z.string(),
  model: z.string(),
  deviceTypeCode: z.string(),
  minDriverversion: text,
  description: text,
  isActive: z.boolean(),
});
const toSpecification = ({ minDriverVersion, ...row }: ops.DevicesSpecificationRecordFragment): z.input<typeof specificationRecord> => ({
  ...row,
  minDriverversion: minDriverVersion,
});
const specifications = z.object({ devicespecifications: z.array(specificationRecord) });

export const deviceCatalogueRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/devicetypes',
    summary: 'Create a device type, or its row in another language',
    idSuffix: 'devicetype.create',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: ops.DevicesCreateTypeDocument,
    response: codeAndLanguage,
  }),
  route({
    method: 'put',
    path: '/devicetypes',
    summary: 'Update a device type in a language',
    idSuffix: 'devicetype.update',
    input: { from: 'envelope', schema: deviceTypeInput },
    operation: ops.DevicesUpdateTypeDocument,
    response: codeAndLanguage,
  }),
  route({
    method: 'post',
    path: '/devicespecifications',
    summary: 'Create a device specification of an existing device type, or its row in another language',
    idSuffix: 'devicespecification.create',
    input: { from: 'envelope', schema: specificationRequest },
    operation: ops.DevicesCreateSpecificationDocument,
    variables: specificationVariables,
    response: idAndLanguage,
  }),
  route({
    method: 'put',
    path: '/devicespecifications',
    summary: 'Update a device specification in a language',
    idSuffix: 'devicespecification.update',
    input: { from: 'envelope', schema: specificationRequest },
    operation: ops.DevicesUpdateSpecificationDocument,
    variables: specificationVariables,
    response: idAndLanguage,
  }),
  route({
    method: 'get',
    path: '/devicespecifications/{langcode}',
    summary: 'The device specifications of a language',
    idSuffix: 'devicespecification.read',
    operation: ops.DevicesSpecificationsOfLanguageDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByLanguage.map(toSpecification) }),
  }),
  route({
    method: 'get',
    path: '/devicespecifications/{langcode}/{devicetypecode}',
    summary: 'The device specifications of a language and device type',
    idSuffix: 'devicespecification.read',
    operation: ops.DevicesSpecificationsOfTypeDocument,
    variables: (_, req) => ({ langCode: pathParam(req, 'langcode'), deviceTypeCode: pathParam(req, 'devicetypecode') }),
    response: specifications,
    result: (data) => ({ devicespecifications: data.deviceSpecificationsByType.map(toSpecification) }),
  }),
];
