import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';

/**
 * MOSIP's hybrid encryption, byte for byte (ABIS.md (c) and (e)): an AES-256
 * session key wrapped with RSA-OAEP (SHA-256 digest and MGF1), AES-GCM with the
 * tag appended, blocks joined by the key splitter, the certificate thumbprint
 * in front so the right key is found after a rotation.
 */
export const KEY_SPLITTER = Buffer.from('#KEY_SPLITTER#', 'ascii');
export const VERSION_R2 = Buffer.from('VER_R2', 'ascii');
const THUMBPRINT = 32;
const AAD = 32;
const IV = 12;
const TAG = 16;

export class CryptoFormatError extends Error {}

/** Data headed by a layout version this platform does not know (MOSIP prefixes versions with VER_). */
export class UnsupportedVersionError extends Error {}

/** SHA-256 of the DER certificate: 32 raw bytes. */
export function thumbprintOf(certificate: X509Certificate | string): Buffer {
  const cert = typeof certificate === 'string' ? new X509Certificate(certificate) : certificate;
  return createHash('sha256').update(cert.raw).digest();
}

export function rsaWrap(publicKey: KeyObject, data: Buffer): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

export function rsaUnwrap(privateKey: KeyObject, data: Buffer): Buffer {
  return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
}

export function aesGcmEncrypt(key: Buffer, iv: Buffer, data: Buffer, aad?: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad?.length) cipher.setAAD(aad);
  return Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
}

export function aesGcmDecrypt(key: Buffer, iv: Buffer, sealed: Buffer, aad?: Buffer): Buffer {
  if (sealed.length < TAG) throw new CryptoFormatError('encrypted data is shorter than its tag');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad?.length) decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final()]);
}

