import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './log.js';

const WRAP_PREFIX = 'mk1.';

/** The platform marker (table platform_marker) where a rewrap keeps the derivation root, sealed under the new master key. */
export const DERIVATION_ROOT_MARKER = 'master-key-root';

/** What a platform marker sealed by the master key is sealed for: its name, so that a rewrap finds the purpose of each. */
export const markerPurpose = (name: string) => `platform/${name}`;

/**
 * The root of every secret at rest. Keys for each purpose are derived from it
 * (HKDF), so a stolen database alone opens nothing. Two kinds: wrapping keys
 * (AES-GCM over private keys) come from this key itself, and move to a new
 * master key when `platform keys rewrap` re-encrypts what they wrapped; HMAC
 * keys (`derive`: client secrets, OTPs, look-ups) hash values nobody keeps,
 * which no rewrap could hash again, so they come from a derivation root that
 * outlives the key: this key's own secret at first, after a rewrap the first
 * key's, sealed under the new one (`openRoot`).
 */
export class MasterKey {
  private readonly derived = new Map<string, Buffer>();
  private readonly wrapping = new Map<string, Buffer>();
  private root: Buffer;

  private constructor(private readonly secret: Buffer) {
    this.root = secret;
  }

  /** From a passphrase: a slow KDF once at start, since a passphrase may be guessable. */
  static fromPassphrase(passphrase: string): MasterKey {
    return new MasterKey(scryptSync(passphrase, 'identity-platform/master-key', 32, { N: 16384, r: 8, p: 1 }));
  }

  /**
   * PLATFORM_MASTER_KEY, or in development a random key generated once into
   * the data folder (mode 0600) with a warning.
   */
  static load(passphrase: string | undefined, dataDir: string, logger: Logger): MasterKey {
    if (passphrase) return MasterKey.fromPassphrase(passphrase);
    const file = path.join(dataDir, 'master-key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
      logger.warn({ file }, 'PLATFORM_MASTER_KEY is not set: generated a development master key; set PLATFORM_MASTER_KEY in production');
    } else {
      logger.warn({ file }, 'PLATFORM_MASTER_KEY is not set: using the development master key from the data folder');
    }
    return MasterKey.fromPassphrase(readFileSync(file, 'utf8').trim());
  }

  /** A 32-byte key for one purpose, e.g. "auth/client-secret-hmac", the same across rewraps. */
  derive(purpose: string): Buffer {
    return MasterKey.hkdf(this.derived, this.root, purpose);
  }

  private static hkdf(cache: Map<string, Buffer>, from: Buffer, purpose: string): Buffer {
    let key = cache.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', from, 'identity-platform', purpose, 32));
      cache.set(purpose, key);
    }
    return key;
  }

  /**
   * Takes the derivation root a rewrap sealed under this key (null: there is
   * none, this key is the platform's first); throws when this key does not
   * open it. Run at start, before any component derives its keys.
   */
  openRoot(sealed: string | null): void {
    this.root = sealed ? this.unwrap(sealed, markerPurpose(DERIVATION_ROOT_MARKER)) : this.secret;
    this.derived.clear();
  }

  /** The derivation root sealed under `next`: what a rewrap stores so that the HMAC keys stay what they were. */
  sealRootFor(next: MasterKey): string {
    return next.wrap(this.root, markerPurpose(DERIVATION_ROOT_MARKER));
  }

  /** Whether two keys are the same secret (a rewrap to the key in use would change nothing). */
  sameAs(other: MasterKey): boolean {
    return this.secret.equals(other.secret);
  }

  /** Whether a value is wrapped by a master key (its format, not which key). */
  static isWrapped(value: string): boolean {
    return value.startsWith(WRAP_PREFIX);
  }

  /** AES-256-GCM under the purpose's key; the purpose is bound as AAD so a value cannot be moved to another use. */
  wrap(plaintext: Buffer | string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', MasterKey.hkdf(this.wrapping, this.secret, purpose), iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return WRAP_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  unwrap(wrapped: string, purpose: string): Buffer {
    if (!wrapped.startsWith(WRAP_PREFIX)) throw new Error('value is not wrapped by the master key');
    const raw = Buffer.from(wrapped.slice(WRAP_PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', MasterKey.hkdf(this.wrapping, this.secret, purpose), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }
}
