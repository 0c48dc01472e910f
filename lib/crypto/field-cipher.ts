import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Clock } from '../time.js';

export type KeyPurpose = 'DATA' | 'LOOKUP' | 'HASH';
export interface SealedKey {
  id: string;
  purpose: string;
  sealedKey: string;
}

/** A component's table of its cipher's keys, sealed (its storage.ts implements it). */
export interface KeyRingStorage {
  active(): Promise<SealedKey[]>;
  byId(id: string): Promise<SealedKey | null>;
  /** stores each candidate whose purpose has no active key yet, under a lock: instances starting together agree on one key per purpose */
  addMissing(candidates: readonly { purpose: KeyPurpose; sealedKey: string }[], now: Date): Promise<void>;
}

/** What seals the cipher's keys: the key store's RSA keys (VER_R2). */
export interface KeySealer {
  seal(pair: { applicationId: string; referenceId: string }, data: Buffer): Promise<string>;
  open(pair: { applicationId: string; referenceId: string }, sealed: string): Promise<Buffer>;
}

const PURPOSES: readonly KeyPurpose[] = ['DATA', 'LOOKUP', 'HASH'];
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Field encryption of a component that keeps residents' data (the ID
 * repository, pre-registration): AES-256-GCM under a DATA key, HMAC-SHA256
 * look-ups under a LOOKUP key, HMACs of plain text under a HASH key. The
 * three keys are random, kept sealed by one of the key store's keys (RSA,
 * VER_R2) and opened once per process: a database dump alone opens nothing,
 * and a read costs no RSA operation. Every ciphertext names its DATA key and
 * is bound to its place (`context`, the GCM additional data): a value moved
 * to another row or field does not decrypt.
 */
export class FieldCipher {
  // KeyObjects made once: a raw Buffer key is turned into one on every cipher or HMAC call.
  private readonly dataKeys = new Map<string, KeyObject>();
  private active: { id: string; key: KeyObject } | undefined;
  private lookupKey: KeyObject | undefined;
  private hashKey: KeyObject | undefined;
  constructor(
    /** the idrepo_key table */
    private readonly store: KeyRingStorage,
    private readonly keys: KeySealer,
    private readonly clock: Clock,
    /** the key store's key that seals these keys */
    private readonly sealingKey: { applicationId: string; referenceId: string },
    /** the component's error for a value that cannot be opened */
    private readonly failure: (why: string) => Error,
  ) {}

  /** Opens the keys, creating each missing one (under a lock, so instances starting together agree). */
  async start(): Promise<void> {
    let rows = await this.store.active();
    const missing = PURPOSES.filter((purpose) => !rows.some((row) => row.purpose === purpose));
    if (missing.length) {
      // Sealed before the lock: the key store works on its own connections, which a transaction must not wait for.
      const candidates = await Promise.all(missing.map(async (purpose) => ({ purpose, sealedKey: await this.keys.seal(this.sealingKey, randomBytes(32)) })));
      await this.store.addMissing(candidates, this.clock.now());
      rows = await this.store.active();
    }
    for (const row of rows) {
      const key = createSecretKey(await this.keys.open(this.sealingKey, row.sealedKey));
      if (row.purpose === 'DATA') {
        this.dataKeys.set(row.id, key);
        this.active = { id: row.id, key };
      } else if (row.purpose === 'LOOKUP') this.lookupKey = key;
      else this.hashKey = key;
    }
  }

  private require<T>(value: T | undefined): T {
    if (value === undefined) throw this.failure('the keys are not open');
    return value;
  }

  /** `<keyId>.<base64url(iv | ciphertext | tag)>` */
  encrypt(plain: Buffer, context: string): string {
    const { id, key } = this.require(this.active);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${id}.${body.toString('base64url')}`;
  }

  async decrypt(value: string, context: string): Promise<Buffer> {
    const dot = value.indexOf('.');
    const body = Buffer.from(value.slice(dot + 1), 'base64url');
    if (dot <= 0 || body.length < IV_BYTES + TAG_BYTES) throw this.failure('stored data is damaged');
    const key = await this.dataKey(value.slice(0, dot));
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw this.failure('stored data failed its integrity check');
    }
  }

  /** A DATA key by id: one made by another instance since this one started is opened on first use. */
  private async dataKey(id: string): Promise<KeyObject> {
    const known = this.dataKeys.get(id);
    if (known) return known;
    const row = await this.store.byId(id);
    if (row?.purpose !== 'DATA') throw this.failure('stored data names no key of this cipher');
    const key = createSecretKey(await this.keys.open(this.sealingKey, row.sealedKey));
    this.dataKeys.set(id, key);
    return key;
  }

  /** The look-up value of a UIN or VID (hex HMAC): equal numbers give equal values, and nothing else can be learnt from it. */
  lookup(value: string): string {
    return createHmac('sha256', this.require(this.lookupKey)).update(value, 'utf8').digest('hex');
  }

  /** The HMAC of plain bytes, bound to their place. */
  hash(plain: Buffer, context: string): string {
    return createHmac('sha256', this.require(this.hashKey)).update(context, 'utf8').update('\0').update(plain).digest('hex');
  }

  /** Decrypts and checks the stored HMAC: a tampered or moved value is refused, never served. */
  async open(value: string, expectedHash: string, context: string): Promise<Buffer> {
    const plain = await this.decrypt(value, context);
    const actual = Buffer.from(this.hash(plain, context), 'hex');
    const expected = Buffer.from(expectedHash, 'hex');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw this.failure('stored data failed its integrity check');
    return plain;
  }
}
