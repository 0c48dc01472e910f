import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { code, documentInput, documentsCodeFor as codeFor, documentsSchemas as schemas } from '../../subgraphs/masterdata/documents/inputs.js';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, type RestRoute } from '../route.js';

const PREFIX = '/v1/masterdata';
const internalErrorCode = 'KER-MSD-500';

/** A category or type as MOSIP's lists show it. */
interface Brief {
  code: string;
  langCode: string;
  name: string;
  description: string | null;
  isActive: boolean;
}

/** With its audit fields, as the graph gives them. */
interface Audited extends Brief {
  createdAt: Date | string;
  createdBy: { userId: string } | null;
  updatedAt: Date | string | null;
  updatedBy: { userId: string } | null;
}

const briefShape = z.object({ code: z.string(), langCode: z.string(), name: z.string(), description: z.string().nullable(), isActive: z.boolean() });
const auditedShape = briefShape.extend({
  createdBy: z.string().nullable(),
  createdDateTime: z.string(),
  updatedBy: z.string().nullable(),
  updatedDateTime: z.string().nullable(),
  isDeleted: z.boolean(),
  deletedDateTime: z.string().nullable(),
});
/** MOSIP's older snake_case shape of a document type (GET /documentcategorytypes, /doccattypes). */
const legacyShape = z.object({ code: z.string(), name: z.string(), descr: z.string().nullable(), lang_code: z.string(), is_active: z.boolean() });
const pageShape = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), fromRecord: z.number(), toRecord: z.number(), totalRecord: z.number() });
const filtersShape = z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string() })) });
const keyShape = z.object({ code: z.string(), langCode: z.string() });
const mappingShape = z.object({ status: z.string(), message: z.string() });

const instant = (value: Date | string | null) => (value === null ? null : typeof value === 'string' ? value : value.toISOString());
const brief = ({ code, langCode, name, description, isActive }: Brief) => ({ code, langCode, name, description, isActive });
const legacy = (row: Brief) => ({ code: row.code, name: row.name, descr: row.description, lang_code: row.langCode, is_active: row.isActive });
/** MOSIP's audit names; the graph shows live rows only, so never deleted. */
const audited = (row: Audited) => ({
  ...brief(row),
  createdBy: row.createdBy?.userId ?? null,
  createdDateTime: instant(row.createdAt)!,
  updatedBy: row.updatedBy?.userId ?? null,
  updatedDateTime: instant(row.updatedAt),
  isDeleted: false,
  deletedDateTime: null,
});

const route = <Input, Data, Variables, Response extends z.ZodType>(
  spec: Omit<RestRoute<Input, Data, Variables, Response>, 'codeFor' | 'internalErrorCode' | 'operation' | 'path'> & {
    path: string;
    document: TypedDocumentNode<Data, Variables>;
  },
) => {
  const { document, path, ...rest } = spec;
  return defineRoute<Input, Data, Variables, Response>({ ...rest, path: PREFIX + path, operation: operation(document), codeFor, internalErrorCode });
};

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
  answer: (data: Data) => z.input<typeof mappingShape>,
) =>
  route({
    method: 'put',
    path: `/validdocuments/${verb}/{doccategorycode}/{doctypecode}`,
    summary: verb === 'map' ? 'Map a document type to a document category' : 'Unmap a document type from a document category',
    id: `platform.masterdata.validdocument.${verb}`,
    input: { from: 'none' },
    document,
    variables: (_input, req) => ({ docCategoryCode: pathParam(req, 'doccategorycode'), docTypeCode: pathParam(req, 'doctypecode') }),
    response: mappingShape,
    result: answer,
  });

