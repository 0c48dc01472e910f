import type { Request } from 'express';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { IdSchemaRecordFragment } from '../../generated/graphql/masterdata.operations.js';
import { idschemaArea, idschemaSchemas as schemas } from '../../subgraphs/masterdata/idschema/index.js';
import { operation } from '../operations.js';
import { defineRoute, type RestRoute, timestamp } from '../route.js';

const PREFIX = '/v1/masterdata/idschema';
const { codeFor } = idschemaArea;
const code = (rootField: string) => (field: string, missing: boolean) => codeFor(field, missing, rootField);

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
  updatedOn: updatedAt ? timestamp(updatedAt) : null,
});

const queryId = (req: Request) => (typeof req.query.id === 'string' ? req.query.id : '');

export const idschemaRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: PREFIX,
    summary: 'Create a draft ID schema',
    id: 'platform.idschema.create',
    input: { from: 'envelope', schema: schemas.createIdSchema },
    operation: operation(ops.IdSchemaCreateDocument),
    variables: (input) => input,
    response: record,
    result: (data) => toRecord(data.createIdSchema),
    codeFor: code('createIdSchema'),
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'put',
    path: PREFIX,
    summary: 'Rewrite a draft ID schema (?id=)',
    id: 'platform.idschema.update',
    input: { from: 'envelope', schema: schemas.createIdSchema },
    operation: operation(ops.IdSchemaUpdateDocument),
    variables: (input, req) => ({ ...input, id: queryId(req) }),
    response: record,
    result: (data) => toRecord(data.updateIdSchema),
    codeFor: code('updateIdSchema'),
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'delete',
    path: PREFIX,
    summary: 'Delete a draft ID schema (?id=)',
    id: 'platform.idschema.delete',
    input: { from: 'query', schema: schemas.deleteIdSchema },
    operation: operation(ops.IdSchemaDeleteDocument),
    variables: (input) => input,
    response: z.string(),
    result: (data) => data.deleteIdSchema,
    codeFor: code('deleteIdSchema'),
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'put',
    path: `${PREFIX}/publish`,
    summary: 'Publish a draft ID schema from effectiveFrom (idVersion goes up)',
    id: 'platform.idschema.publish',
    input: { from: 'envelope', schema: schemas.publishIdSchema },
    operation: operation(ops.IdSchemaPublishDocument),
    variables: (input) => input,
    response: record,
    result: (data) => toRecord(data.publishIdSchema),
    codeFor: code('publishIdSchema'),
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/all`,
    summary: 'ID schemas, paged (orderBy, pageNumber, pageSize, sortBy)',
    id: 'platform.idschema.read',
    input: { from: 'query', schema: schemas.idSchemaPage },
    operation: operation(ops.IdSchemaAllDocument),
    variables: (input) => input,
    response: z.object({ data: z.array(record), pageNo: z.number(), totalItems: z.number(), totalPages: z.number() }),
    result: (data) => ({ ...data.idSchemaPage, data: data.idSchemaPage.data.map(toRecord) }),
    codeFor: code('idSchemaPage'),
    internalErrorCode: 'KER-MSD-500',
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/latest`,
    summary: 'The latest published ID schema, or the one of ?schemaVersion= (its idVersion)',
    id: 'platform.idschema.read',
    input: { from: 'query', schema: schemas.latestIdSchema },
    operation: operation(ops.IdSchemaLatestDocument),
    variables: (input) => input,
    response: record,
    result: (data) => toRecord(data.latestIdSchema),
    codeFor: code('latestIdSchema'),
    internalErrorCode: 'KER-MSD-500',
  }),
];
