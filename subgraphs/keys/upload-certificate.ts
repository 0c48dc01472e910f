import { X509Certificate } from 'node:crypto';
import { parseCertificate, samePublicKey } from '../../lib/crypto/certificates.js';
import { thumbprintOf } from '../../lib/crypto/envelope.js';
import type { Clock } from '../../lib/time.js';
import { keyErrors } from './errors.js';
import type { KeyEntry, KeyRows } from './storage.js';

/**
 * Puts a CA-signed certificate in force for the pair's key in force. The
 * entry of the old certificate stays, retired, holding the same private key:
 * data encrypted under the old certificate names its thumbprint and still
 * opens, here and on any instance that cached that entry. Under the pair's
 * lock: racing uploads, or an upload racing a rotation, leave one entry in force.
 */
export async function putCertificateInForce(
  rows: Pick<KeyRows, 'underPairLock'>,
  clock: Clock,
  applicationId: string,
  referenceId: string,
  data: string,
): Promise<KeyEntry> {
  const certificate = parseCertificate(data);
  if (!certificate) throw keyErrors.certificateParsing('certificateData is not an X.509 certificate');
  const thumbprint = thumbprintOf(certificate).toString('hex');
  return rows.underPairLock(applicationId, referenceId, async (pair) => {
    const now = clock.now();
    const entry = await pair.inForce(applicationId, referenceId, now);
    if (!entry || !entry.privateKey) throw keyErrors.notGenerated(referenceId ? `${applicationId}/${referenceId}` : applicationId);
    if (!samePublicKey(certificate.publicKey, new X509Certificate(entry.certificate).publicKey)) {
      throw keyErrors.certificateParsing('the certificate is not for the key generated for this application and reference id');
    }
    if (thumbprint === entry.thumbprint) return entry;
    await pair.retire(entry.id, now);
    return pair.create({
      applicationId,
      referenceId,
      kind: entry.kind,
      privateKey: entry.privateKey,
      certificate: certificate.toString(),
      thumbprint,
      validFrom: now,
      validTo: new Date(certificate.validTo),
      replacesId: entry.id,
    });
  });
}

/**
 * Stores another domain's certificate (RSA only) under the pair, with the
 * platform's certification of it when `signedCertificate` makes one; it
 * takes over from the pair's certificate in force, from now. Under the
 * pair's lock, so racing uploads leave exactly one in force: the last. A
 * pair holding a key of this platform takes none (KER-KMS-003).
 */
export async function putOtherDomainCertificate(
  rows: Pick<KeyRows, 'underPairLock'>,
  clock: Clock,
  applicationId: string,
  referenceId: string,
  data: string,
  signedCertificate?: (certificate: X509Certificate) => Promise<string>,
): Promise<KeyEntry> {
  const certificate = parseCertificate(data);
  if (!certificate) throw keyErrors.certificateParsing('certificateData is not an X.509 certificate');
  if (certificate.publicKey.asymmetricKeyType !== 'rsa') throw keyErrors.certificateParsing('only RSA certificates are supported');
  const thumbprint = thumbprintOf(certificate).toString('hex');
  const signed = signedCertificate ? await signedCertificate(certificate) : null;
  return rows.underPairLock(applicationId, referenceId, async (pair) => {
    const now = clock.now();
    const current = await pair.inForce(applicationId, referenceId, now);
    if (current?.thumbprint === thumbprint) return current;
    if (current?.privateKey) throw keyErrors.noUniqueAlias(`${applicationId}/${referenceId} already has a key of this platform`);
    if (current) await pair.retire(current.id, now);
    return pair.create({
      applicationId,
      referenceId,
      kind: 'OTHER_DOMAIN',
      certificate: certificate.toString(),
      signedCertificate: signed,
      thumbprint,
      // In force from now: the one it replaces was in force until now.
      validFrom: now,
      validTo: new Date(certificate.validTo),
    });
  });
}
