import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { KeyStoreEntry, Prisma, PrismaClient } from '../../generated/prisma/client.js';
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

const pairKey = (applicationId: string, referenceId: string) => `${applicationId}\0${referenceId}`;
/** The advisory lock of a pair: whatever puts a key or certificate in force for it takes this lock. */
const lockOf = (applicationId: string, referenceId: string) => `key_store:${applicationId}:${referenceId}`;
/** Entries neither retired nor expired at `at`, whenever they started. */
const unexpiredAt = (at: Date): Prisma.KeyStoreEntryWhereInput => ({ validTo: { gt: at }, OR: [{ retiredAt: null }, { retiredAt: { gt: at } }] });
/** Entries in force at `at`: valid then and not yet retired. */
const inForceAt = (at: Date): Prisma.KeyStoreEntryWhereInput => ({ validFrom: { lte: at }, ...unexpiredAt(at) });

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
  /** Generations under way in this process, per pair: a second caller shares the first's instead of making a key to discard. */
  private readonly generating = new Map<string, Promise<KeyStoreEntry>>();

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
      where: { applicationId, referenceId, ...inForceAt(at) },
      orderBy: { validFrom: 'desc' },
    });
  }

  /**
   * The newest key of the pair neither retired nor expired at `at`: what
   * decides whether a key is to be generated. Unlike `find` it also counts a
   * key whose start is a little after `at`, as another instance whose clock
   * runs ahead stores it: that key is the pair's, not a reason for another.
   */
  private async latest(applicationId: string, referenceId: string, at: Date, db: Tx | PrismaClient = this.prisma): Promise<KeyStoreEntry | null> {
    return db.keyStoreEntry.findFirst({ where: { applicationId, referenceId, ...unexpiredAt(at) }, orderBy: { validFrom: 'desc' } });
  }

  /** The key in force now, generated first where the policy says so; else KER-KMS-012. */
  async current(applicationId: string, referenceId: string | null | undefined, at?: Date): Promise<KeyStoreEntry> {
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
  async generate(applicationId: string, referenceId: string, subject: Subject | undefined, force: boolean): Promise<KeyStoreEntry> {
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
  private async create(policy: KeyPolicy, applicationId: string, ref: string, subject: Subject | undefined, force: boolean): Promise<KeyStoreEntry> {
    const now = this.clock.now();
    if (!force) {
      const existing = await this.latest(applicationId, ref, now);
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
    const entry = await underLock(this.prisma, lockOf(applicationId, ref), async (tx) => {
      const at = this.clock.now();
      if (!force) {
        const current = await this.latest(applicationId, ref, at, tx);
        if (current) return current;
      } else {
        // Every key still live, so that a pair left with several (by starts before this lock existed) ends with one.
        await tx.keyStoreEntry.updateMany({ where: { applicationId, referenceId: ref, ...unexpiredAt(at) }, data: { retiredAt: at } });
      }
      return tx.keyStoreEntry.create({
        data: { applicationId, referenceId: ref, kind, privateKey, certificate, thumbprint: thumbprintOf(certificate).toString('hex'), validFrom: at, validTo },
      });
    });
    this.forget(applicationId, ref);
    return entry;
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
    this.inForce.delete(pairKey(applicationId, referenceId));
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
    const thumbprint = thumbprintOf(certificate).toString('hex');
    // Under the pair's lock: racing uploads, or an upload racing a rotation, leave one entry in force.
    const uploaded = await underLock(this.prisma, lockOf(applicationId, ref), async (tx) => {
      const now = this.clock.now();
      const entry = await this.find(applicationId, ref, now, tx);
      if (!entry || !entry.privateKey) throw keyErrors.notGenerated(ref ? `${applicationId}/${ref}` : applicationId);
      if (!samePublicKey(certificate.publicKey, new X509Certificate(entry.certificate).publicKey)) {
        throw keyErrors.certificateParsing('the certificate is not for the key generated for this application and reference id');
      }
      if (thumbprint === entry.thumbprint) return entry;
      await tx.keyStoreEntry.update({ where: { id: entry.id }, data: { retiredAt: now } });
      return tx.keyStoreEntry.create({
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
      });
    });
    this.forget(applicationId, ref);
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
    const entry = await underLock(this.prisma, lockOf(applicationId, ref), async (tx) => {
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
