import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../../../lib/object-store/index.js';
import type { Clock } from '../../../lib/time.js';
import type { ApplicationsService } from '../applications/service.js';
import type { ApplicationRow, Caller } from '../applications/types.js';
import type { PreregRules } from '../configuration/service.js';
import { applicationErrors, documentErrors, requestErrors } from '../errors.js';
import { LOCKED } from '../statuses.js';
import { checkFilePresent, receiveFile, type FileParts } from './receive-file.js';
import { objectKeyOf, openContent, openMetadata, sealDocument, sealRefNumber, type DocumentCipher, type PlainDocument } from './sealing.js';
import type { DocumentStore } from './storage.js';
import type { DocumentContentModel, DocumentMessage, DocumentModel, Locked, StoredDocument, UploadInput } from './types.js';

/** The most documents an application holds (one per category), and what its list answers whole. */
export const MAX_DOCUMENTS = 100;
/** The only category copied from one application to another (MOSIP: a family shares an address). */
const COPIED_CATEGORY = 'POA';
/** Writers racing for a category's first document: the loser takes the winner's id and seals again. */
const SAVE_TRIES = 3;

/** Master data's valid documents, as the rules ask them. */
export interface DocumentCatalogue {
  /** whether the type is valid (mapped and active) for the category */
  isValid(docCatCode: string, docTypeCode: string): Promise<boolean>;
  hasCategory(docCatCode: string): Promise<boolean>;
}

export interface DocumentsParts extends FileParts {
  store: DocumentStore;
  applications: Pick<ApplicationsService, 'reach' | 'documentsChanged'>;
  cipher: DocumentCipher;
  rules: () => PreregRules;
  catalogue: DocumentCatalogue;
  objects: Pick<ObjectStore, 'put' | 'get' | 'delete'>;
  clock: Clock;
}

/** What a document is written as, but for its id and seal. */
type DocumentFacts = Pick<StoredDocument, 'docCatCode' | 'docTypeCode' | 'langCode' | 'docFileFormat'> & PlainDocument;

const message = (text: string): DocumentMessage => ({ message: text, status: 'success' });

/**
 * The documents of an application, one per category: its applicant uploads,
 * replaces, copies and deletes them while the application is not locked
 * (booked, expired, cancelled, fetched: PRG_PAM_DOC_024); the applicant and
 * pre-registration's administrators read them. Bytes, name and number are
 * sealed for the document (the bytes in the object store, under a key that
 * holds nothing the applicant wrote) with the HMAC of the bytes, checked on
 * every read. Each change moves the application between
 * Application_Incomplete and Pending_Appointment by its mandatory categories.
 */
export class ApplicationDocumentsService {
  constructor(private readonly parts: DocumentsParts) {}

  async upload(caller: Caller, input: UploadInput): Promise<DocumentModel> {
    checkFilePresent(input);
    const application = await this.reachUnlocked(caller, input.preRegistrationId);
    await this.checkKind(input.langCode, input.docCatCode, input.docTypCode);
    const file = await receiveFile(this.parts, caller, input, this.parts.rules());
    const facts = { docCatCode: input.docCatCode, docTypeCode: input.docTypCode, langCode: input.langCode, docFileFormat: file.docFileFormat };
    const plain = { bytes: file.bytes, docName: file.fileName, refNumber: input.refNumber ?? null };
    return this.store(caller, application.id, { ...facts, ...plain }, (why) => documentErrors.uploadFailed(why));
  }

  /** Copies the source's proof of address into the destination (both the caller's), sealed anew for it. */
  async copy(caller: Caller, preRegId: string, sourcePreRegId: string, docCatCode: string): Promise<DocumentModel> {
    if (docCatCode !== COPIED_CATEGORY) throw documentErrors.copyCategory(docCatCode);
    const destination = await this.reachUnlocked(caller, preRegId);
    const source = await this.parts.applications.reach(caller, sourcePreRegId, 'change');
    const row = await this.parts.store.ofCategory(source.id, COPIED_CATEGORY);
    if (!row) throw documentErrors.notFound();
    const [metadata, bytes] = await Promise.all([openMetadata(this.parts.cipher, row), this.bytesOf(row)]);
    const facts = { docCatCode: row.docCatCode, docTypeCode: row.docTypeCode, langCode: row.langCode, docFileFormat: row.docFileFormat };
    return this.store(caller, destination.id, { ...facts, bytes, docName: metadata.docName, refNumber: metadata.refNumber }, (why) =>
      documentErrors.copyFailed(why),
    );
  }

