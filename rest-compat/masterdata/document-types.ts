import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { documentInput, documentsSchemas as schemas } from '../../subgraphs/masterdata/documents/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { audited, auditedShape, brief, briefShape, filtersShape, legacy, legacyShape, mapRows, route, searchPageShape } from './shared.js';

export const documentTypesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/documenttype',
    summary: 'Create a document type in a language',
    idSuffix: 'documenttype.create',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsCreateTypeDocument,
    response: auditedShape,
    result: (data) => audited(data.createDocumentType),
  }),
  route({
    method: 'put',
    path: '/documenttype',
    summary: 'Update a document type in a language',
    idSuffix: 'documenttype.update',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsUpdateTypeDocument,
    response: auditedShape,
    result: (data) => audited(data.updateDocumentType),
  }),
  route({
    method: 'delete',
    path: '/documenttypes/{code}',
    summary: 'Delete a document type in every language',
    idSuffix: 'documenttype.delete',
    operation: ops.DocumentsDeleteTypeDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code') }),
    response: z.object({ code: z.string() }),
    result: (data) => ({ code: data.deleteDocumentType }),
  }),
  route({
    method: 'get',
    path: '/documenttypes/{documentcategorycode}/{langcode}',
    summary: 'The document types valid for a category, in a language',
    idSuffix: 'documenttype.read',
    operation: ops.DocumentsValidTypesDocument,
    variables: (_input, req) => ({ categoryCode: pathParam(req, 'documentcategorycode'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ documenttypes: z.array(briefShape) }),
    result: (data) => ({ documenttypes: data.validDocumentTypes.map(brief) }),
  }),
  route({
    method: 'get',
    path: '/documentcategorytypes',
    summary: 'Every document type, in every language',
    idSuffix: 'documenttype.read',
    operation: ops.DocumentsTypeListDocument,
    response: z.object({ documenttypes: z.array(legacyShape) }),
    result: (data) => ({ documenttypes: data.documentTypeList.map(legacy) }),
  }),
  route({
    method: 'post',
    path: '/documenttypes/search',
    summary: 'Search document types (filter columns code, name, status or isActive, langCode, description)',
    idSuffix: 'documenttype.search',
    input: { from: 'envelope', schema: schemas.searchDocumentTypes.shape.input },
    operation: ops.DocumentsSearchTypesDocument,
    response: searchPageShape(auditedShape),
    result: (data) => mapRows(data.searchDocumentTypes, audited),
  }),
  route({
    method: 'post',
    path: '/documenttypes/filtervalues',
    summary: 'The values of document type columns, for filter lists',
    idSuffix: 'documenttype.filtervalues',
    input: { from: 'envelope', schema: schemas.documentTypeFilterValues.shape.input },
    operation: ops.DocumentsTypeFilterValuesDocument,
    response: filtersShape,
  }),
];
