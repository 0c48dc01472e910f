import type { ObjectStore } from '../../../lib/object-store/index.js';
import { MAX_DOCUMENTS } from '../documents/service.js';
import { openContent, openMetadata, type DocumentCipher } from '../documents/sealing.js';
import type { DocumentStore } from '../documents/storage.js';
import { documentErrors } from '../errors.js';
import type { SyncDocument } from './types.js';

/**
 * An application's documents with their bytes, opened as the documents area
 * opens them (its storage and sealing), for the ZIP of a registration
 * client: sync's rule (the centre) has reached the application already.
 * PRG_PAM_DOC_005 when a file is missing from the object store.
 */
export function documentReader(store: Pick<DocumentStore, 'ofApplication'>, cipher: DocumentCipher, objects: Pick<ObjectStore, 'get'>) {
  return async (preRegId: string): Promise<SyncDocument[]> => {
    const rows = await store.ofApplication(preRegId, MAX_DOCUMENTS);
    return Promise.all(
      rows.map(async (row) => {
        const [metadata, object] = await Promise.all([openMetadata(cipher, row), objects.get(row.objectKey)]);
        if (!object) throw documentErrors.notFound();
        const { docCatCode, docTypeCode, langCode, docFileFormat } = row;
        return {
          docCatCode,
          docTypeCode,
          langCode,
          docFileFormat,
          docName: metadata.docName,
          refNumber: metadata.refNumber,
          bytes: await openContent(cipher, row, object),
        };
      }),
    );
  };
}
