import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateRsaKeyPair, issueCertificate } from '../../lib/crypto/certificates.js';
import {
  CryptoFormatError,
  decodeBase64Any,
  decryptRegistration,
  decryptVerR2,
  encodeBase64Url,
  encryptRegistration,
  encryptVerR2,
  KEY_SPLITTER,
  rsaWrap,
  aesGcmEncrypt,
  UnknownKeyError,
} from '../../lib/crypto/envelope.js';

async function recipient() {
  const pair = await generateRsaKeyPair();
  const pem = issueCertificate({
    publicKeyPem: pair.publicKey,
    subject: { commonName: 'test' },
    validFrom: new Date(),
    validTo: new Date(Date.now() + 86_400_000),
    ca: false,
    selfPrivateKeyPem: pair.privateKey,
  });
  const certificate = new X509Certificate(pem);
  const { createPrivateKey } = await import('node:crypto');
  return {
    certificate,
    publicKey: certificate.publicKey,
    privateKey: createPrivateKey(pair.privateKey),
    thumbprint: createHash('sha256').update(certificate.raw).digest(),
  };
}

describe('the VER_R2 layout (ABIS.md (c))', () => {
  it('places version, thumbprint, wrapped key, splitter, AAD and sealed data at the documented offsets, and opens again', async () => {
    const r = await recipient();
    const sealed = encryptVerR2(r, Buffer.from('cbeff xml'));
    expect(sealed.subarray(0, 6).toString()).toBe('VER_R2');
    expect(sealed.subarray(6, 38)).toEqual(r.thumbprint);
    expect(sealed.subarray(294, 308)).toEqual(KEY_SPLITTER);
    expect(sealed.length).toBe(340 + 'cbeff xml'.length + 16);
    const lookup = (t: Buffer) => Promise.resolve(t.equals(r.thumbprint) ? r.privateKey : undefined);
    expect((await decryptVerR2(sealed, lookup)).toString()).toBe('cbeff xml');
    // Java's URL encoder keeps the padding; both alphabets decode
    const text = encodeBase64Url(sealed);
    expect(text).not.toMatch(/[+/]/);
    expect(decodeBase64Any(text)).toEqual(sealed);
    expect(decodeBase64Any(sealed.toString('base64'))).toEqual(sealed);
  });

  it('refuses a flipped byte anywhere, an unknown thumbprint, and data without the splitter', async () => {
    const r = await recipient();
    const lookup = (t: Buffer) => Promise.resolve(t.equals(r.thumbprint) ? r.privateKey : undefined);
    const sealed = encryptVerR2(r, Buffer.from('integrity matters'));
    for (const offset of [7, 40, 300, 310, 330, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[offset]! ^= 0x80;
      await expect(decryptVerR2(tampered, lookup), `byte ${offset}`).rejects.toSatisfy((e) => e instanceof CryptoFormatError || e instanceof UnknownKeyError);
    }
    await expect(decryptVerR2(sealed, () => Promise.resolve(undefined))).rejects.toBeInstanceOf(UnknownKeyError);
    await expect(decryptVerR2(Buffer.from('no splitter'), lookup)).rejects.toBeInstanceOf(CryptoFormatError);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await expect(decryptVerR2(sealed, () => Promise.resolve(other))).rejects.toBeInstanceOf(CryptoFormatError);
  });

  it('uses the caller salt as IV and aad as AAD when both are given, as MOSIP does', async () => {
    const r = await recipient();
    const lookup = () => Promise.resolve(r.privateKey);
    const salt = Buffer.alloc(12, 7);
    const aad = Buffer.from('context');
    const sealed = encryptVerR2(r, Buffer.from('salted'), { salt, aad });
    expect(sealed.length).toBe(308 + 'salted'.length + 16);
    expect((await decryptVerR2(sealed, lookup, { salt, aad })).toString()).toBe('salted');
    await expect(decryptVerR2(sealed, lookup, { salt, aad: Buffer.from('other') })).rejects.toBeInstanceOf(CryptoFormatError);
  });

  it('opens a pre-1.2 block without thumbprint with the default key', async () => {
    const r = await recipient();
    const key = Buffer.alloc(32, 3);
    const aad = Buffer.alloc(32, 9);
    const legacy = Buffer.concat([rsaWrap(r.publicKey, key), KEY_SPLITTER, aad, aesGcmEncrypt(key, aad.subarray(0, 12), Buffer.from('old'), aad)]);
    expect((await decryptVerR2(legacy, () => Promise.resolve(undefined), { fallback: r.privateKey })).toString()).toBe('old');
  });
});

describe('the registration packet layout (ABIS.md (e))', () => {
  it('is nonce | aad | thumbprint | wrapped key | splitter | sealed data, and opens again', async () => {
    const r = await recipient();
    const sealed = encryptRegistration(r, Buffer.from('packet zip bytes'));
    expect(sealed.subarray(44, 76)).toEqual(r.thumbprint);
    expect(sealed.subarray(332, 346)).toEqual(KEY_SPLITTER);
    const lookup = (t: Buffer) => Promise.resolve(t.equals(r.thumbprint) ? r.privateKey : undefined);
    expect((await decryptRegistration(sealed, lookup)).toString()).toBe('packet zip bytes');
    const tampered = Buffer.from(sealed);
    tampered[5]! ^= 1;
    await expect(decryptRegistration(tampered, lookup)).rejects.toBeInstanceOf(CryptoFormatError);
  });
});
