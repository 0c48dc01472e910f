/**
 * The object store: documents and biometrics of the ID repository (and later
 * registration packets), kept as MOSIP keeps them, outside the database.
 * Either files under `PLATFORM_DATA_DIR/objects` or an S3-compatible server
 * (`OBJECT_STORE_URL`); both behave the same behind one interface.
 */
import { FileObjectStore } from './files.js';
import { S3ObjectStore } from './s3.js';

import type { ObjectStore } from './common.js';

export { ObjectStoreError, type ObjectStore } from './common.js';

/**
 * `url` unset: files under `<dataDir>/objects`; `s3://key:secret@host:port/bucket`
 * (`s3s://` for TLS, `?region=` optional): that bucket. Throws ObjectStoreError
 * for a URL it cannot use, without repeating the URL.
 */
export function openObjectStore(options: { url?: string; dataDir: string }): ObjectStore {
  return options.url ? new S3ObjectStore(options.url) : new FileObjectStore(options.dataDir);
}
