import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { checkKey, checkLimit, checkPrefix, DEFAULT_LIST_LIMIT, ObjectStoreError, type ObjectStore } from './common.js';

/** Where an `s3://` URL points; the credentials stay inside the client. */
export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** A bucket name usable in a path-style URL. */
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;

/**
 * Reads `s3://key:secret@host:port/bucket[?region=…]` (`s3s://` for TLS);
 * key and secret URL-encoded. Errors never repeat the URL.
 */
export function parseS3Url(url: string): S3Location {
  const refuse = (problem: string) => new ObjectStoreError(`OBJECT_STORE_URL: ${problem} (expected s3://key:secret@host:port/bucket or s3s://…)`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('not a URL (URL-encode the key and secret)');
  }
  const scheme = { 's3:': 'http', 's3s:': 'https' }[parsed.protocol];
  if (!scheme) throw refuse('the scheme must be s3:// or s3s://');
  if (!parsed.hostname) throw refuse('no host');
  const bucket = parsed.pathname.replace(/^\//, '');
  if (!BUCKET.test(bucket)) throw refuse('the path must be one bucket name');
  if (parsed.hash) throw refuse('no #fragment allowed');
  let region = 'us-east-1';
  for (const [name, value] of parsed.searchParams) {
    if (name !== 'region' || !/^[a-z0-9-]{1,64}$/.test(value)) throw refuse(`unknown or bad query parameter ${JSON.stringify(name.slice(0, 40))}`);
    region = value;
  }
  let accessKeyId: string;
  let secretAccessKey: string;
  try {
    accessKeyId = decodeURIComponent(parsed.username);
    secretAccessKey = decodeURIComponent(parsed.password);
  } catch {
    throw refuse('the key or secret is not properly URL-encoded');
  }
  if (!accessKeyId || !secretAccessKey) throw refuse('no key:secret@ credentials');
  return { endpoint: `${scheme}://${parsed.host}`, bucket, region, accessKeyId, secretAccessKey };
}

/** A connection attempt; an idle socket; a whole request (5 MB documents on a slow link still pass). */
const CONNECTION_TIMEOUT_MS = 2000;
const SOCKET_IDLE_TIMEOUT_MS = 5000;
const REQUEST_TIMEOUT_MS = 60_000;
/** Attempts per operation, the SDK's standard retry with backoff in between: a refused connection fails within a second. */
const MAX_ATTEMPTS = 3;

/**
 * Objects in one bucket of an S3-compatible server. One PUT carries the whole
 * object with its Content-MD5, so S3 stores all of it or nothing.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly endpoint: string;
  /** What is blanked out of any message that came from elsewhere. */
  private readonly secrets: string[];

  constructor(url: string) {
    const location = parseS3Url(url);
    this.bucket = location.bucket;
    this.endpoint = location.endpoint;
    this.secrets = [location.secretAccessKey, location.accessKeyId, encodeURIComponent(location.secretAccessKey)].filter((s) => s.length >= 3);
    this.client = new S3Client({
      endpoint: location.endpoint,
      forcePathStyle: true,
      region: location.region,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      // Since SDK 3.729 every upload gets a CRC32 checksum, sent as an aws-chunked
      // trailer; s3rver and several S3-compatible servers reject it or store the
      // chunk framing as the object. Only what an operation requires is sent.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: {
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        socketTimeout: SOCKET_IDLE_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        throwOnRequestTimeout: true,
      },
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    checkKey(key);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: data,
          ContentLength: data.length,
          ContentMD5: createHash('md5').update(data).digest('base64'),
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (error) {
      throw this.failure('put', key, error);
    }
  }

  async putFile(key: string, filePath: string): Promise<void> {
    checkKey(key);
    try {
      const { size } = await stat(filePath);
      // Streamed from the file with its length: the SDK sends it as it reads, without a copy in memory.
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(filePath), ContentLength: size, ContentType: 'application/octet-stream' }),
      );
    } catch (error) {
      throw this.failure('put', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    checkKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!answer.Body) return Buffer.alloc(0);
      const bytes = await answer.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissingKey(error)) return null;
      throw this.failure('get', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw this.failure('delete', key, error);
    }
  }

  async list(prefix: string, limit = DEFAULT_LIST_LIMIT): Promise<string[]> {
    checkPrefix(prefix);
    checkLimit(limit);
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: Math.min(1000, limit - keys.length), ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) if (item.Key !== undefined && keys.length < limit) keys.push(item.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token && keys.length < limit);
    } catch (error) {
      throw this.failure('list', prefix, error);
    }
    // S3 answers in byte order already; some compatible servers (s3rver) do not.
    return keys.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }

  /** Ends the client's kept-alive connections (tests; a process that opens stores repeatedly). */
  close(): void {
    this.client.destroy();
  }

  private failure(operation: string, key: string, error: unknown): ObjectStoreError {
    const cause = this.safeCopy(error);
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    const status = httpStatus(error);
    return new ObjectStoreError(
      `object store (s3 ${this.endpoint}, bucket ${this.bucket}) ${operation} ${JSON.stringify(key)} failed${status ? ` (HTTP ${status})` : ''}: ${detail}`,
      { cause },
    );
  }

  /**
   * The SDK's error as a cause that is safe to keep, log and print: name,
   * message, stack, code, `$metadata` and the server's error fields, with the
   * key and secret blanked wherever they appear (s3rver's `AWSAccessKeyId`,
   * say). The SDK's hidden, undeletable `$response` is left behind: through the
   * socket it reaches the signed request, whose Authorization header names the key.
   */
  private safeCopy(error: unknown, depth = 0): unknown {
    if (!(error instanceof Error)) return typeof error === 'string' ? this.redact(error) : error;
    const inner = error instanceof AggregateError ? (error.errors as unknown[]).filter((e): e is Error => e instanceof Error) : [];
    const message = error.message || inner.map((e) => e.message).join('; ');
    const copy = new Error(this.redact(message)) as Error & Record<string, unknown>;
    copy.name = error.name;
    copy.stack = error.stack === undefined ? undefined : this.redact(error.stack);
    for (const [name, value] of Object.entries(error)) {
      if (name !== '$response') copy[name] = typeof value === 'string' ? this.redact(value) : value;
    }
    if (error.cause !== undefined && depth < 3) copy.cause = this.safeCopy(error.cause, depth + 1);
    return copy;
  }

  private redact(text: string): string {
    for (const secret of this.secrets) text = text.split(secret).join('[redacted]');
    return text;
  }
}

function httpStatus(error: unknown): number | undefined {
  const metadata = typeof error === 'object' && error !== null && '$metadata' in error ? (error.$metadata as { httpStatusCode?: number }) : undefined;
  return metadata?.httpStatusCode;
}

/** NoSuchKey, or a bare 404 (a server that sends no error body); a missing bucket is a failure, not an absent object. */
function isMissingKey(error: unknown): boolean {
  const name = error instanceof Error ? error.name : undefined;
  return name === 'NoSuchKey' || (httpStatus(error) === 404 && name !== 'NoSuchBucket');
}