/** Java's Base64.getUrlEncoder(): URL-safe, with padding. */
export function encodeBase64Url(data: Buffer): string {
  return data.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Either base64 alphabet, with or without padding; throws on anything else. */
export function decodeBase64Any(text: string): Buffer {
  const cleaned = text.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(cleaned)) throw new CryptoFormatError('data is not base64 encoded');
  return Buffer.from(cleaned.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export interface RecipientKey {
  certificate: X509Certificate;
  publicKey: KeyObject;
}

/** The key block: thumbprint then the wrapped session key. */
function keyBlock(recipient: RecipientKey, sessionKey: Buffer): Buffer {
  return Buffer.concat([thumbprintOf(recipient.certificate), rsaWrap(recipient.publicKey, sessionKey)]);
}

/**
 * VER_R2 (MOSIP 1.2 cryptomanager and data share): VER_R2 | thumbprint | RSA(key) | splitter | data block.
 * Without a salt the data block is aad(32) | AES-GCM(IV = aad[0..12]); with `salt` (the IV) and `aad`
 * given by the caller it is the AES-GCM output alone, as MOSIP does.
 */
export function encryptVerR2(recipient: RecipientKey, data: Buffer, options: { aad?: Buffer; salt?: Buffer } = {}): Buffer {
  const sessionKey = randomBytes(32);
  let dataBlock: Buffer;
  if (options.salt?.length) {
    dataBlock = aesGcmEncrypt(sessionKey, options.salt, data, options.aad);
  } else {
    const aad = randomBytes(AAD);
    dataBlock = Buffer.concat([aad, aesGcmEncrypt(sessionKey, aad.subarray(0, IV), data, aad)]);
  }
  return Buffer.concat([VERSION_R2, keyBlock(recipient, sessionKey), KEY_SPLITTER, dataBlock]);
}

/** LEGACY's IV length (MOSIP <= 1.1.5.5 used the cipher's block size, 16). */
const LEGACY_IV = 16;

/**
 * LEGACY data share (MOSIP <= 1.1.5.5): thumbprint | RSA(key) | splitter | AES-GCM(data) and tag |
 * IV(16); no AAD.
 */
export function encryptLegacy(recipient: RecipientKey, data: Buffer): Buffer {
  const sessionKey = randomBytes(32);
  const iv = randomBytes(LEGACY_IV);
  return Buffer.concat([keyBlock(recipient, sessionKey), KEY_SPLITTER, aesGcmEncrypt(sessionKey, iv, data), iv]);
}

/** Finds the private key that belongs to a thumbprint (any key ever issued, rotated ones included). */
export type PrivateKeyLookup = (thumbprint: Buffer) => Promise<KeyObject | undefined>;

export class UnknownKeyError extends Error {}

function splitAtSplitter(data: Buffer): { key: Buffer; rest: Buffer } {
  const at = data.indexOf(KEY_SPLITTER);
  if (at < 0) throw new CryptoFormatError('data to decrypt lacks the key splitter');
  return { key: data.subarray(0, at), rest: data.subarray(at + KEY_SPLITTER.length) };
}

async function unwrapKeyBlock(block: Buffer, lookup: PrivateKeyLookup, fallback?: KeyObject): Promise<Buffer> {
  // 256 bytes: a 1.1.3-era block without thumbprint, for the default key.
  const thumbprint = block.length > 256 ? block.subarray(0, THUMBPRINT) : undefined;
  const wrapped = thumbprint ? block.subarray(THUMBPRINT) : block;
  const privateKey = thumbprint ? await lookup(thumbprint) : fallback;
  if (!privateKey) throw new UnknownKeyError('no key of this platform matches the thumbprint');
  try {
    return rsaUnwrap(privateKey, wrapped);
  } catch {
    throw new CryptoFormatError('the session key cannot be unwrapped with this key');
  }
}

/** Decrypts VER_R2 (with or without the caller's salt/aad) and the pre-1.2 layout without version. */
export async function decryptVerR2(
  data: Buffer,
  lookup: PrivateKeyLookup,
  options: { aad?: Buffer; salt?: Buffer; fallback?: KeyObject } = {},
): Promise<Buffer> {
  const versioned = data.subarray(0, VERSION_R2.length).equals(VERSION_R2);
  if (!versioned && data.subarray(0, 4).toString('latin1') === 'VER_')
    throw new UnsupportedVersionError(`unsupported layout ${data.subarray(0, 6).toString('latin1')}`);
  const body = versioned ? data.subarray(VERSION_R2.length) : data;
  const { key, rest } = splitAtSplitter(body);
  const sessionKey = await unwrapKeyBlock(key, lookup, options.fallback);
  try {
    if (options.salt?.length) return aesGcmDecrypt(sessionKey, options.salt, rest, options.aad);
    if (rest.length < AAD + TAG) throw new CryptoFormatError('encrypted data is too short');
    const aad = rest.subarray(0, AAD);
    return aesGcmDecrypt(sessionKey, aad.subarray(0, IV), rest.subarray(AAD), aad);
  } catch (error) {
    if (error instanceof CryptoFormatError) throw error;
    throw new CryptoFormatError('decryption failed: the data or its authentication tag is not intact');
  }
}

/** Registration packets and sync (ABIS.md (e)): nonce(12) | aad(32) | thumbprint | RSA(key) | splitter | AES-GCM. */
export function encryptRegistration(recipient: RecipientKey, data: Buffer): Buffer {
  const sessionKey = randomBytes(32);
  const nonce = randomBytes(IV);
  const aad = randomBytes(AAD);
  return Buffer.concat([nonce, aad, keyBlock(recipient, sessionKey), KEY_SPLITTER, aesGcmEncrypt(sessionKey, nonce, data, aad)]);
}

export async function decryptRegistration(data: Buffer, lookup: PrivateKeyLookup): Promise<Buffer> {
  if (data.length < IV + AAD + THUMBPRINT + 256 + KEY_SPLITTER.length + TAG) throw new CryptoFormatError('encrypted packet is too short');
  const nonce = data.subarray(0, IV);
  const aad = data.subarray(IV, IV + AAD);
  const { key, rest } = splitAtSplitter(data.subarray(IV + AAD));
  const sessionKey = await unwrapKeyBlock(key, lookup);
  try {
    return aesGcmDecrypt(sessionKey, nonce, rest, aad);
  } catch {
    throw new CryptoFormatError('decryption failed: the packet or its authentication tag is not intact');
  }
}
