// A self-signed RSA certificate and its private key for tests that encrypt for a recipient and
// decrypt as it (registration packets, data shares): the key lookup by certificate thumbprint too.
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { generateRsaKeyPair, issueCertificate } from '../../lib/crypto/certificates.js';

export interface TestKey {
  privateKeyPem: string;
  certificatePem: string;
  thumbprint: Buffer;
  /** the private key for its own thumbprint, as the platform's key stores answer */
  lookup: (candidate: Buffer) => Promise<KeyObject | undefined>;
}

export async function selfSignedKey(commonName: string): Promise<TestKey> {
  const pair = await generateRsaKeyPair();
  const certificatePem = issueCertificate({
    publicKeyPem: pair.publicKey,
    subject: { commonName },
    validFrom: new Date(Date.now() - 60_000),
    validTo: new Date(Date.now() + 365 * 86_400_000),
    ca: false,
    selfPrivateKeyPem: pair.privateKey,
  });
  const thumbprint = createHash('sha256').update(new X509Certificate(certificatePem).raw).digest();
  const privateKey = createPrivateKey(pair.privateKey);
  return {
    privateKeyPem: pair.privateKey,
    certificatePem,
    thumbprint,
    lookup: (candidate) => Promise.resolve(candidate.equals(thumbprint) ? privateKey : undefined),
  };
}
