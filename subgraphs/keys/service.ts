import { X509Certificate } from 'node:crypto';
import { parseCertificate, type Subject } from '../../lib/crypto/certificates.js';
import {
  CryptoFormatError,
  decodeBase64Any,
  decryptRegistration,
  decryptVerR2,
  encodeBase64Url,
  encryptVerR2,
  KEY_SPLITTER,
  UnknownKeyError,
  type PrivateKeyLookup,
  thumbprintOf,
  UnsupportedVersionError,
} from '../../lib/crypto/envelope.js';
import { PlatformError } from '../../lib/errors.js';
import type { Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import { keyErrors } from './errors.js';
import { cryptoPrerequisites, keyTime } from './inputs.js';
import type { KeyStore } from './key-store.js';
import { MapMachineKey, type Caller } from './map-machine-key.js';
import { PartnerCertificateAccess, type KeyCaller } from './partner-access.js';
import { PARTNER_APPLICATION, PartnerCertificates } from './partner-certificates.js';
import { NOTIFICATION_KEY, PLATFORM_ONLY_APPLICATIONS, REGISTRATION_APPLICATION, RESPONSE_SIGNING_KEY } from './policy.js';
import { SIGNING_KEY, SignData, type KeyPair } from './sign-data.js';
import { type MachineKeyRows, type PartnerCertificateRows } from './storage.js';

export { cryptoPrerequisites, keyTime, SIGNING_KEY };
export type { Caller, KeyPair };

export interface CryptoInput {
  applicationId?: string | null;
  referenceId?: string | null;
  data?: string | null;
  aad?: string | null;
  salt?: string | null;
  timeStamp?: string | null;
}

/** Key manager, crypto manager and signature service rules over the key store. */
export class KeysService {
  private readonly machines: MapMachineKey;
  private readonly signatures: SignData;

  constructor(
    /** the database the wiring opened, or the machine keys (and partners' certificates) as a test keeps them */
    rows: MachineKeyRows & PartnerCertificateRows,
    readonly store: KeyStore,
    private readonly clock: Clock,
    private readonly partnerCertificates: Pick<PartnerCertificates, 'replace'> = new PartnerCertificates(rows, store, clock),
    /** without partner management (a tool using the key store alone), partners' certificates are the key store admins' only */
    private readonly partnerAccess: PartnerCertificateAccess = new PartnerCertificateAccess(() => undefined),
    /** whether a caller may map a key to a machine: master data's rule (the machine's centre staff, the admins of its zone); alone, a GLOBAL_ADMIN only */
    mayMapMachine: (caller: Caller, machineName: string) => Promise<void> = (caller) =>
      caller.roles.includes('GLOBAL_ADMIN')
        ? Promise.resolve()
        : Promise.reject(new PlatformError('KER-ATH-403', 'Forbidden: only a GLOBAL_ADMIN maps machine keys here')),
  ) {
    this.machines = new MapMachineKey(rows, mayMapMachine);
    this.signatures = new SignData(store, clock);
  }

  /** An upload's answer: REST's status and time, and the certificate's thumbprint (the graph links the certificate by it). */
  private uploaded(certificateData: string) {
    return { status: 'success', timestamp: this.clock.now().toISOString(), thumbprint: thumbprintOf(certificateData).toString('hex') };
  }

  /** The certificate in force of a pair; a partner's only to whom partner management lets reach the partner, or a key store admin. */
  async certificate(caller: Principal, applicationId: string, referenceId?: string | null) {
    const { referenceId: ref } = this.store.checkReference(applicationId, referenceId);
    await this.partnerAccess.mustRead(caller, applicationId, ref);
    return this.store.record(await this.store.current(applicationId, ref));
  }

  /** The certificate of an application's master key, for the platform's own use (partner management's certificate for partners). */
  async masterCertificate(applicationId: string) {
    return this.store.record(await this.store.current(applicationId, ''));
  }

  /**
   * A partner's uploaded certificate, for the platform's own encryption to that partner (an ABIS's
   * data share): no caller reads it through here, the certificate never leaves the platform's code.
   */
  async partnerCertificate(referenceId: string) {
    return this.store.record(await this.store.current('PARTNER', referenceId));
  }

  async generateMasterKey(objectType: string, applicationId: string, referenceId: string | null | undefined, force: boolean, subject?: Subject | null) {
    if (objectType !== 'Certificate' && objectType !== 'CSR') throw keyErrors.invalidInput('objectType is Certificate or CSR');
    const { referenceId: ref } = this.store.checkReference(applicationId, referenceId);
    let entry = await this.store.generate(applicationId, ref, subject?.commonName ? subject : undefined, force);
    if (objectType === 'CSR') entry = await this.store.generateCsr(applicationId, ref, subject?.commonName ? subject : { commonName: applicationId });
    const record = this.store.record(entry);
    return objectType === 'CSR' ? record : { ...record, certSignRequest: null };
  }

  async generateCsr(applicationId: string, referenceId: string | null | undefined, subject: Subject) {
    if (!subject.commonName?.trim()) throw keyErrors.invalidInput('commonName is required');
    if (subject.country && !/^[A-Za-z]{2}$/.test(subject.country)) throw keyErrors.invalidInput('country is a two-letter ISO code');
    return this.store.record(await this.store.generateCsr(applicationId, referenceId, subject));
  }

  async uploadCertificate(applicationId: string, referenceId: string | null | undefined, certificateData: string) {
    await this.store.uploadCertificate(applicationId, referenceId, certificateData);
    return this.uploaded(certificateData);
  }

  /**
   * Another domain's certificate. A partner's (PARTNER/<partnerId>) is a key
   * store admin's to replace here, after the partner certificate manager's
   * checks (RSA of 2048 bits or more, in force now), as partner management's
   * upload makes them; everyone else goes through partner management.
   */
  async uploadOtherDomainCertificate(caller: KeyCaller, applicationId: string, referenceId: string | null | undefined, certificateData: string) {
    const { referenceId: ref } = this.store.checkReference(applicationId, referenceId);
    this.partnerAccess.mustReplace(caller, applicationId, ref);
    // What is no certificate at all keeps the key manager's own code (KER-KMS-013); the rest is the partner certificate manager's (KER-PCM).
    if (!parseCertificate(certificateData)) throw keyErrors.certificateParsing('certificateData is not an X.509 certificate');
    if (applicationId === PARTNER_APPLICATION && ref) await this.partnerCertificates.replace(ref, certificateData);
    else await this.store.uploadOtherDomainCertificate(applicationId, ref, certificateData);
    return this.uploaded(certificateData);
  }

  /** Key manager failures seen from the crypto manager are KER-CRY-006, as MOSIP's services report them. */
  private async keyFor<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PlatformError && error.code.startsWith('KER-KMS')) throw keyErrors.keyManager(error.message);
      throw error;
    }
  }

  private cryptoParameters(input: CryptoInput) {
    cryptoPrerequisites(input);
    // No timestamp means now: the key in force, which the store may answer from its short cache.
    const at = input.timeStamp ? keyTime(input.timeStamp) : undefined;
    const decode = (name: string, value?: string | null) => {
      if (!value) return undefined;
      try {
        return decodeBase64Any(value);
      } catch {
        throw keyErrors.badData(`${name} is not base64 encoded`);
      }
    };
    return {
      applicationId: input.applicationId.trim(),
      referenceId: input.referenceId?.trim() ?? '',
      at,
      aad: decode('aad', input.aad),
      salt: decode('salt', input.salt),
    };
  }

  /**
   * Only the roles the key policy grants an application id may use its keys
   * through the crypto manager; the platform's own keys (PLATFORM, and IDREPO
   * and PREREG, which seal stored data) never, whatever PLATFORM_KEY_POLICY says.
   */
  private async authorizeCrypto(caller: Caller, applicationId: string): Promise<void> {
    const policy = await this.keyFor(() => Promise.resolve(this.store.policyOf(applicationId)));
    const allowed =
      !PLATFORM_ONLY_APPLICATIONS.includes(policy.applicationId) && caller.roles.some((role) => (policy.cryptoRoles as readonly string[]).includes(role));
    if (!allowed) throw new PlatformError('KER-ATH-403', `Forbidden: the token has no role that may use the keys of ${applicationId}`);
  }

  async encrypt(caller: Caller, input: CryptoInput): Promise<{ data: string }> {
    const p = this.cryptoParameters(input);
    await this.authorizeCrypto(caller, p.applicationId);
    const entry = await this.keyFor(() => this.store.current(p.applicationId, p.referenceId, p.at));
    const sealed = encryptVerR2(this.store.recipient(entry), Buffer.from(input.data!, 'utf8'), { aad: p.aad, salt: p.salt });
    return { data: encodeBase64Url(sealed) };
  }

  async decrypt(caller: Caller, input: CryptoInput): Promise<{ data: string }> {
    const p = this.cryptoParameters(input);
    await this.authorizeCrypto(caller, p.applicationId);
    // One answer for one mistake: a reference the application does not take is KER-CRY-006 here, as encrypt answers it.
    await this.keyFor(() => this.store.checkReference(p.applicationId, p.referenceId));
    let sealed: Buffer;
    try {
      sealed = decodeBase64Any(input.data!);
    } catch {
      throw keyErrors.badData('data is not base64 encoded');
    }
    // Only keys of the named application and reference may open it, whatever thumbprint it carries.
    const lookup = this.lookupWithin(p.applicationId, [p.referenceId]);
    try {
      // Only a pre-1.2 block without thumbprint needs the key in force at the timestamp.
      const fallback = sealed.indexOf(KEY_SPLITTER) === 256 ? await this.store.find(p.applicationId, p.referenceId, p.at ?? this.clock.now()) : null;
      const plain = await decryptVerR2(sealed, lookup, {
        aad: p.aad,
        salt: p.salt,
        fallback: fallback?.privateKey ? await this.store.privateKeyOf(fallback) : undefined,
      });
      return { data: plain.toString('utf8') };
    } catch (error) {
      if (error instanceof UnknownKeyError)
        throw keyErrors.keyManager(`no key of ${p.applicationId}${p.referenceId ? '/' + p.referenceId : ''} matches the data`);
      if (error instanceof CryptoFormatError) throw keyErrors.badData(error.message);
      if (error instanceof UnsupportedVersionError) throw keyErrors.unsupportedAlgorithm(error.message);
      throw error;
    }
  }

  /** The signature service: signs with KERNEL/SIGN, never with the key behind Response-Signature (sign-data.ts). */
  sign(data: string | null | undefined): Promise<{ signature: string; timestamp: string }> {
    return this.signatures.sign(data);
  }

  /** Valid only when signed by one of this platform's signing keys (rotated ones too); a detached JWS needs `data`. */
  validateSignature(jws: string | null | undefined, data?: string | null): Promise<{ status: string; message: string }> {
    return this.signatures.validateSignature(jws, data);
  }

  /** The Response-Signature header value: a detached JWS over the body, with PLATFORM/RESPONSE_SIGN. */
  responseSignature(body: string): Promise<string> {
    return this.signatures.responseSignature(body);
  }

  /** Generates the platform's own keys where missing (first start). */
  async ensurePlatformKeys(): Promise<void> {
    for (const pair of [RESPONSE_SIGNING_KEY, NOTIFICATION_KEY]) await this.store.current(pair.applicationId, pair.referenceId);
  }

  /** Seals data with one of the platform's own keys (never reachable through the crypto manager). */
  async seal(pair: KeyPair, data: Buffer): Promise<string> {
    const entry = await this.store.current(pair.applicationId, pair.referenceId);
    return encodeBase64Url(encryptVerR2(this.store.recipient(entry), data));
  }

  /** Opens what `seal` sealed for the same pair; any key the pair ever had opens its own data. */
  async open(pair: KeyPair, sealed: string): Promise<Buffer> {
    return decryptVerR2(decodeBase64Any(sealed), this.lookupWithin(pair.applicationId, [pair.referenceId]));
  }

  /**
   * The one rule of every decryption by thumbprint: the private key of the
   * data's thumbprint, only if it belongs to this application and one of these
   * references (rotated keys included); any other key of the platform is unknown.
   */
  private lookupWithin(applicationId: string, referenceIds: readonly string[]): PrivateKeyLookup {
    return async (thumbprint) => {
      const entry = await this.store.entryByThumbprint(thumbprint.toString('hex'));
      return entry && entry.applicationId === applicationId && referenceIds.includes(entry.referenceId) && entry.privateKey
        ? this.store.privateKeyOf(entry)
        : undefined;
    };
  }

  /**
   * A registration packet or sync request of a centre's machine (ABIS.md (e)):
   * opened with a REGISTRATION key of the reference `<centerId>_<machineId>`
   * or, as clients without a machine key use, the application's own; found
   * by the thumbprint in the data. KER-KMS-* / KER-CRY-* on failure.
   */
  async decryptRegistration(sealed: Buffer, centreMachineRefId: string): Promise<Buffer> {
    try {
      return await decryptRegistration(sealed, this.lookupWithin(REGISTRATION_APPLICATION, [centreMachineRefId, '']));
    } catch (error) {
      if (error instanceof UnknownKeyError) throw keyErrors.keyManager(`no key of ${REGISTRATION_APPLICATION} for ${centreMachineRefId} matches the data`);
      if (error instanceof CryptoFormatError) throw keyErrors.badData(error.message);
      throw error;
    }
  }

  /** Sync data: the public key of an application (or reference) in force at a time. */
  async syncPublicKey(caller: Principal, applicationId: string, referenceId: string | null | undefined, timeStamp: string) {
    const at = keyTime(timeStamp);
    const { referenceId: ref } = this.store.checkReference(applicationId, referenceId);
    await this.partnerAccess.mustRead(caller, applicationId, ref);
    const entry =
      at <= this.clock.now()
        ? ((await this.store.find(applicationId, ref, at)) ?? (await this.store.current(applicationId, ref)))
        : await this.store.current(applicationId, ref);
    const publicKey = new X509Certificate(entry.certificate).publicKey.export({ type: 'spki', format: 'der' });
    return { publicKey: encodeBase64Url(publicKey), issuedAt: entry.validFrom.toISOString(), expiryAt: entry.validTo.toISOString(), profile: 'default' };
  }

  /** Maps a machine's public key (map-machine-key.ts). */
  uploadMachinePublicKey(caller: Caller, machineName: string, publicKey: string) {
    return this.machines.upload(caller, machineName, publicKey);
  }

  /** The machine a key index is mapped to, with its key; null for none (sync data's client settings). */
  machineKeyByIndex(keyIndex: string) {
    return this.machines.byIndex(keyIndex);
  }

  /** Whether a public key is the one mapped to a machine; KER-SNC-155 for a machine without one. */
  verifyMachinePublicKey(machineName: string, publicKey: string) {
    return this.machines.verify(machineName, publicKey);
  }
}