  /** The metadata of an application's documents (PRG_PAM_DOC_005 when it has none). */
  async list(caller: Caller, preRegId: string): Promise<DocumentModel[]> {
    const application = await this.parts.applications.reach(caller, preRegId, 'read');
    const rows = await this.parts.store.ofApplication(application.id, MAX_DOCUMENTS + 1);
    if (!rows.length) throw documentErrors.notFound();
    if (rows.length > MAX_DOCUMENTS) throw documentErrors.table();
    return Promise.all(rows.map((row) => openMetadata(this.parts.cipher, row)));
  }

  /** The documents of applications the caller has reached already (an Application's `documents`), by application. */
  async metadataOf(preRegIds: readonly string[]): Promise<Map<string, DocumentModel[]>> {
    const byApplication = new Map<string, DocumentModel[]>(preRegIds.map((id) => [id, []]));
    for (const row of await this.parts.store.ofApplications(preRegIds)) byApplication.get(row.preRegId)?.push(await openMetadata(this.parts.cipher, row));
    return byApplication;
  }

  async content(caller: Caller, preRegId: string, docId: string): Promise<DocumentContentModel> {
    const application = await this.parts.applications.reach(caller, preRegId, 'read');
    const row = await this.documentOf(application, docId, documentErrors.notFound);
    return { documentId: row.id, preRegistrationId: row.preRegId, document: (await this.bytesOf(row)).toString('base64') };
  }

  async deleteOne(caller: Caller, preRegId: string, docId: string): Promise<DocumentMessage> {
    const application = await this.reachUnlocked(caller, preRegId);
    const row = await this.documentOf(application, docId, documentErrors.deleteFailed);
    await this.remove(caller, application.id, [row.id]);
    return message('Document successfully deleted');
  }

  async deleteAll(caller: Caller, preRegId: string): Promise<DocumentMessage> {
    const application = await this.reachUnlocked(caller, preRegId);
    await this.remove(caller, application.id, null);
    return message('All documents associated with the requested pre-registration id were deleted');
  }

  /** Sets the number written on a document (MOSIP's refNumber), sealed for it. */
  async setRefNumber(caller: Caller, preRegId: string, docId: string, refNumber: string): Promise<DocumentModel> {
    const application = await this.reachUnlocked(caller, preRegId);
    const row = await this.documentOf(application, docId, documentErrors.notFound);
    const sealed = sealRefNumber(this.parts.cipher, application.id, row.id, refNumber);
    const updated = this.settled(await this.parts.store.setRefNumber(application.id, row.id, sealed, this.parts.clock.now(), LOCKED));
    if (!updated) throw documentErrors.notFound();
    return openMetadata(this.parts.cipher, updated);
  }

  /** The caller's own application, while its documents may change. */
  private async reachUnlocked(caller: Caller, preRegId: string): Promise<ApplicationRow> {
    const application = await this.parts.applications.reach(caller, preRegId, 'change');
    if (LOCKED.includes(application.statusCode)) throw documentErrors.locked(application.statusCode);
    return application;
  }

  /** The language supported (PRG_CORE_REQ_014), the category known (PRG_CORE_REQ_018) and the type valid for it (PRG_CORE_REQ_017). */
  private async checkKind(langCode: string, docCatCode: string, docTypeCode: string): Promise<void> {
    if (!this.parts.rules().languages.includes(langCode)) throw requestErrors.language(langCode);
    if (await this.parts.catalogue.isValid(docCatCode, docTypeCode)) return;
    if (!(await this.parts.catalogue.hasCategory(docCatCode))) throw documentErrors.category(docCatCode);
    throw documentErrors.type(docTypeCode);
  }

