import { randomBytes, timingSafeEqual } from 'node:crypto';
import { PlatformError } from '../../../lib/errors.js';
import type { PreregCipher } from '../cipher.js';
import { requestErrors } from '../errors.js';
import type { DocumentModel, StoredDocument } from './types.js';

/** What the cipher does for documents (PreregCipher; a stand-in in unit tests). */
export type DocumentCipher = Pick<PreregCipher, 'encrypt' | 'decrypt' | 'hash'>;

/** Where each sealed part of a document is bound: moved to another document or application, it does not decrypt. */
const contexts = (preRegId: string, docId: string) => ({
  content: `prereg.document:${preRegId}:${docId}`,
  name: `prereg.document.name:${preRegId}:${docId}`,
  refNumber: `prereg.document.ref:${preRegId}:${docId}`,
});

/**
 * Where a version of a document lies in the object store: the application's
 * and the document's ids and a random suffix (a new version never overwrites
 * the one its row still names), nothing the applicant wrote.
 */
export const objectKeyOf = (preRegId: string, docId: string) => `prereg/documents/${preRegId}/${docId}.${randomBytes(8).toString('hex')}`;

/** A document's plain parts, to be sealed for one document of one application. */
export interface PlainDocument {
  bytes: Buffer;
  docName: string;
  refNumber: string | null;
}

export interface SealedDocument {
  /** what the object store keeps */
  object: Buffer;
  docName: string;
  refNumber: string | null;
  hash: string;
}

/** A document's bytes, name and number sealed for it (AES-256-GCM bound to the document), with the HMAC of its bytes. */
export function sealDocument(cipher: DocumentCipher, preRegId: string, docId: string, plain: PlainDocument): SealedDocument {
  const bound = contexts(preRegId, docId);
  return {
    object: Buffer.from(cipher.encrypt(plain.bytes, bound.content), 'utf8'),
    docName: cipher.encrypt(Buffer.from(plain.docName, 'utf8'), bound.name),
    refNumber: plain.refNumber === null ? null : cipher.encrypt(Buffer.from(plain.refNumber, 'utf8'), bound.refNumber),
    hash: cipher.hash(plain.bytes, bound.content),
  };
}

/** A number for a document, sealed for it. */
export const sealRefNumber = (cipher: DocumentCipher, preRegId: string, docId: string, refNumber: string) =>
  cipher.encrypt(Buffer.from(refNumber, 'utf8'), contexts(preRegId, docId).refNumber);

/** The metadata of a row, its name and number opened (PRG_PAM_CORE_012 when they do not decrypt). */
export async function openMetadata(cipher: DocumentCipher, row: StoredDocument): Promise<DocumentModel> {
  const bound = contexts(row.preRegId, row.id);
  const text = async (value: string, context: string) => (await cipher.decrypt(value, context)).toString('utf8');
  return {
    documentId: row.id,
    preRegistrationId: row.preRegId,
    docName: await text(row.docName, bound.name),
    docCatCode: row.docCatCode,
    docTypCode: row.docTypeCode,
    langCode: row.langCode,
    docFileFormat: row.docFileFormat,
    refNumber: row.refNumber === null ? null : await text(row.refNumber, bound.refNumber),
    uploadedDateTime: row.updatedAt ?? row.createdAt,
  };
}

/** A document's bytes out of their sealed object: PRG_CORE_REQ_012 when they do not decrypt, PRG_CORE_REQ_010 when they fail their HMAC. */
export async function openContent(cipher: DocumentCipher, row: StoredDocument, object: Buffer): Promise<Buffer> {
  const context = contexts(row.preRegId, row.id).content;
  const plain = await cipher.decrypt(object.toString('utf8'), context).catch((error: unknown) => {
    throw error instanceof PlatformError ? requestErrors.decrypt('content') : error;
  });
  const actual = Buffer.from(cipher.hash(plain, context), 'hex');
  const expected = Buffer.from(row.hash, 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw requestErrors.hash('content');
  return plain;
}
