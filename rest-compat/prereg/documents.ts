import { z } from 'zod';
import * as ops from '../../generated/graphql/prereg.operations.js';
import { pathParam, type RestRoute, type UploadInput } from '../route.js';
import { preregRoute } from './shared.js';

/** A parameter as given, or null when absent or empty (the rules answer PRG_CORE_REQ_001 for a missing one). */
const given = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : (value as string));

/** The multipart upload: part `file` spooled by the edge, part `Document request` the envelope, whose request the schema reads. */
const uploadInput: z.ZodType<UploadInput & { request: Record<string, unknown> }> = z.object({
  fields: z.record(z.string(), z.string()),
  upload: z.object({ id: z.string(), filename: z.string(), size: z.number(), sha256: z.string(), truncated: z.boolean() }).optional(),
  // refNumber is the number written on the document, which the portal leaves out or empty when the applicant gave none.
  request: z.object({ docCatCode: z.unknown(), docTypCode: z.unknown(), langCode: z.unknown(), refNumber: z.unknown().optional() }),
});

const documentOnly = z.object({ preRegistrationId: z.string().optional() });

const uploaded = z.object({
  preRegistrationId: z.string(),
  docId: z.string(),
  docName: z.string(),
  docCatCode: z.string(),
  docTypCode: z.string(),
  docFileFormat: z.string(),
});

interface DocumentFields {
  documentId: string;
  preRegistrationId: string;
  docName: string;
  docCatCode: string;
  docTypCode: string;
  docFileFormat: string;
  refNumber?: string | null;
}
const uploadedOf = ({ documentId, preRegistrationId, docName, docCatCode, docTypCode, docFileFormat }: DocumentFields) => ({
  preRegistrationId,
  docId: documentId,
  docName,
  docCatCode,
  docTypCode,
  docFileFormat,
});

const deleted = z.object({ message: z.string() });

/** An application's documents (MOSIP 1.2's /documents paths: upload, metadata, content, delete, copy, reference number). */
export const documentsRoutes: RestRoute[] = [
  preregRoute({
    method: 'post',
    path: '/documents/{preRegistrationId}',
    summary:
      'Uploads a document of a category for the applicant’s own application (multipart: `file`, and `Document request` the envelope as JSON text); replaces that category’s document',
    idSuffix: 'document.upload',
    input: { from: 'upload', schema: uploadInput, envelope: { field: 'Document request' } },
    operation: ops.PreregUploadDocumentDocument,
    variables: ({ upload, request }, req) => ({
      preRegistrationId: pathParam(req, 'preRegistrationId'),
      docCatCode: given(request.docCatCode),
      docTypCode: given(request.docTypCode),
      langCode: given(request.langCode),
      refNumber: request.refNumber === '' ? null : given(request.refNumber),
      fileName: upload ? upload.filename : null,
      stagedUploadId: upload ? upload.id : null,
    }),
    response: uploaded,
    result: ({ uploadPreRegistrationDocument: document }) => uploadedOf(document),
  }),
  preregRoute({
    method: 'get',
    path: '/documents/preregistration/{preRegistrationId}',
    summary: 'The metadata of an application’s documents',
    idSuffix: 'document.fetch.metadata',
    operation: ops.PreregDocumentsDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: z.object({
      documentsMetaData: z.array(
        z.object({
          docName: z.string(),
          documentId: z.string(),
          docCatCode: z.string(),
          docTypCode: z.string(),
          langCode: z.string(),
          refNumber: z.string().nullable(),
        }),
      ),
    }),
    result: ({ preRegistrationDocuments }) => ({
      documentsMetaData: preRegistrationDocuments.map(({ docName, documentId, docCatCode, docTypCode, langCode, refNumber }) => ({
        docName,
        documentId,
        docCatCode,
        docTypCode,
        langCode,
        refNumber: refNumber ?? null,
      })),
    }),
  }),
  preregRoute({
    method: 'get',
    path: '/documents/{documentId}',
    summary: 'One document’s bytes, base64 (`preRegistrationId` required)',
    idSuffix: 'document.fetch.content',
    input: { from: 'query', schema: documentOnly },
    operation: ops.PreregDocumentContentDocument,
    variables: ({ preRegistrationId }, req) => ({ preRegistrationId: given(preRegistrationId), documentId: pathParam(req, 'documentId') }),
    response: z.object({ document: z.string() }),
    result: ({ preRegistrationDocumentContent: content }) => ({ document: content.document }),
  }),
  preregRoute({
    method: 'delete',
    path: '/documents/{documentId}',
    summary: 'Deletes one document of the applicant’s own application, its file too (`preRegistrationId` required)',
    idSuffix: 'document.delete',
    input: { from: 'query', schema: documentOnly },
    operation: ops.PreregDeleteDocumentDocument,
    variables: ({ preRegistrationId }, req) => ({ preRegistrationId: given(preRegistrationId), documentId: pathParam(req, 'documentId') }),
    response: deleted,
    result: ({ deletePreRegistrationDocument: answer }) => ({ message: answer.message }),
  }),
  preregRoute({
    method: 'delete',
    path: '/documents/preregistration/{preRegistrationId}',
    summary: 'Deletes every document of the applicant’s own application',
    idSuffix: 'document.delete.all',
    operation: ops.PreregDeleteDocumentsDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: deleted,
    result: ({ deletePreRegistrationDocuments: answer }) => ({ message: answer.message }),
  }),
  preregRoute({
    method: 'put',
    path: '/documents/{preRegistrationId}',
    summary: 'Copies the proof of address (`catCode=POA`) of the applicant’s application `sourcePreId` into this one of theirs',
    idSuffix: 'document.copy',
    input: { from: 'query', schema: z.object({ catCode: z.string().optional(), sourcePreId: z.string().optional() }) },
    operation: ops.PreregCopyDocumentDocument,
    variables: ({ catCode, sourcePreId }, req) => ({
      preRegistrationId: pathParam(req, 'preRegistrationId'),
      sourcePreRegistrationId: given(sourcePreId),
      docCatCode: given(catCode),
    }),
    response: uploaded.extend({ refNumber: z.string().nullable() }),
    result: ({ copyPreRegistrationDocument: document }) => ({ ...uploadedOf(document), refNumber: document.refNumber ?? null }),
  }),
  preregRoute({
    method: 'put',
    path: '/documents/document/{documentId}',
    summary: 'Sets the number written on a document (`preRegistrationId` and `refNumber` required)',
    idSuffix: 'document.update.refnumber',
    input: { from: 'query', schema: z.object({ preRegistrationId: z.string().optional(), refNumber: z.string().optional() }) },
    operation: ops.PreregUpdateDocumentReferenceDocument,
    variables: ({ preRegistrationId, refNumber }, req) => ({
      preRegistrationId: given(preRegistrationId),
      documentId: pathParam(req, 'documentId'),
      refNumber: given(refNumber),
    }),
    // MOSIP's answer, misspelt as its clients read it.
    response: z.string(),
    result: () => 'STATUS_UPDATED_SUCESSFULLY',
  }),
];