  /** A document of this application: `missing` when there is none, PRG_PAM_DOC_022 when it is another application's. */
  private async documentOf(application: ApplicationRow, docId: string, missing: () => Error): Promise<StoredDocument> {
    const row = await this.parts.store.byId(docId);
    if (!row) throw missing();
    if (row.preRegId !== application.id) throw documentErrors.notOfApplication();
    return row;
  }

  private async bytesOf(row: StoredDocument): Promise<Buffer> {
    const object = await this.parts.objects.get(row.objectKey);
    if (!object) {
      this.parts.logger.error({ preRegId: row.preRegId, documentId: row.id }, "a pre-registration document's file is missing from the object store");
      throw documentErrors.notFound();
    }
    return openContent(this.parts.cipher, row, object);
  }

  /**
   * Seals the document for its application and writes it: the object first,
   * under a key of its own, then the row (its category's id kept); the
   * version replaced is removed once the row names the new one.
   */
  private async store(caller: Caller, preRegId: string, document: DocumentFacts, failed: (why: string) => Error): Promise<DocumentModel> {
    const { bytes, docName, refNumber, ...facts } = document;
    for (let attempt = 0; attempt < SAVE_TRIES; attempt++) {
      const id = (await this.parts.store.ofCategory(preRegId, facts.docCatCode))?.id ?? randomUUID();
      const sealed = sealDocument(this.parts.cipher, preRegId, id, { bytes, docName, refNumber });
      const objectKey = objectKeyOf(preRegId, id);
      await this.parts.objects.put(objectKey, sealed.object).catch((error: unknown) => {
        this.parts.logger.error({ err: error, preRegId }, 'a pre-registration document could not be written to the object store');
        throw failed('the document could not be stored');
      });
      const row = { id, preRegId, ...facts, docName: sealed.docName, refNumber: sealed.refNumber, objectKey, hash: sealed.hash, size: bytes.length };
      const now = this.parts.clock.now();
      const outcome = await this.parts.store.save({ ...row, createdBy: caller.subject }, now, LOCKED, MAX_DOCUMENTS).catch(async (error: unknown) => {
        await this.discard(objectKey);
        throw error;
      });
      if (!outcome.done || typeof outcome.value === 'string') await this.discard(objectKey);
      const saved = this.settled(outcome);
      if (saved === 'raced') continue;
      if (saved === 'full') throw failed(`an application holds at most ${MAX_DOCUMENTS} documents`);
      if (saved.replacedKey) await this.discard(saved.replacedKey);
      await this.parts.applications.documentsChanged(preRegId, caller.subject);
      const { docCatCode, docTypeCode: docTypCode, langCode, docFileFormat } = facts;
      return { documentId: id, preRegistrationId: preRegId, docName, docCatCode, docTypCode, langCode, docFileFormat, refNumber, uploadedDateTime: now };
    }
    throw failed('the document changed while it was stored');
  }

  /** Removes documents (all the application's when `ids` is null) and their files: PRG_PAM_DOC_006 when there was nothing to remove. */
  private async remove(caller: Caller, preRegId: string, ids: readonly string[] | null): Promise<void> {
    const keys = this.settled(await this.parts.store.remove(preRegId, ids, LOCKED));
    if (!keys.length) throw documentErrors.deleteFailed();
    for (const key of keys) await this.discard(key);
    await this.parts.applications.documentsChanged(preRegId, caller.subject);
  }

  /** A write's value, or why it could not run: the application gone, or locked meanwhile. */
  private settled<T>(outcome: Locked<T>): T {
    if (outcome.done) return outcome.value;
    throw outcome.statusCode === null ? applicationErrors.notFound() : documentErrors.locked(outcome.statusCode);
  }

  /** A file no row names any more: a failure leaves unreadable ciphertext behind, logged. */
  private async discard(objectKey: string): Promise<void> {
    await this.parts.objects
      .delete(objectKey)
      .catch((error: unknown) => this.parts.logger.warn({ err: error }, 'a pre-registration document file was left in the object store'));
  }
}
