import { constants, createDecipheriv, createHash, privateDecrypt, type KeyObject } from 'node:crypto';
import { parseCbeff, type ParsedCbeff } from '../../lib/packet/cbeff.js';
import type { BiometricEntry, FailureReason, FetchResult, Modality } from './protocol.js';

/**
 * The data share as the ABIS reads it (ABIS.md (c)): a token from the
 * platform's auth manager, a GET with `Cookie: Authorization=<token>`, the
 * body decrypted with the ABIS's own private key (VER_R2 or LEGACY layout),
 * then the CBEFF read (ABIS.md (d)). An independent implementation on
 * node:crypto: it shares no code with the platform's lib/crypto.
 */

export const KEY_SPLITTER = Buffer.from('#KEY_SPLITTER#', 'ascii');
export const VERSION_R2 = Buffer.from('VER_R2', 'ascii');
const THUMBPRINT_LENGTH = 32;
const AAD_LENGTH = 32;
const GCM_IV_LENGTH = 12;
const TAG_LENGTH = 16;

export class ShareDecryptionError extends Error {}

/** SHA-256 over the DER certificate: what a share names its key by. */
export function thumbprintOf(certificateDer: Buffer): Buffer {
  return createHash('sha256').update(certificateDer).digest();
}

/**
 * The envelope bytes of a share body: base64 text (either alphabet, padded or
 * not, line breaks ignored) is decoded; anything else is taken as raw bytes.
 */
export function decodeShareBody(body: Buffer): Buffer {
  const text = body.toString('latin1').replace(/\s+/g, '');
  if (text && /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) && text.length % 4 !== 1) {
    return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  }
  return body;
}

function rsaDecrypt(privateKey: KeyObject, encryptedKey: Buffer): Buffer {
  // RSA-OAEP, SHA-256 and MGF1-SHA-256 (OpenSSL's MGF1 digest follows the OAEP digest), empty label.
  return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, encryptedKey);
}

function gcmDecrypt(key: Buffer, iv: Buffer, sealed: Buffer, aad?: Buffer): Buffer {
  if (sealed.length < TAG_LENGTH) throw new ShareDecryptionError('the data block is shorter than a GCM tag');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_LENGTH)), decipher.final()]);
}

interface KeyBlock {
  r2: boolean;
  thumbprint: Buffer | undefined;
  encryptedKey: Buffer;
}

/** Splits the key block: VER_R2 | thumbprint | key, thumbprint | key, or the key alone. */
function readKeyBlock(block: Buffer, keyLength: number): KeyBlock {
  if (block.length === VERSION_R2.length + THUMBPRINT_LENGTH + keyLength && block.subarray(0, VERSION_R2.length).equals(VERSION_R2)) {
    return { r2: true, thumbprint: block.subarray(6, 6 + THUMBPRINT_LENGTH), encryptedKey: block.subarray(6 + THUMBPRINT_LENGTH) };
  }
  if (block.length === THUMBPRINT_LENGTH + keyLength)
    return { r2: false, thumbprint: block.subarray(0, THUMBPRINT_LENGTH), encryptedKey: block.subarray(THUMBPRINT_LENGTH) };
  if (block.length === keyLength) return { r2: false, thumbprint: undefined, encryptedKey: block };
  throw new ShareDecryptionError(`a key block of ${block.length} bytes fits no known layout`);
}

/** Where the splitter is: at 294 (VER_R2), 288 (LEGACY), 256 (no thumbprint), else the first occurrence. */
function splitterOffset(envelope: Buffer, keyLength: number): number {
  const candidates = [VERSION_R2.length + THUMBPRINT_LENGTH + keyLength, THUMBPRINT_LENGTH + keyLength, keyLength];
  for (const offset of candidates) if (envelope.subarray(offset, offset + KEY_SPLITTER.length).equals(KEY_SPLITTER)) return offset;
  const found = envelope.indexOf(KEY_SPLITTER);
  if (found < 0) throw new ShareDecryptionError('no #KEY_SPLITTER#');
  return found;
}

/**
 * Decrypts a share envelope (bytes after base64 decoding) with the ABIS's
 * private key. `thumbprint` is the ABIS certificate's: a share for another
 * certificate is refused. Throws ShareDecryptionError.
 */
export function decryptShare(envelope: Buffer, privateKey: KeyObject, thumbprint: Buffer): Buffer {
  const keyLength = Math.ceil((privateKey.asymmetricKeyDetails?.modulusLength ?? 2048) / 8);
  const at = splitterOffset(envelope, keyLength);
  const block = readKeyBlock(envelope.subarray(0, at), keyLength);
  if (block.thumbprint && !block.thumbprint.equals(thumbprint)) throw new ShareDecryptionError('the share is for another certificate');
  let key: Buffer;
  try {
    key = rsaDecrypt(privateKey, block.encryptedKey);
  } catch {
    throw new ShareDecryptionError('the key block does not decrypt with this private key');
  }
  if (key.length !== 32) throw new ShareDecryptionError('the symmetric key is not 32 bytes');
  const data = envelope.subarray(at + KEY_SPLITTER.length);
  if (block.r2) {
    // VER_R2: AAD (32 random bytes) | ciphertext | tag; IV = the AAD's first 12 bytes.
    if (data.length < AAD_LENGTH + TAG_LENGTH) throw new ShareDecryptionError('the VER_R2 data block is too short');
    const aad = data.subarray(0, AAD_LENGTH);
    try {
      return gcmDecrypt(key, aad.subarray(0, GCM_IV_LENGTH), data.subarray(AAD_LENGTH), aad);
    } catch {
      throw new ShareDecryptionError('the VER_R2 data block does not authenticate');
    }
  }
  // LEGACY: ciphertext | tag | IV, no AAD. MOSIP's code appends 16 bytes, its docs say 32; 12 also occurs.
  for (const ivLength of [16, 32, GCM_IV_LENGTH]) {
    if (data.length < ivLength + TAG_LENGTH) continue;
    try {
      return gcmDecrypt(key, data.subarray(data.length - ivLength), data.subarray(0, data.length - ivLength));
    } catch {
      // the next IV length
    }
  }
  throw new ShareDecryptionError('the LEGACY data block does not authenticate with any IV length');
}

