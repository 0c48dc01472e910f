import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { createCsr, generateRsaKeyPair, issueCertificate, type Subject } from '../../lib/crypto/certificates.js';
import { decodeBase64Any, decryptVerR2, encryptVerR2, thumbprintOf, type RecipientKey } from '../../lib/crypto/envelope.js';
import type { MasterKey } from '../../lib/master-key.js';
import type { Clock } from '../../lib/time.js';
import { keyErrors } from './errors.js';
import { ROOT_APPLICATION, type KeyPolicy } from './policy.js';
import { type KeyEntry, type KeyRows } from './storage.js';
import { putCertificateInForce, putOtherDomainCertificate } from './upload-certificate.js';

/** What the platform master key wraps the root and master keys' private halves for (MasterKey.wrap's purpose). */
export const MODULE_KEY_PURPOSE = 'keys/module-key';
const BASE_KEY_PREFIX = 'env1.';
const DAY_MS = 86_400_000;

const pairKey = (applicationId: string, referenceId: string) => `${applicationId}\0${referenceId}`;

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
  private readonly byThumbprint = new Map<string, KeyEntry>();
  /**
   * The key in force per pair, for a few seconds: another instance's rotation
   * is seen within that time, and data sealed meanwhile with the previous key
   * still opens, found by its thumbprint.
   */
  private readonly inForce = new Map<string, { entry: KeyEntry; until: number }>();
  private static readonly IN_FORCE_MS = 10_000;
  /** Generations under way in this process, per pair: a second caller shares the first's instead of making a key to discard. */
  private readonly generating = new Map<string, Promise<KeyEntry>>();

  /** the key_store table */
  private readonly rows: KeyRows;

  constructor(
    /** the database the wiring opened, or the entries as a test keeps them */
    rows: KeyRows,
    private readonly masterKey: MasterKey,
    private readonly clock: Clock,
    private readonly policies: KeyPolicy[],
  ) {
    this.rows = rows;
  }

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
  find(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null> {
    return this.rows.inForce(applicationId, referenceId, at);
  }

  /** The key in force now, generated first where the policy says so; else KER-KMS-012. */
  async current(applicationId: string, referenceId: string | null | undefined, at?: Date): Promise<KeyEntry> {
    const { policy, referenceId: ref } = this.checkReference(applicationId, referenceId);
    const now = this.clock.now();
    const cacheKey = pairKey(applicationId, ref);
    const cached = at ? undefined : this.inForce.get(cacheKey);
    if (cached && cached.until > now.getTime() && cached.entry.validTo > now) return cached.entry;
    const found = await this.find(applicationId, ref, at ?? now);
    if (found) {
      if (!at) this.inForce.set(cacheKey, { entry: found, until: now.getTime() + KeyStore.IN_FORCE_MS });
      return found;
    }
    const automatic = ref ? policy.autoReferenceIds?.includes(ref) : policy.autoGenerate;
    if (!automatic || (at ?? now) > this.clock.now()) throw keyErrors.notGenerated(ref ? `${applicationId}/${ref}` : applicationId);
    const generated = await this.generate(applicationId, ref, undefined, false);
    // Kept too when another instance's key, starting a moment after this clock, won: the next calls need no look-up.
    if (!at) this.inForce.set(cacheKey, { entry: generated, until: now.getTime() + KeyStore.IN_FORCE_MS });
    return generated;
  }

  private defaultSubject(applicationId: string, referenceId: string): Subject {
    return { commonName: referenceId ? `${applicationId}-${referenceId}` : applicationId, organization: 'Identity Platform', organizationUnit: applicationId };
  }

  /**
   * Generates the pair's key (root, master or base) unless one is in force;
   * with `force`, a new one that retires those in force (rotation).
   */
  async generate(applicationId: string, referenceId: string, subject: Subject | undefined, force: boolean): Promise<KeyEntry> {
    const { policy, referenceId: ref } = this.checkReference(applicationId, referenceId);
    if (force) return this.create(policy, applicationId, ref, subject, true);
    const pending = this.generating.get(pairKey(applicationId, ref));
    if (pending) return pending;
    const created = this.create(policy, applicationId, ref, subject, false).finally(() => this.generating.delete(pairKey(applicationId, ref)));
    this.generating.set(pairKey(applicationId, ref), created);
    return created;
  }

  /**
   * The RSA work comes first, outside any transaction (on PGlite's one
   * connection a transaction blocks every query); the key is then stored under
   * the pair's lock only if none is in force, so instances starting together
   * keep one key and the others discard theirs.
   */
  private async create(policy: KeyPolicy, applicationId: string, ref: string, subject: Subject | undefined, force: boolean): Promise<KeyEntry> {
    const now = this.clock.now();
    if (!force) {
      // The newest key neither retired nor expired decides, even one starting a little after this clock (another
      // instance's clock running ahead stored it): that key is the pair's, not a reason for another.
      const existing = await this.rows.latest(applicationId, ref, now);
      if (existing) return existing;
    }
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
    const entry = await this.rows.underPairLock(applicationId, ref, async (locked) => {
      const at = this.clock.now();
      if (!force) {
        const current = await locked.latest(applicationId, ref, at);
        if (current) return current;
      } else {
        // Every key still live, so that a pair left with several (by starts before this lock existed) ends with one.
        await locked.retireUnexpired(applicationId, ref, at);
      }
      return locked.create({
        applicationId,
        referenceId: ref,
        kind,
        privateKey,
        certificate,
        thumbprint: thumbprintOf(certificate).toString('hex'),
        validFrom: at,
        validTo,
      });
    });
    this.forget(applicationId, ref);
    return entry;
  }

  /** Root signs masters; a master signs its base keys. */
  private async issuerFor(applicationId: string, referenceId: string): Promise<KeyEntry> {
    return referenceId ? this.current(applicationId, '') : this.current(ROOT_APPLICATION, '');
  }

  private wrapUnder(master: KeyEntry, pem: string): string {
    return BASE_KEY_PREFIX + encryptVerR2(this.recipient(master), Buffer.from(pem, 'utf8')).toString('base64');
  }

  private readonly certificates = new Map<string, X509Certificate>();

  /** The parsed certificate of an entry, kept per certificate text. */
  certificateOf(entry: KeyEntry): X509Certificate {
    let certificate = this.certificates.get(entry.certificate);
    if (!certificate) {
      certificate = new X509Certificate(entry.certificate);
      if (this.certificates.size > 1000) this.certificates.clear();
      this.certificates.set(entry.certificate, certificate);
    }
    return certificate;
  }

  recipient(entry: KeyEntry): RecipientKey {
    const certificate = this.certificateOf(entry);
    return { certificate, publicKey: certificate.publicKey };
  }

  /** The private key of an entry, unwrapped once per process. */
  async privateKeyOf(entry: KeyEntry): Promise<KeyObject> {
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

  async entryByThumbprint(thumbprint: string): Promise<KeyEntry | null> {
    const cached = this.byThumbprint.get(thumbprint);
    if (cached) return cached;
    const entry = await this.rows.byThumbprint(thumbprint);
    if (entry) this.byThumbprint.set(thumbprint, entry);
    return entry;
  }

  private forget(applicationId: string, referenceId: string): void {
    this.inForce.delete(pairKey(applicationId, referenceId));
  }

  record(entry: KeyEntry): CertificateRecord {
    return {
      certSignRequest: entry.csr,
      certificate: entry.certificate,
      issuedAt: entry.validFrom.toISOString(),
      expiryAt: entry.validTo.toISOString(),
      timestamp: this.clock.now().toISOString(),
    };
  }

  /** A CSR for the key in force, with the caller's subject; kept with the key until a certificate is uploaded. */
  async generateCsr(applicationId: string, referenceId: string | null | undefined, subject: Subject): Promise<KeyEntry> {
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
    return this.rows.setCsr(entry.id, csr);
  }

  /**
   * Puts a CA-signed certificate in force for the key in force; the entry of
   * the old certificate stays, retired (upload-certificate.ts).
   */
  async uploadCertificate(applicationId: string, referenceId: string | null | undefined, data: string): Promise<KeyEntry> {
    const { referenceId: ref } = this.checkReference(applicationId, referenceId);
    const uploaded = await putCertificateInForce(this.rows, this.clock, applicationId, ref, data);
    this.forget(applicationId, ref);
    return uploaded;
  }

  /**
   * Stores another domain's certificate (a partner's, the ABIS partner's) to
   * encrypt towards it, with the platform's certification of it when there is
   * one; it takes over from the pair's certificate in force (upload-certificate.ts).
   */
  async uploadOtherDomainCertificate(
    applicationId: string,
    referenceId: string | null | undefined,
    data: string,
    signedCertificate?: (certificate: X509Certificate) => Promise<string>,
  ): Promise<KeyEntry> {
    const { referenceId: ref } = this.checkReference(applicationId, referenceId);
    if (!ref) throw keyErrors.missingParameter('referenceId');
    const entry = await putOtherDomainCertificate(this.rows, this.clock, applicationId, ref, data, signedCertificate);
    this.forget(applicationId, ref);
    return entry;
  }
}
