import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { documentInput, documentsSchemas as schemas } from '../../subgraphs/masterdata/documents/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { audited, auditedShape, brief, briefShape, filtersShape, mapRows, route, searchPageShape } from './shared.js';

const keyShape = z.object({ code: z.string(), langCode: z.string() });

export const documentCategoriesRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/documentcategories',
    summary: 'Create a document category in a language',
    idSuffix: 'documentcategory.create',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsCreateCategoryDocument,
    response: keyShape,
  }),
  route({
    method: 'put',
    path: '/documentcategories',
    summary: 'Update a document category in a language',
    idSuffix: 'documentcategory.update',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsUpdateCategoryDocument,
    response: keyShape,
  }),
  route({
    method: 'get',
    path: '/documentcategories',
    summary: 'Every document category, in every language',
    idSuffix: 'documentcategory.read',
    operation: ops.DocumentsCategoryListDocument,
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: data.documentCategoryList.map(brief) }),
  }),
  route({
    method: 'get',
    path: '/documentcategories/{code}/{langcode}',
    summary: 'One document category in one language',
    idSuffix: 'documentcategory.read',
    operation: ops.DocumentsCategoryDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: [brief(data.documentCategory)] }),
  }),
  route({
    method: 'get',
    path: '/documentcategories/{langcode}',
    summary: 'The document categories of a language',
    idSuffix: 'documentcategory.read',
    operation: ops.DocumentsCategoryListDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: data.documentCategoryList.map(brief) }),
  }),
  route({
    method: 'delete',
    path: '/documentcategories/{code}',
    summary: 'Delete a document category in every language',
    idSuffix: 'documentcategory.delete',
    operation: ops.DocumentsDeleteCategoryDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code') }),
    response: z.object({ code: z.string() }),
    result: (data) => ({ code: data.deleteDocumentCategory }),
  }),
  route({
    method: 'post',
    path: '/documentcategories/search',
    summary: 'Search document categories (filter columns Name and Status, also name, isActive, code, langCode, description)',
    idSuffix: 'documentcategory.search',
    input: { from: 'envelope', schema: schemas.searchDocumentCategories.shape.input },
    operation: ops.DocumentsSearchCategoriesDocument,
    response: searchPageShape(auditedShape),
    result: (data) => mapRows(data.searchDocumentCategories, audited),
  }),
  route({
    method: 'post',
    path: '/documentcategories/filtervalues',
    summary: 'The values of document category columns, for filter lists',
    idSuffix: 'documentcategory.filtervalues',
    input: { from: 'envelope', schema: schemas.documentCategoryFilterValues.shape.input },
    operation: ops.DocumentsCategoryFilterValuesDocument,
    response: filtersShape,
  }),
];
