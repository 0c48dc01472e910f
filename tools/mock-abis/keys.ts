import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRsaKeyPair, issueCertificate } from '../../lib/crypto/certificates.js';
import { thumbprintOf } from './datashare.js';

/**
 * The mock ABIS's own RSA-2048 key pair and self-signed certificate, kept in
 * a folder (generated on first run). The platform encrypts data shares for
 * this certificate once it is uploaded with `uploadOtherDomainCertificate`
 * (applicationId PARTNER, referenceId the ABIS partner id).
 */

export const PRIVATE_KEY_FILE = 'private-key.pem';
export const CERTIFICATE_FILE = 'certificate.pem';
export const DEFAULT_PARTNER_ID = 'partner-default-abis';

export interface AbisKeys {
  privateKey: KeyObject;
  certificatePem: string;
  certificate: X509Certificate;
  /** SHA-256 of the certificate's DER, 32 bytes */
  thumbprint: Buffer;
  /** true when this call generated them */
  created: boolean;
  dir: string;
}

function fromPem(dir: string, privateKeyPem: string, certificatePem: string, created: boolean): AbisKeys {
  const privateKey = createPrivateKey(privateKeyPem);
  const certificate = new X509Certificate(certificatePem);
  if (!certificate.checkPrivateKey(privateKey)) throw new Error(`${dir}: ${CERTIFICATE_FILE} does not belong to ${PRIVATE_KEY_FILE}`);
  return { privateKey, certificatePem, certificate, thumbprint: thumbprintOf(certificate.raw), created, dir };
}

/** Reads the key pair from `dir`, or generates it there (private key mode 0600). */
export async function loadOrCreateKeys(dir: string, options: { commonName?: string; validDays?: number } = {}): Promise<AbisKeys> {
  const keyFile = join(dir, PRIVATE_KEY_FILE);
  const certificateFile = join(dir, CERTIFICATE_FILE);
  let privateKeyPem: string | undefined;
  let certificatePem: string | undefined;
  try {
    privateKeyPem = readFileSync(keyFile, 'utf8');
    certificatePem = readFileSync(certificateFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (privateKeyPem && certificatePem) return fromPem(dir, privateKeyPem, certificatePem, false);
  if (privateKeyPem && !certificatePem) throw new Error(`${dir} holds ${PRIVATE_KEY_FILE} without ${CERTIFICATE_FILE}: remove it or restore the certificate`);

  const pair = await generateRsaKeyPair();
  const now = Date.now();
  certificatePem = issueCertificate({
    publicKeyPem: pair.publicKey,
    subject: { commonName: options.commonName ?? 'mock-abis', organization: 'Mock ABIS (development)', organizationUnit: 'ABIS' },
    validFrom: new Date(now - 5 * 60_000),
    validTo: new Date(now + (options.validDays ?? 730) * 86_400_000),
    selfPrivateKeyPem: pair.privateKey,
    ca: false,
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, pair.privateKey, { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  writeFileSync(certificateFile, certificatePem);
  return fromPem(dir, pair.privateKey, certificatePem, true);
}

/** The upload request body of `POST /v1/keymanager/uploadOtherDomainCertificate`. */
export function uploadRequest(certificatePem: string, partnerId = DEFAULT_PARTNER_ID, now = new Date()): Record<string, unknown> {
  return {
    id: 'io.platform.keymanager.uploadOtherDomainCertificate',
    version: '1.0',
    requesttime: now.toISOString(),
    metadata: {},
    request: { applicationId: 'PARTNER', referenceId: partnerId, certificateData: certificatePem },
  };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** What to print on start: the certificate, its thumbprint, and a curl command uploading it (an admin token to fill in). */
export function certificateNotice(keys: AbisKeys, options: { base: string; partnerId?: string }): string {
  const partnerId = options.partnerId ?? DEFAULT_PARTNER_ID;
  const url = new URL('/v1/keymanager/uploadOtherDomainCertificate', options.base).toString();
  const body = JSON.stringify(uploadRequest(keys.certificatePem, partnerId));
  return [
    `mock ABIS certificate (${keys.dir}/${CERTIFICATE_FILE}${keys.created ? ', generated now' : ''}):`,
    keys.certificatePem.trim(),
    `thumbprint (SHA-256 of the DER): ${keys.thumbprint.toString('hex')}`,
    `subject: ${keys.certificate.subject.replace(/\n/g, ', ')}; valid to ${keys.certificate.validTo}`,
    '',
    `Upload it for the ABIS partner ${partnerId} (applicationId PARTNER), with an admin token:`,
    `curl -sS -X POST ${shellQuote(url)} -H 'Content-Type: application/json' -H "Cookie: Authorization=$ADMIN_TOKEN" --data ${shellQuote(body)}`,
  ].join('\n');
}
