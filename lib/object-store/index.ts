/**
 * The object store: documents and biometrics of the ID repository (and later
 * registration packets), kept as MOSIP keeps them, outside the database.
 * Either files under `PLATFORM_DATA_DIR/objects` or an S3-compatible server
 * (`OBJECT_STORE_URL`); both behave the same behind one interface.
 */
import { FileObjectStore } from './files.js';
import { S3ObjectStore } from './s3.js';

export { ObjectStoreError } from './common.js';

export interface ObjectStore {
  /** Writes the object whole or not at all. */
  put(key: string, data: Buffer): Promise<void>;
  /** Writes the object from a file, streamed (a registration packet is never read whole into memory). */
  putFile(key: string, filePath: string): Promise<void>;
  /** The object, or null when absent. */
  get(key: string): Promise<Buffer | null>;
  /** Absent is fine. */
  delete(key: string): Promise<void>;
  /**
   * Keys under a prefix (for audits and tests), in byte order; bounded by `limit`
   * (default 1000). Which keys a cut list holds is the server's order: S3's is byte
   * order, s3rver's is not.
   */
  list(prefix: string, limit?: number): Promise<string[]>;
  readonly kind: 'files' | 's3';
  /** Lets go of kept-alive connections (S3); nothing to do for files. */
  close?(): void;
}

/**
 * `url` unset: files under `<dataDir>/objects`; `s3://key:secret@host:port/bucket`
 * (`s3s://` for TLS, `?region=` optional): that bucket. Throws ObjectStoreError
 * for a URL it cannot use, without repeating the URL.
 */
export function openObjectStore(options: { url?: string; dataDir: string }): ObjectStore {
  return options.url ? new S3ObjectStore(options.url) : new FileObjectStore(options.dataDir);
}
