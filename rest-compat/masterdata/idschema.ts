import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { IdSchemaRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import { idschemaSchemas as schemas } from '../../subgraphs/masterdata/idschema/index.js';
import { idSchemaErrors } from '../../subgraphs/masterdata/idschema/errors.js';
import { effectiveFromOf } from '../../subgraphs/masterdata/idschema/inputs.js';
import { instantFromWire, optionalTimestamp, type RestRoute, timestamp } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { mapRows, MASTERDATA, pageShape } from './shared.js';

const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.idschema.', pathPrefix: `${MASTERDATA.pathPrefix}/idschema` });

/** Document 1's ID schema record. */
const record = z.object({
  id: z.string(),
  idVersion: z.number(),
  title: z.string(),
  description: z.string(),
  effectiveFrom: z.string(),
  schemaVersion: z.number(),
  schema: z.array(z.record(z.string(), z.unknown())),
  schemaJson: z.string(),
  status: z.string(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  updatedBy: z.string().nullable(),
  updatedOn: z.string().nullable(),
});

/** The record as MOSIP shows it: fields without their unset attributes, audit as createdOn/updatedOn. */
const toRecord = ({ schema, createdBy, createdAt, updatedBy, updatedAt, effectiveFrom, ...row }: IdSchemaRecordFragment): z.input<typeof record> => ({
  ...row,
  effectiveFrom: timestamp(effectiveFrom),
  schema: schema.map((field) => Object.fromEntries(Object.entries(field).filter(([key, value]) => value !== null && key !== '__typename'))),
  createdBy: createdBy?.userId ?? null,
  createdOn: timestamp(createdAt),
  updatedBy: updatedBy?.userId ?? null,
  updatedOn: optionalTimestamp(updatedAt),
});

const queryId = (req: Request) => (typeof req.query.id === 'string' ? req.query.id : '');

export const idschemaRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '',
    summary: 'Create a draft ID schema',
    idSuffix: 'create',
    input: { from: 'envelope', schema: schemas.createIdSchema },
    operation: ops.IdSchemaCreateDocument,
    variables: (input) => ({ ...input, effectiveFrom: instantFromWire(input.effectiveFrom, (text) => effectiveFromOf(text, idSchemaErrors.insert)) }),
    response: record,
    result: (data) => toRecord(data.createIdSchema),
  }),
  route({
    method: 'put',
    path: '',
    summary: 'Rewrite a draft ID schema (?id=)',
    idSuffix: 'update',
    input: { from: 'envelope', schema: schemas.createIdSchema },
    operation: ops.IdSchemaUpdateDocument,
    variables: (input, req) => ({
      ...input,
      effectiveFrom: instantFromWire(input.effectiveFrom, (text) => effectiveFromOf(text, idSchemaErrors.update)),
      id: queryId(req),
    }),
    response: record,
    result: (data) => toRecord(data.updateIdSchema),
  }),
  route({
    method: 'delete',
    path: '',
    summary: 'Delete a draft ID schema (?id=)',
    idSuffix: 'delete',
    input: { from: 'query', schema: schemas.deleteIdSchema },
    operation: ops.IdSchemaDeleteDocument,
    response: z.string(),
  }),
  route({
    method: 'put',
    path: '/publish',
    summary: 'Publish a draft ID schema from effectiveFrom (idVersion goes up)',
    idSuffix: 'publish',
    input: { from: 'envelope', schema: schemas.publishIdSchema },
    operation: ops.IdSchemaPublishDocument,
    variables: (input) => ({ ...input, effectiveFrom: instantFromWire(input.effectiveFrom, (text) => effectiveFromOf(text, idSchemaErrors.update)) }),
    response: record,
    result: (data) => toRecord(data.publishIdSchema),
  }),
  route({
    method: 'get',
    path: '/all',
    summary: 'ID schemas, paged (orderBy, pageNumber, pageSize, sortBy)',
    idSuffix: 'read',
    input: { from: 'query', schema: schemas.idSchemaPage },
    operation: ops.IdSchemaAllDocument,
    response: pageShape(record),
    result: (data) => mapRows(data.idSchemaPage, toRecord),
  }),
  route({
    method: 'get',
    path: '/latest',
    summary: 'The latest published ID schema, or the one of ?schemaVersion= (its idVersion)',
    idSuffix: 'read',
    input: { from: 'query', schema: schemas.latestIdSchema },
    operation: ops.IdSchemaLatestDocument,
    response: record,
    result: (data) => toRecord(data.latestIdSchema),
  }),
];