const MODALITY: Readonly<Record<string, Modality>> = { Finger: 'FIR', Iris: 'IIR', Face: 'FID', ExceptionPhoto: 'FID' };

/** The usable biometrics of a CBEFF (no exception, with a BDB): reason 16 when unparsable, 11 when none. */
export function readBiometrics(cbeff: Buffer): { entries: BiometricEntry[] } | { failureReason: FailureReason } {
  let parsed: ParsedCbeff;
  try {
    parsed = parseCbeff(cbeff);
  } catch {
    return { failureReason: '16' };
  }
  const entries = parsed.birs
    .filter((bir) => !bir.exception && bir.bdb?.length)
    .map((bir) => ({ digest: createHash('sha256').update(bir.bdb!).digest('hex'), modality: MODALITY[bir.type] ?? 'FID' }));
  return entries.length ? { entries } : { failureReason: '11' };
}

export interface DataShareClientOptions {
  /** the platform, e.g. http://localhost:8080; the token comes from its auth manager */
  base: string;
  /** without a client id no token is asked for and the GET carries no cookie */
  clientId?: string;
  secretKey?: string;
  appId?: string;
  privateKey: KeyObject;
  /** SHA-256 of the ABIS certificate's DER */
  thumbprint: Buffer;
  fetch?: typeof fetch;
  /** bound on each HTTP call; default 30000 ms */
  timeoutMs?: number;
  onError?: (message: string, detail: Record<string, unknown>) => void;
}

/** The `Authorization` cookie's value from Set-Cookie headers, as the platform set it (with or without a prefix). */
export function authorizationCookie(setCookies: readonly string[]): string | undefined {
  for (const cookie of setCookies) {
    const match = /^\s*Authorization=([^;]*)/.exec(cookie);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A share's JSON error envelope (HTTP 200, `response` null), if the body is one. */
function errorsOf(body: Buffer): { errorCode?: unknown; message?: unknown }[] | undefined {
  const text = body.toString('utf8').trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const json = JSON.parse(text) as { errors?: unknown };
    return Array.isArray(json.errors) ? (json.errors as { errorCode?: unknown; message?: unknown }[]) : [];
  } catch {
    return undefined;
  }
}

export class DataShareClient {
  private token: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: DataShareClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** POST /v1/authmanager/authenticate/clientidsecretkey; the token is the Authorization cookie. */
  async authenticate(): Promise<string> {
    const url = new URL('/v1/authmanager/authenticate/clientidsecretkey', this.options.base);
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'platform.authentication.clientidsecretkey',
        version: '1.0',
        requesttime: new Date().toISOString(),
        metadata: {},
        request: { appId: this.options.appId ?? 'registrationprocessor', clientId: this.options.clientId, secretKey: this.options.secretKey },
      }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.arrayBuffer();
    const token = authorizationCookie(response.headers.getSetCookie());
    if (!response.ok || !token) throw new Error(`authentication as ${this.options.clientId} failed (HTTP ${response.status}, no Authorization cookie)`);
    this.token = token;
    return token;
  }

  private async get(url: string, retryOn401: boolean): Promise<Response> {
    if (this.options.clientId && !this.token) await this.authenticate();
    const response = await this.fetchImpl(url, {
      headers: this.token ? { cookie: `Authorization=${this.token}` } : {},
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (response.status === 401 && retryOn401 && this.options.clientId) {
      await response.arrayBuffer();
      this.token = undefined;
      return this.get(url, false);
    }
    return response;
  }

  /** The share's CBEFF bytes, or the failure reason: 17 expired, 7 anything else. */
  async fetchCbeff(url: string): Promise<{ cbeff: Buffer } | { failureReason: FailureReason }> {
    const fail = (failureReason: FailureReason, message: string, detail: Record<string, unknown> = {}) => {
      this.options.onError?.(message, { url: url.replace(/\?.*$/, ''), failureReason, ...detail });
      return { failureReason };
    };
    let response: Response;
    let body: Buffer;
    try {
      response = await this.get(url, true);
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      return fail('7', 'data share not fetched', { reason: error instanceof Error ? error.message : String(error) });
    }
    if (response.status === 410) return fail('17', 'data share gone (HTTP 410)');
    if (response.status !== 200) return fail('7', 'data share refused', { status: response.status });
    const errors = errorsOf(body);
    if (errors) {
      const expired = errors.some((error) => error.errorCode === 'DAT-SER-006' && typeof error.message === 'string' && /expired/i.test(error.message));
      return fail(expired ? '17' : '7', expired ? 'data share expired' : 'data share error', { errors });
    }
    try {
      return { cbeff: decryptShare(decodeShareBody(body), this.options.privateKey, this.options.thumbprint) };
    } catch (error) {
      return fail('7', 'data share not decryptable', { reason: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Fetches, decrypts and reads a share: what protocol.ts asks for. */
  async fetchBiometrics(url: string): Promise<FetchResult> {
    const fetched = await this.fetchCbeff(url);
    if ('failureReason' in fetched) return fetched;
    return readBiometrics(fetched.cbeff);
  }
}
