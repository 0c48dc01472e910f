/** A document's row as storage keeps it: its name and number sealed, its bytes sealed in the object store. */
export interface StoredDocument {
  id: string;
  preRegId: string;
  docCatCode: string;
  docTypeCode: string;
  langCode: string;
  /** the file name, sealed for the document */
  docName: string;
  docFileFormat: string;
  /** the number on the document, sealed for it; null when none was given */
  refNumber: string | null;
  objectKey: string;
  /** the HASH key's HMAC of the plain bytes, bound to the document */
  hash: string;
  size: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date | null;
}

/** A document as its readers see it (a PreRegistrationDocument): the metadata opened. */
export interface DocumentModel {
  documentId: string;
  preRegistrationId: string;
  docName: string;
  docCatCode: string;
  docTypCode: string;
  langCode: string;
  docFileFormat: string;
  refNumber: string | null;
  uploadedDateTime: Date;
}

export interface DocumentContentModel {
  documentId: string;
  preRegistrationId: string;
  /** base64 */
  document: string;
}

/** What an answer that only acts carries (PreRegistrationMessage). */
export interface DocumentMessage {
  message: string;
  status: string;
}

/** An upload, through either door: the REST file spooled by the edge, or a GraphQL caller's base64. */
export interface UploadInput {
  preRegistrationId: string;
  docCatCode: string;
  docTypCode: string;
  langCode: string;
  refNumber?: string | null;
  fileName?: string | null;
  content?: string | null;
  stagedUploadId?: string | null;
}

/** How a write that needs the application unlocked came out (the application's row is locked while it runs). */
export type Locked<T> = { done: true; value: T } | { done: false; statusCode: string | null };
