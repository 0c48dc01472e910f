import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import * as ops from '../../generated/graphql/masterdata.operations.js';
import { code } from '../../subgraphs/masterdata/documents/inputs.js';
import type { PayloadResults } from '../operations.js';
import { pathParam, type RestRoute } from '../route.js';
import { brief, briefShape, legacy, legacyShape, route } from './shared.js';

// Which documents an applicant may present: the valid documents of a category and the applicant types' rules.

const mappingShape = z.object({ status: z.string(), message: z.string() });

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
    operation: document,
    variables: (_input, req) => ({ docCategoryCode: pathParam(req, 'doccategorycode'), docTypeCode: pathParam(req, 'doctypecode') }),
    response: mappingShape,
    result: answer,
  });

export const validDocumentsRoutes: RestRoute[] = [
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
  mappingRoute('map', ops.DocumentsMapValidDocumentDocument, (data) => data.mapValidDocument),
  mappingRoute('unmap', ops.DocumentsUnmapValidDocumentDocument, (data) => data.unmapValidDocument),
];
