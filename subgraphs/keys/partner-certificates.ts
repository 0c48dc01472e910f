import type { X509Certificate } from 'node:crypto';
import { issueCertificate, parseCertificate, type Subject } from '../../lib/crypto/certificates.js';
import type { Clock } from '../../lib/time.js';
import { keyErrors } from './errors.js';
import type { KeyStore } from './key-store.js';
import { type KeyEntry, type PartnerCertificateRows } from './storage.js';

/** Where partners' certificates are kept: another domain's certificate per partner id. */
export const PARTNER_APPLICATION = 'PARTNER';
/** The key that signs partners' certificates (MOSIP: partner management's). */
const SIGNING_APPLICATION = 'PMS';
/** MOSIP's partner domains. */
export const PARTNER_DOMAINS = ['AUTH', 'DEVICE', 'FTM'] as const;
const MIN_KEY_BITS = 2048;

const SUBJECT_FIELDS: Record<string, keyof Subject> = { CN: 'commonName', C: 'country', ST: 'state', L: 'location', O: 'organization', OU: 'organizationUnit' };

/** The subject of a certificate, as the fields a certificate is issued with. */
function subjectOf(certificate: X509Certificate, fallbackName: string): Subject {
  const subject: Subject = { commonName: fallbackName };
  for (const line of certificate.subject.split('\n')) {
    const at = line.indexOf('=');
    const field = SUBJECT_FIELDS[line.slice(0, at)];
    if (field) subject[field] = line.slice(at + 1);
  }
  return subject;
}

export interface PartnerCertificateUpload {
  /** the uploaded certificate's thumbprint (hex SHA-256 of its DER) */
  certificateId: string;
  /** the partner's public key certified by partner management's key */
  signedCertificateData: string;
}

/**
 * The partner certificate manager: checks a partner's certificate (X.509,
 * RSA of 2048 bits or more, in force now, a known partner domain), keeps it
 * as another domain's certificate under PARTNER/<partnerId> so that data can
 * be encrypted towards the partner, and answers it certified by partner
 * management's key, as MOSIP signs partner certificates.
 */
export class PartnerCertificates {
  /** the key_store table, as partners' certificates are read from it */
  private readonly rows: PartnerCertificateRows;

  constructor(
    /** the database the wiring opened, or the entries as a test keeps them */
    rows: PartnerCertificateRows,
    private readonly store: KeyStore,
    private readonly clock: Clock,
  ) {
    this.rows = rows;
  }

  /** The partner certificate manager's checks of the certificate itself: X.509, RSA of 2048 bits or more, in force now. */
  private check(certificateData: string): X509Certificate {
    const certificate = parseCertificate(certificateData);
    if (!certificate) throw keyErrors.partnerCertificateInvalid('certificateData is not an X.509 certificate');
    const details = certificate.publicKey.asymmetricKeyDetails;
    if (certificate.publicKey.asymmetricKeyType !== 'rsa') throw keyErrors.partnerCertificateInvalid('only RSA certificates are supported');
    if ((details?.modulusLength ?? 0) < MIN_KEY_BITS) throw keyErrors.partnerKeyTooSmall(details?.modulusLength ?? 0);
    const now = this.clock.now().getTime();
    if (Date.parse(certificate.validFrom) > now) throw keyErrors.partnerCertificateDates(`not valid before ${certificate.validFrom}`);
    if (Date.parse(certificate.validTo) <= now) throw keyErrors.partnerCertificateDates(`expired ${certificate.validTo}`);
    return certificate;
  }

  /** Partner management's upload (its caller's scope checked there): the domain, then the certificate. */
  async upload(partnerId: string, certificateData: string, partnerDomain: string): Promise<PartnerCertificateUpload> {
    if (!(PARTNER_DOMAINS as readonly string[]).includes(partnerDomain)) throw keyErrors.partnerDomainInvalid(partnerDomain);
    return this.replace(partnerId, certificateData);
  }

  /**
   * Puts a partner's certificate in force after the same checks, whichever
   * door it came through (partner management's upload, or a key store
   * admin's uploadOtherDomainCertificate under PARTNER): no door takes a
   * weaker certificate than another.
   */
  async replace(partnerId: string, certificateData: string): Promise<PartnerCertificateUpload> {
    const checked = this.check(certificateData);
    const entry = await this.store.uploadOtherDomainCertificate(PARTNER_APPLICATION, partnerId, checked.toString(), (certificate) =>
      this.certify(certificate, partnerId),
    );
    return { certificateId: entry.thumbprint, signedCertificateData: entry.signedCertificate ?? (await this.certify(checked, partnerId)) };
  }

  /** The partner's public key in a certificate issued by partner management's key in force. */
  private async certify(certificate: X509Certificate, partnerId: string): Promise<string> {
    const issuer = await this.store.current(SIGNING_APPLICATION, '');
    return issueCertificate({
      publicKeyPem: certificate.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      subject: subjectOf(certificate, partnerId),
      validFrom: this.clock.now(),
      validTo: new Date(Math.min(Date.parse(certificate.validTo), issuer.validTo.getTime())),
      ca: false,
      issuer: {
        certificatePem: issuer.certificate,
        privateKeyPem: (await this.store.privateKeyOf(issuer)).export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
    });
  }

  /** The partner's certificate in force, as partner management certified it: KER-PCM-012 before any upload. */
  async current(partnerId: string): Promise<PartnerCertificateUpload> {
    const entry = (await this.inForce([partnerId])).get(partnerId);
    if (!entry) throw keyErrors.partnerCertificateNotFound(partnerId);
    return {
      certificateId: entry.thumbprint,
      signedCertificateData: entry.signedCertificate ?? (await this.certify(this.store.certificateOf(entry), partnerId)),
    };
  }

  /** Whether the key store keeps, or kept, a certificate under PARTNER/<partnerId> (another domain's, such as the ABIS partner's). */
  async held(partnerId: string): Promise<boolean> {
    return (await this.rows.countOf(PARTNER_APPLICATION, partnerId)) > 0;
  }

  /** The certificates in force of these partners, in one query (the batch behind Partner.certificate). */
  async inForce(partnerIds: readonly string[]): Promise<Map<string, KeyEntry>> {
    const rows = await this.rows.inForceOf(PARTNER_APPLICATION, partnerIds, this.clock.now());
    // Ascending: the newest entry of each partner is set last.
    return new Map(rows.map((row) => [row.referenceId, row]));
  }
}
