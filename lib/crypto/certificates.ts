import { createPublicKey, generateKeyPair as generateKeyPairCallback, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

/** The subject fields of the spec's CSR and master-key requests. */
export interface Subject {
  commonName: string;
  country?: string | null;
  state?: string | null;
  location?: string | null;
  organization?: string | null;
  organizationUnit?: string | null;
}

export interface KeyPairPem {
  privateKey: string;
  publicKey: string;
}

/** RSA-2048 by node:crypto: forge's arithmetic is about 100 times slower. */
export function generateRsaKeyPair(): Promise<KeyPairPem> {
  return new Promise((resolve, reject) =>
    generateKeyPairCallback(
      'rsa',
      { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } },
      (error, publicKey, privateKey) => (error ? reject(error) : resolve({ privateKey, publicKey })),
    ),
  );
}

function attributes(subject: Subject): forge.pki.CertificateField[] {
  const fields: [string, string | null | undefined][] = [
    ['CN', subject.commonName],
    ['C', subject.country],
    ['ST', subject.state],
    ['L', subject.location],
    ['O', subject.organization],
    ['OU', subject.organizationUnit],
  ];
  return fields.filter(([, value]) => value).map(([shortName, value]) => ({ shortName, value: value! }));
}

function serialNumber(): string {
  // 16 random bytes, the top bit cleared so the DER integer stays positive; an even number of hex digits.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

export interface IssueOptions {
  publicKeyPem: string;
  subject: Subject;
  validFrom: Date;
  validTo: Date;
  /** the issuer; omitted: self-signed with `selfPrivateKeyPem` */
  issuer?: { certificatePem: string; privateKeyPem: string };
  selfPrivateKeyPem?: string;
  ca: boolean;
}

/** An X.509 v3 certificate (SHA-256 with RSA), signed by the issuer or by itself. */
export function issueCertificate(options: IssueOptions): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(options.publicKeyPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = options.validFrom;
  cert.validity.notAfter = options.validTo;
  const subject = attributes(options.subject);
  cert.setSubject(subject);
  const issuerCert = options.issuer ? forge.pki.certificateFromPem(options.issuer.certificatePem) : undefined;
  cert.setIssuer(issuerCert ? issuerCert.subject.attributes : subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: options.ca, critical: true },
    {
      name: 'keyUsage',
      critical: true,
      ...(options.ca
        ? { keyCertSign: true, cRLSign: true, digitalSignature: true }
        : { digitalSignature: true, keyEncipherment: true, dataEncipherment: true }),
    },
    { name: 'subjectKeyIdentifier' },
    ...(issuerCert ? [{ name: 'authorityKeyIdentifier', keyIdentifier: issuerCert.generateSubjectKeyIdentifier().getBytes() }] : []),
  ]);
  const signingPem = options.issuer?.privateKeyPem ?? options.selfPrivateKeyPem;
  if (!signingPem) throw new Error('a certificate needs an issuer or its own private key');
  cert.sign(forge.pki.privateKeyFromPem(signingPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A PKCS#10 request for a key pair, with the given subject. */
export function createCsr(keyPair: KeyPairPem, subject: Subject): string {
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.publicKeyFromPem(keyPair.publicKey);
  csr.setSubject(attributes(subject));
  csr.sign(forge.pki.privateKeyFromPem(keyPair.privateKey), forge.md.sha256.create());
  return forge.pki.certificationRequestToPem(csr);
}

/** A certificate from PEM (or base64 DER), or undefined when it does not parse. */
export function parseCertificate(data: string): X509Certificate | undefined {
  try {
    const text = data.trim();
    return new X509Certificate(text.includes('-----BEGIN') ? text : Buffer.from(text, 'base64'));
  } catch {
    return undefined;
  }
}

/** Whether two public keys are the same key. */
export function samePublicKey(a: KeyObject, b: KeyObject): boolean {
  return a.export({ type: 'spki', format: 'der' }).equals(b.export({ type: 'spki', format: 'der' }));
}

export const publicKeyOf = (pem: string) => createPublicKey(pem);
