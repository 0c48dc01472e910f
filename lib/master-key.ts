import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './log.js';

const WRAP_PREFIX = 'mk1.';

/**
 * The root of every secret at rest. Keys for each purpose are derived from it
 * (HKDF), so a stolen database alone opens nothing.
 */
export class MasterKey {
  private readonly derived = new Map<string, Buffer>();

  private constructor(private readonly secret: Buffer) {}

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

  /** A 32-byte key for one purpose, e.g. "auth/client-secret-hmac". */
  derive(purpose: string): Buffer {
    let key = this.derived.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.secret, 'identity-platform', purpose, 32));
      this.derived.set(purpose, key);
    }
    return key;
  }

  /** AES-256-GCM under the purpose's key; the purpose is bound as AAD so a value cannot be moved to another use. */
  wrap(plaintext: Buffer | string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.derive(purpose), iv);
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return WRAP_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  unwrap(wrapped: string, purpose: string): Buffer {
    if (!wrapped.startsWith(WRAP_PREFIX)) throw new Error('value is not wrapped by the master key');
    const raw = Buffer.from(wrapped.slice(WRAP_PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.derive(purpose), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }
}
