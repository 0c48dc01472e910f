/** What both stores share: the error class and the rules for keys. */

/** Every failure of the store, the cause kept; no message names a credential. */
export class ObjectStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectStoreError';
  }
}

/** Where documents, biometrics and packets are kept: files or an S3-compatible server, one behaviour. */
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

export const DEFAULT_LIST_LIMIT = 1000;

/** One key segment: what both stores can hold under the same name (no `/`, no `~`, which marks temporary files). */
export const SEGMENT = /^[A-Za-z0-9._-]{1,200}$/;
const MAX_KEY_LENGTH = 1024;

/** A quoted, shortened copy of a refused value, safe to put into a message. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

/** `segment/segment/...` of [A-Za-z0-9._-], no `.` or `..` segment, no leading, trailing or double `/`. */
export function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !key.split('/').every(isSegment)) {
    throw new ObjectStoreError(`invalid object key ${shown(key)}: segment/segment/... of [A-Za-z0-9._-], no "." or ".." segment`);
  }
}

/** A key prefix: empty, or whole segments each followed by `/`, then the start of a segment. */
export function checkPrefix(prefix: string): void {
  const parts = typeof prefix === 'string' ? prefix.split('/') : [];
  const last = parts.pop();
  const ok =
    typeof prefix === 'string' &&
    prefix.length <= MAX_KEY_LENGTH &&
    parts.every(isSegment) &&
    last !== undefined &&
    (last === '' || /^[A-Za-z0-9._-]{1,200}$/.test(last));
  if (!ok) throw new ObjectStoreError(`invalid object key prefix ${shown(prefix)}`);
}

export function checkLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new ObjectStoreError(`invalid list limit ${shown(limit)}: a whole number ≥ 1`);
}

function isSegment(segment: string): boolean {
  return SEGMENT.test(segment) && segment !== '.' && segment !== '..';
}
