import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { code, documentInput, documentsSchemas as schemas } from '../../subgraphs/masterdata/documents/inputs.js';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import type { PayloadResults } from '../operations.js';
import { auditFields, auditShape, type AuditSource } from '../audit.js';
import { pathParam, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';
import { mapRows, MASTERDATA, searchPageShape } from './shared.js';

const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.masterdata.' });

/** A category or type as MOSIP's lists show it. */
interface Brief {
  code: string;
  langCode: string;
  name: string;
  description: string | null;
  isActive: boolean;
}

const briefShape = z.object({ code: z.string(), langCode: z.string(), name: z.string(), description: z.string().nullable(), isActive: z.boolean() });
const auditedShape = briefShape.extend(auditShape);
/** MOSIP's older snake_case shape of a document type (GET /documentcategorytypes, /doccattypes). */
const legacyShape = z.object({ code: z.string(), name: z.string(), descr: z.string().nullable(), lang_code: z.string(), is_active: z.boolean() });
const filtersShape = z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string() })) });
const keyShape = z.object({ code: z.string(), langCode: z.string() });
const mappingShape = z.object({ status: z.string(), message: z.string() });

const brief = ({ code, langCode, name, description, isActive }: Brief) => ({ code, langCode, name, description, isActive });
const legacy = (row: Brief) => ({ code: row.code, name: row.name, descr: row.description, lang_code: row.langCode, is_active: row.isActive });
const audited = (row: Brief & AuditSource) => ({ ...brief(row), ...auditFields(row) });

/** GET /doccattypes: MOSIP's query names; `languages` may repeat or list codes with commas. */
const docCatTypesQuery = z.object({
  individualtypecode: code,
  agegrouptypecode: code,
  gendertypecode: code,
  languages: z.union([z.string().max(64), z.array(z.string().max(64)).max(10)]).optional(),
});
const languagesOf = (value: string | string[] | undefined) =>
  value === undefined
    ? undefined
    : (Array.isArray(value) ? value : [value])
        .flatMap((item) => item.split(','))
        .map((item) => item.trim())
        .filter(Boolean);

const checkQuery = z.object({ applicanttypecode: code, documentcategorycode: code, documenttypecode: code });

/** Valid-document map and unmap: the two codes from the path. */
const mappingRoute = <Data>(
  verb: 'map' | 'unmap',
  document: TypedDocumentNode<Data, { docCategoryCode: string; docTypeCode: string }>,
  answer: (data: PayloadResults<Data>) => z.input<typeof mappingShape>,
) =>
  route({
    method: 'put',
    path: `/validdocuments/${verb}/{doccategorycode}/{doctypecode}`,
    summary: verb === 'map' ? 'Map a document type to a document category' : 'Unmap a document type from a document category',
    idSuffix: `validdocument.${verb}`,
    input: { from: 'none' },
    operation: document,
    variables: (_input, req) => ({ docCategoryCode: pathParam(req, 'doccategorycode'), docTypeCode: pathParam(req, 'doctypecode') }),
    response: mappingShape,
    result: answer,
  });

export const documentsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/documentcategories',
    summary: 'Create a document category in a language',
    idSuffix: 'documentcategory.create',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsCreateCategoryDocument,
    variables: (input) => ({ input }),
    response: keyShape,
    result: (data) => data.createDocumentCategory,
  }),
  route({
    method: 'put',
    path: '/documentcategories',
    summary: 'Update a document category in a language',
    idSuffix: 'documentcategory.update',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsUpdateCategoryDocument,
    variables: (input) => ({ input }),
    response: keyShape,
    result: (data) => data.updateDocumentCategory,
  }),
  route({
    method: 'get',
    path: '/documentcategories',
    summary: 'Every document category, in every language',
    idSuffix: 'documentcategory.read',
    input: { from: 'none' },
    operation: ops.DocumentsCategoryListDocument,
    variables: () => ({}),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: data.documentCategoryList.map(brief) }),
  }),
  route({
    method: 'get',
    path: '/documentcategories/{code}/{langcode}',
    summary: 'One document category in one language',
    idSuffix: 'documentcategory.read',
    input: { from: 'none' },
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
    input: { from: 'none' },
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
    input: { from: 'none' },
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
    variables: (input) => ({ input }),
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
    variables: (input) => ({ input }),
    response: filtersShape,
    result: (data) => data.documentCategoryFilterValues,
  }),
  route({
    method: 'post',
    path: '/documenttype',
    summary: 'Create a document type in a language',
    idSuffix: 'documenttype.create',
    input: { from: 'envelope', schema: documentInput },
    operation: ops.DocumentsCreateTypeDocument,
    variables: (input) => ({ input }),
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
    variables: (input) => ({ input }),
    response: auditedShape,
    result: (data) => audited(data.updateDocumentType),
  }),
  route({
    method: 'delete',
    path: '/documenttypes/{code}',
    summary: 'Delete a document type in every language',
    idSuffix: 'documenttype.delete',
    input: { from: 'none' },
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
    input: { from: 'none' },
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
    input: { from: 'none' },
    operation: ops.DocumentsTypeListDocument,
    variables: () => ({}),
    response: z.object({ documenttypes: z.array(legacyShape) }),
    result: (data) => ({ documenttypes: data.documentTypeList.map(legacy) }),
  }),
  route({
    method: 'get',
    path: '/doccattypes',
    summary: 'The document categories and types of the applicant type of an individual type, age group and gender',
    idSuffix: 'doccattypes',
    input: { from: 'query', schema: docCatTypesQuery },
    operation: ops.DocumentsApplicantDocumentsDocument,
    variables: (input) => ({
      individualTypeCode: input.individualtypecode,
      ageGroupTypeCode: input.agegrouptypecode,
      genderTypeCode: input.gendertypecode,
      languages: languagesOf(input.languages),
    }),
    response: z.object({ documentcategories: z.array(briefShape.extend({ documenttype: z.array(legacyShape) })) }),
    result: (data) => ({
      documentcategories: data.applicantDocuments.documentCategories.map((entry) => ({
        ...brief(entry.category),
        documenttype: entry.documentTypes.map(legacy),
      })),
    }),
  }),
  route({
    method: 'get',
    path: '/checkapptypedoccattypedoctype',
    summary: 'Whether an applicant type may present a document category and type',
    idSuffix: 'checkapptypedoccattypedoctype',
    input: { from: 'query', schema: checkQuery },
    operation: ops.DocumentsCheckApplicantDocumentDocument,
    variables: (input) => ({
      applicantTypeCode: input.applicanttypecode,
      documentCategoryCode: input.documentcategorycode,
      documentTypeCode: input.documenttypecode,
    }),
    response: z.object({ resultMessage: z.string() }),
    result: (data) => ({ resultMessage: data.checkApplicantDocument }),
  }),
  route({
    method: 'post',
    path: '/documenttypes/search',
    summary: 'Search document types (filter columns code, name, status or isActive, langCode, description)',
    idSuffix: 'documenttype.search',
    input: { from: 'envelope', schema: schemas.searchDocumentTypes.shape.input },
    operation: ops.DocumentsSearchTypesDocument,
    variables: (input) => ({ input }),
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
    variables: (input) => ({ input }),
    response: filtersShape,
    result: (data) => data.documentTypeFilterValues,
  }),
  mappingRoute('map', ops.DocumentsMapValidDocumentDocument, (data) => data.mapValidDocument),
  mappingRoute('unmap', ops.DocumentsUnmapValidDocumentDocument, (data) => data.unmapValidDocument),
];
