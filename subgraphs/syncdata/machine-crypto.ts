import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { aesGcmEncrypt, decodeBase64Any, encodeBase64Url, rsaWrap } from '../../lib/crypto/envelope.js';

const IV = 12;
const AAD = 32;

/** A machine's public key as keys stores it (base64 SPKI DER). */
export const machinePublicKey = (stored: string): KeyObject => createPublicKey({ key: decodeBase64Any(stored), format: 'der', type: 'spki' });

/**
 * Encrypts sync data for one registration client, as MOSIP 1.2's
 * ClientCryptoFacade.encrypt does: a fresh AES-256 key wrapped with
 * RSA-OAEP (SHA-256, MGF1 SHA-256) for the machine's TPM key, then
 * RSA(key) | IV (12) | AAD (32) | AES-GCM(data, tag appended), URL-safe
 * base64. A machine has a bare public key, no certificate, so the layout
 * carries no thumbprint: only the holder of the machine's private key reads it.
 */
export function encryptForMachine(publicKey: KeyObject, data: Buffer): string {
  const key = randomBytes(32);
  const iv = randomBytes(IV);
  const aad = randomBytes(AAD);
  return encodeBase64Url(Buffer.concat([rsaWrap(publicKey, key), iv, aad, aesGcmEncrypt(key, iv, data, aad)]));
}
