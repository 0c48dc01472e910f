import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { KeyStoreEntry, PrismaClient } from '../../generated/prisma/client.js';
import { createCsr, generateRsaKeyPair, issueCertificate, parseCertificate, samePublicKey, type Subject } from '../../lib/crypto/certificates.js';
import { decodeBase64Any, decryptVerR2, encryptVerR2, thumbprintOf, type RecipientKey } from '../../lib/crypto/envelope.js';
import type { MasterKey } from '../../lib/master-key.js';
import type { Clock } from '../../lib/time.js';
import { keyErrors } from './errors.js';
import { ROOT_APPLICATION, type KeyPolicy } from './policy.js';
import { underLock, type Tx } from '../../lib/db/lock.js';

const MODULE_KEY_PURPOSE = 'keys/module-key';
const BASE_KEY_PREFIX = 'env1.';
const DAY_MS = 86_400_000;

export interface CertificateRecord {
  certSignRequest: string | null;
  certificate: string;
  issuedAt: string;
  expiryAt: string;
  timestamp: string;
}

/**
 * MOSIP's key hierarchy in the database: a self-signed root, a master key per
 * application id signed by the root, base keys per reference id signed by
 * their master. Root and master private keys are wrapped under the platform
 * master key; base keys under their master key (two layers, as MOSIP's HSM
 * and key store). Rotated keys stay, so what they encrypted still decrypts.
 */