export const documentsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/documentcategories',
    summary: 'Create a document category in a language',
    id: 'platform.masterdata.documentcategory.create',
    input: { from: 'envelope', schema: documentInput },
    document: ops.DocumentsCreateCategoryDocument,
    variables: (input) => ({ input }),
    response: keyShape,
    result: (data) => data.createDocumentCategory,
  }),
  route({
    method: 'put',
    path: '/documentcategories',
    summary: 'Update a document category in a language',
    id: 'platform.masterdata.documentcategory.update',
    input: { from: 'envelope', schema: documentInput },
    document: ops.DocumentsUpdateCategoryDocument,
    variables: (input) => ({ input }),
    response: keyShape,
    result: (data) => data.updateDocumentCategory,
  }),
  route({
    method: 'get',
    path: '/documentcategories',
    summary: 'Every document category, in every language',
    id: 'platform.masterdata.documentcategory.read',
    input: { from: 'none' },
    document: ops.DocumentsCategoryListDocument,
    variables: () => ({}),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: data.documentCategoryList.map(brief) }),
  }),
  route({
    method: 'get',
    path: '/documentcategories/{code}/{langcode}',
    summary: 'One document category in one language',
    id: 'platform.masterdata.documentcategory.read',
    input: { from: 'none' },
    document: ops.DocumentsCategoryDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: [brief(data.documentCategory)] }),
  }),
  route({
    method: 'get',
    path: '/documentcategories/{langcode}',
    summary: 'The document categories of a language',
    id: 'platform.masterdata.documentcategory.read',
    input: { from: 'none' },
    document: ops.DocumentsCategoryListDocument,
    variables: (_input, req) => ({ langCode: pathParam(req, 'langcode') }),
    response: z.object({ documentcategories: z.array(briefShape) }),
    result: (data) => ({ documentcategories: data.documentCategoryList.map(brief) }),
  }),
  route({
    method: 'delete',
    path: '/documentcategories/{code}',
    summary: 'Delete a document category in every language',
    id: 'platform.masterdata.documentcategory.delete',
    input: { from: 'none' },
    document: ops.DocumentsDeleteCategoryDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code') }),
    response: z.object({ code: z.string() }),
    result: (data) => ({ code: data.deleteDocumentCategory }),
  }),
  route({
    method: 'post',
    path: '/documentcategories/search',
    summary: 'Search document categories (filter columns Name and Status, also name, isActive, code, langCode, description)',
    id: 'platform.masterdata.documentcategory.search',
    input: { from: 'envelope', schema: schemas.searchDocumentCategories.shape.input },
    document: ops.DocumentsSearchCategoriesDocument,
    variables: (input) => ({ input }),
    response: pageShape(auditedShape),
    result: ({ searchDocumentCategories: page }) => ({ ...page, data: page.data.map(audited) }),
  }),
  route({
    method: 'post',
    path: '/documentcategories/filtervalues',
    summary: 'The values of document category columns, for filter lists',
    id: 'platform.masterdata.documentcategory.filtervalues',
    input: { from: 'envelope', schema: schemas.documentCategoryFilterValues.shape.input },
    document: ops.DocumentsCategoryFilterValuesDocument,
    variables: (input) => ({ input }),
    response: filtersShape,
    result: (data) => data.documentCategoryFilterValues,
  }),
  route({
    method: 'post',
    path: '/documenttype',
    summary: 'Create a document type in a language',
    id: 'platform.masterdata.documenttype.create',
    input: { from: 'envelope', schema: documentInput },
    document: ops.DocumentsCreateTypeDocument,
    variables: (input) => ({ input }),
    response: auditedShape,
    result: (data) => audited(data.createDocumentType),
  }),
  route({
    method: 'put',
    path: '/documenttype',
    summary: 'Update a document type in a language',
    id: 'platform.masterdata.documenttype.update',
    input: { from: 'envelope', schema: documentInput },
    document: ops.DocumentsUpdateTypeDocument,
    variables: (input) => ({ input }),
    response: auditedShape,
    result: (data) => audited(data.updateDocumentType),
  }),
  route({
    method: 'delete',
    path: '/documenttypes/{code}',
    summary: 'Delete a document type in every language',
    id: 'platform.masterdata.documenttype.delete',
    input: { from: 'none' },
    document: ops.DocumentsDeleteTypeDocument,
    variables: (_input, req) => ({ code: pathParam(req, 'code') }),
    response: z.object({ code: z.string() }),
    result: (data) => ({ code: data.deleteDocumentType }),
  }),
  route({
    method: 'get',
    path: '/documenttypes/{documentcategorycode}/{langcode}',
    summary: 'The document types valid for a category, in a language',
    id: 'platform.masterdata.documenttype.read',
    input: { from: 'none' },
    document: ops.DocumentsValidTypesDocument,
    variables: (_input, req) => ({ categoryCode: pathParam(req, 'documentcategorycode'), langCode: pathParam(req, 'langcode') }),
    response: z.object({ documenttypes: z.array(briefShape) }),
    result: (data) => ({ documenttypes: data.validDocumentTypes.map(brief) }),
  }),
  route({
    method: 'get',
    path: '/documentcategorytypes',
    summary: 'Every document type, in every language',
    id: 'platform.masterdata.documenttype.read',
    input: { from: 'none' },
    document: ops.DocumentsTypeListDocument,
    variables: () => ({}),
    response: z.object({ documenttypes: z.array(legacyShape) }),
    result: (data) => ({ documenttypes: data.documentTypeList.map(legacy) }),
  }),
  route({
    method: 'get',
    path: '/doccattypes',
    summary: 'The document categories and types of the applicant type of an individual type, age group and gender',
    id: 'platform.masterdata.doccattypes',
    input: { from: 'query', schema: docCatTypesQuery },
    document: ops.DocumentsApplicantDocumentsDocument,
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
    id: 'platform.masterdata.checkapptypedoccattypedoctype',
    input: { from: 'query', schema: checkQuery },
    document: ops.DocumentsCheckApplicantDocumentDocument,
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
    id: 'platform.masterdata.documenttype.search',
    input: { from: 'envelope', schema: schemas.searchDocumentTypes.shape.input },
    document: ops.DocumentsSearchTypesDocument,
    variables: (input) => ({ input }),
    response: pageShape(auditedShape),
    result: ({ searchDocumentTypes: page }) => ({ ...page, data: page.data.map(audited) }),
  }),
  route({
    method: 'post',
    path: '/documenttypes/filtervalues',
    summary: 'The values of document type columns, for filter lists',
    id: 'platform.masterdata.documenttype.filtervalues',
    input: { from: 'envelope', schema: schemas.documentTypeFilterValues.shape.input },
    document: ops.DocumentsTypeFilterValuesDocument,
    variables: (input) => ({ input }),
    response: filtersShape,
    result: (data) => data.documentTypeFilterValues,
  }),
  mappingRoute('map', ops.DocumentsMapValidDocumentDocument, (data) => data.mapValidDocument),
  mappingRoute('unmap', ops.DocumentsUnmapValidDocumentDocument, (data) => data.unmapValidDocument),
];