export class KeyStore {
  private readonly privateKeys = new Map<string, KeyObject>();
  /** Entries by thumbprint: a thumbprint always names the same key, so this never goes stale. */
  private readonly byThumbprint = new Map<string, KeyStoreEntry>();
  /**
   * The key in force per pair, for a few seconds: another instance's rotation
   * is seen within that time, and data sealed meanwhile with the previous key
   * still opens, found by its thumbprint.
   */
  private readonly inForce = new Map<string, { entry: KeyStoreEntry; until: number }>();
  private static readonly IN_FORCE_MS = 10_000;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly masterKey: MasterKey,
    private readonly clock: Clock,
    private readonly policies: KeyPolicy[],
  ) {}

  policyOf(applicationId: string | null | undefined): KeyPolicy {
    if (!applicationId) throw keyErrors.missingApplication();
    const policy = this.policies.find((p) => p.applicationId === applicationId);
    if (!policy) throw keyErrors.unknownApplication(applicationId);
    return policy;
  }

  /** Checks the pair against the policy; '' means the application's master key. */
  checkReference(applicationId: string, referenceId: string | null | undefined): { policy: KeyPolicy; referenceId: string } {
    const policy = this.policyOf(applicationId);
    const ref = referenceId?.trim() ?? '';
    if (ref && (!policy.referenceIds || applicationId === ROOT_APPLICATION)) throw keyErrors.referenceNotSupported(applicationId);
    return { policy, referenceId: ref };
  }

  /** The key (or another domain's certificate) in force at `at` for the pair, if any. */
  async find(applicationId: string, referenceId: string, at: Date, db: Tx | PrismaClient = this.prisma): Promise<KeyStoreEntry | null> {
    return db.keyStoreEntry.findFirst({
      where: {
        applicationId,
        referenceId,
        validFrom: { lte: at },
        validTo: { gt: at },
        OR: [{ retiredAt: null }, { retiredAt: { gt: at } }],
      },
      orderBy: { validFrom: 'desc' },
    });
  }

  /** The key in force now, generated first where the policy says so; else KER-KMS-012. */
  async current(applicationId: string, referenceId: string | null | undefined, at?: Date): Promise<KeyStoreEntry> {
    const { policy, referenceId: ref } = this.checkReference(applicationId, referenceId);
    const now = this.clock.now();
    const cacheKey = `${applicationId}\0${ref}`;
    const cached = at ? undefined : this.inForce.get(cacheKey);
    if (cached && cached.until > now.getTime() && cached.entry.validTo > now) return cached.entry;
    const found = await this.find(applicationId, ref, at ?? now);
    if (found) {
      if (!at) this.inForce.set(cacheKey, { entry: found, until: now.getTime() + KeyStore.IN_FORCE_MS });
      return found;
    }
    at ??= now;
    const automatic = ref ? policy.autoReferenceIds?.includes(ref) : policy.autoGenerate;
    if (!automatic || at > this.clock.now()) throw keyErrors.notGenerated(ref ? `${applicationId}/${ref}` : applicationId);
    return this.generate(applicationId, ref, undefined, false);
  }

  private defaultSubject(applicationId: string, referenceId: string): Subject {
    return { commonName: referenceId ? `${applicationId}-${referenceId}` : applicationId, organization: 'Identity Platform', organizationUnit: applicationId };
  }

  /** Generates the pair's key (root, master or base); with `force`, retires the one in force (rotation). */
  async generate(applicationId: string, referenceId: string, subject: Subject | undefined, force: boolean): Promise<KeyStoreEntry> {
    const { policy, referenceId: ref } = this.checkReference(applicationId, referenceId);
    const now = this.clock.now();
    const existing = await this.find(applicationId, ref, now);
    if (existing && !force) return existing;
    const kind = applicationId === ROOT_APPLICATION ? 'ROOT' : ref ? 'BASE' : 'MASTER';
    const issuer = kind === 'ROOT' ? undefined : await this.issuerFor(applicationId, ref);
    const pair = await generateRsaKeyPair();
    const validTo = new Date(now.getTime() + policy.validityDays * DAY_MS);
    const certificate = issueCertificate({
      publicKeyPem: pair.publicKey,
      subject: subject ?? this.defaultSubject(applicationId, ref),
      validFrom: now,
      validTo,
      ca: kind !== 'BASE',
      selfPrivateKeyPem: pair.privateKey,
      issuer: issuer
        ? { certificatePem: issuer.certificate, privateKeyPem: (await this.privateKeyOf(issuer)).export({ type: 'pkcs8', format: 'pem' }).toString() }
        : undefined,
    });
    const privateKey = kind === 'BASE' ? this.wrapUnder(issuer!, pair.privateKey) : this.masterKey.wrap(pair.privateKey, MODULE_KEY_PURPOSE);
    if (existing) await this.prisma.keyStoreEntry.update({ where: { id: existing.id }, data: { retiredAt: now } });
    this.forget(applicationId, ref);
    return this.prisma.keyStoreEntry.create({
      data: { applicationId, referenceId: ref, kind, privateKey, certificate, thumbprint: thumbprintOf(certificate).toString('hex'), validFrom: now, validTo },
    });
  }

  /** Root signs masters; a master signs its base keys. */
  private async issuerFor(applicationId: string, referenceId: string): Promise<KeyStoreEntry> {
    return referenceId ? this.current(applicationId, '') : this.current(ROOT_APPLICATION, '');
  }

  private wrapUnder(master: KeyStoreEntry, pem: string): string {
    return BASE_KEY_PREFIX + encryptVerR2(this.recipient(master), Buffer.from(pem, 'utf8')).toString('base64');
  }

  private readonly certificates = new Map<string, X509Certificate>();

  /** The parsed certificate of an entry, kept per certificate text. */
  certificateOf(entry: KeyStoreEntry): X509Certificate {
    let certificate = this.certificates.get(entry.certificate);
    if (!certificate) {
      certificate = new X509Certificate(entry.certificate);
      if (this.certificates.size > 1000) this.certificates.clear();
      this.certificates.set(entry.certificate, certificate);
    }
    return certificate;
  }

  recipient(entry: KeyStoreEntry): RecipientKey {
    const certificate = this.certificateOf(entry);
    return { certificate, publicKey: certificate.publicKey };
  }

  /** The private key of an entry, unwrapped once per process. */
  async privateKeyOf(entry: KeyStoreEntry): Promise<KeyObject> {
    const cached = this.privateKeys.get(entry.id);
    if (cached) return cached;
    if (!entry.privateKey) throw keyErrors.notGenerated(`${entry.applicationId}/${entry.referenceId}: no private key here (another domain's certificate)`);
    const pem = entry.privateKey.startsWith(BASE_KEY_PREFIX)
      ? await decryptVerR2(decodeBase64Any(entry.privateKey.slice(BASE_KEY_PREFIX.length)), (thumbprint) => this.privateKeyByThumbprint(thumbprint))
      : this.masterKey.unwrap(entry.privateKey, MODULE_KEY_PURPOSE);
    const key = createPrivateKey(pem.toString('utf8'));
    this.privateKeys.set(entry.id, key);
    return key;
  }

  /** Any key this platform ever held with that certificate thumbprint, rotated ones included. */
  async privateKeyByThumbprint(thumbprint: Buffer): Promise<KeyObject | undefined> {
    const entry = await this.entryByThumbprint(thumbprint.toString('hex'));
    return entry?.privateKey ? this.privateKeyOf(entry) : undefined;
  }

  async entryByThumbprint(thumbprint: string): Promise<KeyStoreEntry | null> {
    const cached = this.byThumbprint.get(thumbprint);
    if (cached) return cached;
    const entry = await this.prisma.keyStoreEntry.findFirst({ where: { thumbprint } });
    if (entry) this.byThumbprint.set(thumbprint, entry);
    return entry;
  }

  private forget(applicationId: string, referenceId: string): void {
    this.inForce.delete(`${applicationId}\0${referenceId}`);
  }

  record(entry: KeyStoreEntry): CertificateRecord {
    return {
      certSignRequest: entry.csr,
      certificate: entry.certificate,
      issuedAt: entry.validFrom.toISOString(),
      expiryAt: entry.validTo.toISOString(),
      timestamp: this.clock.now().toISOString(),
    };
  }

  /** A CSR for the key in force, with the caller's subject; kept with the key until a certificate is uploaded. */
  async generateCsr(applicationId: string, referenceId: string | null | undefined, subject: Subject): Promise<KeyStoreEntry> {
    const entry = await this.current(applicationId, referenceId);
    const privateKey = await this.privateKeyOf(entry);
    const csr = createCsr(
      {
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKey: new X509Certificate(entry.certificate).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
      subject,
    );
    this.forget(entry.applicationId, entry.referenceId);
    return this.prisma.keyStoreEntry.update({ where: { id: entry.id }, data: { csr } });
  }

  /**
   * Puts a CA-signed certificate in force for the key in force. The entry of
   * the old certificate stays, retired, holding the same private key: data
   * encrypted under the old certificate names its thumbprint and still opens,
   * here and on any instance that cached that entry.
   */
  async uploadCertificate(applicationId: string, referenceId: string | null | undefined, data: string): Promise<KeyStoreEntry> {
    const { referenceId: ref } = this.checkReference(applicationId, referenceId);
    const certificate = parseCertificate(data);
    if (!certificate) throw keyErrors.certificateParsing('certificateData is not an X.509 certificate');
    const now = this.clock.now();
    const entry = await this.find(applicationId, ref, now);
    if (!entry || !entry.privateKey) throw keyErrors.notGenerated(ref ? `${applicationId}/${ref}` : applicationId);
    if (!samePublicKey(certificate.publicKey, new X509Certificate(entry.certificate).publicKey)) {
      throw keyErrors.certificateParsing('the certificate is not for the key generated for this application and reference id');
    }
    const thumbprint = thumbprintOf(certificate).toString('hex');
    if (thumbprint === entry.thumbprint) return entry;
    this.forget(applicationId, ref);
    const [, uploaded] = await this.prisma.$transaction([
      this.prisma.keyStoreEntry.update({ where: { id: entry.id }, data: { retiredAt: now } }),
      this.prisma.keyStoreEntry.create({
        data: {
          applicationId,
          referenceId: ref,
          kind: entry.kind,
          privateKey: entry.privateKey,
          certificate: certificate.toString(),
          thumbprint,
          validFrom: now,
          validTo: new Date(certificate.validTo),
          replacesId: entry.id,
        },
      }),
    ]);
    return uploaded;
  }

  /**
   * Stores another domain's certificate (a partner's, the ABIS partner's) to
   * encrypt towards it, with the platform's certification of it when there is
   * one; it takes over from the pair's certificate in force. Under a lock on
   * the pair, so racing uploads leave exactly one in force: the last.
   */
  async uploadOtherDomainCertificate(
    applicationId: string,
    referenceId: string | null | undefined,
    data: string,
    signedCertificate?: (certificate: X509Certificate) => Promise<string>,
  ): Promise<KeyStoreEntry> {
    const { referenceId: ref } = this.checkReference(applicationId, referenceId);
    if (!ref) throw keyErrors.missingParameter('referenceId');
    const certificate = parseCertificate(data);
    if (!certificate) throw keyErrors.certificateParsing('certificateData is not an X.509 certificate');
    if (certificate.publicKey.asymmetricKeyType !== 'rsa') throw keyErrors.certificateParsing('only RSA certificates are supported');
    const thumbprint = thumbprintOf(certificate).toString('hex');
    const signed = signedCertificate ? await signedCertificate(certificate) : null;
    const entry = await underLock(this.prisma, `key_store:${applicationId}:${ref}`, async (tx) => {
      const now = this.clock.now();
      const current = await this.find(applicationId, ref, now, tx);
      if (current?.thumbprint === thumbprint) return current;
      if (current?.privateKey) throw keyErrors.noUniqueAlias(`${applicationId}/${ref} already has a key of this platform`);
      if (current) await tx.keyStoreEntry.update({ where: { id: current.id }, data: { retiredAt: now } });
      return tx.keyStoreEntry.create({
        data: {
          applicationId,
          referenceId: ref,
          kind: 'OTHER_DOMAIN',
          certificate: certificate.toString(),
          signedCertificate: signed,
          thumbprint,
          // In force from now: the one it replaces was in force until now.
          validFrom: now,
          validTo: new Date(certificate.validTo),
        },
      });
    });
    this.forget(applicationId, ref);
    return entry;
  }
}
