import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { MasterKey } from '../master-key.js';
import type { Clock } from '../time.js';
import type { SigningKeyRow, SigningKeyTable } from './storage.js';

/** The first key's id, the `kid` of every token signed before rotations existed. */
export const FIRST_SIGNING_KEY_ID = 'auth-token-signing-1';
export const SIGNING_KEY_PURPOSE = 'auth/token-signing-key';

/**
 * How long an instance signs with a key another instance has retired: it
 * reads the keys again this long after its last read. Verification does not
 * wait for it: a token naming an unknown kid makes the keys be read at once.
 */
export const SIGNING_KEYS_REFRESH_MS = 30_000;
/** Clock skew and the refresh above, on top of the longest token life, before a retired key is dropped. */
const RETIRED_GRACE_MS = 5 * 60_000;
/** At most one read of the keys per this long for unknown kids: a flood of forged kids costs one query a second. */
const UNKNOWN_KID_READ_MS = 1_000;

/** A public key as RFC 7517 publishes it, for external verifiers (the JWKS endpoint). */
export interface Jwk {
  kty: 'RSA';
  kid: string;
  use: 'sig';
  alg: 'RS256';
  n: string;
  e: string;
}

/** A signing key as an operator sees it (`platform keys list`). */
export interface SigningKeyView {
  kid: string;
  active: boolean;
  createdAt: Date;
  /** when a retired key stops verifying (its last tokens have expired); null for the active key */
  acceptedUntil: Date | null;
}

interface Verifier {
  key: KeyObject;
  active: boolean;
  createdAt: Date;
  acceptedUntil: number;
}

/** The key a token names in its header (undefined when it names none, or the header does not read). */
export function kidOf(token: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/** The RFC 7638 thumbprint of an RSA public key: a kid any verifier can compute from the key itself. */
function thumbprintKid(publicKey: KeyObject): string {
  const { e, n } = publicKey.export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

/**
 * The token signing keys: one active key signs, and every key retired less
 * than the longest token life ago still verifies, so a rotation ends no live
 * token. Each token names its key (`kid`). The keys live in auth_signing_key,
 * their private halves wrapped under the master key; each instance keeps them
 * in memory, read again every SIGNING_KEYS_REFRESH_MS and whenever a token
 * names a kid it does not know (a rotation on another instance).
 */
export class SigningKeys {
  private signer!: { kid: string; key: KeyObject; header: string };
  private verifiers = new Map<string, Verifier>();
  private readAt = 0;
  private unknownReadAt = 0;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly table: SigningKeyTable,
    private readonly masterKey: MasterKey,
    private readonly clock: Clock,
    /** the longest life of a token these keys sign (ms) */
    private readonly longestLifeMs: number,
  ) {}

  /**
   * Reads the keys, creating the first on a first start. Instances starting
   * together each offer one; the insert keeps the first and skips the others.
   */
  async start(): Promise<void> {
    if (!(await this.table.signingKeys()).length) {
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      await this.table.offerSigningKey(this.sealed(FIRST_SIGNING_KEY_ID, pair.privateKey, pair.publicKey));
    }
    await this.read();
  }

  private sealed(id: string, privateKey: KeyObject, publicKey: KeyObject): SigningKeyRow {
    return {
      id,
      privateKey: this.masterKey.wrap(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), SIGNING_KEY_PURPOSE),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  }

  /** One read at a time: callers arriving meanwhile share it. */
  private read(): Promise<void> {
    this.reading ??= this.load().finally(() => (this.reading = undefined));
    return this.reading;
  }

  /** A key retires when the next one is made (rows oldest first): it verifies for the longest token life after that, and the grace. */
  private async load(): Promise<void> {
    const rows = await this.table.signingKeys();
    const active = rows.filter((row) => row.active).at(-1) ?? rows.at(-1);
    if (!active) throw new Error('no token signing key is stored');
    const verifiers = new Map<string, Verifier>();
    rows.forEach((row, index) => {
      const successor = rows[index + 1];
      const retiredAt = row === active ? undefined : (successor?.createdAt ?? row.createdAt);
      verifiers.set(row.id, {
        key: createPublicKey(row.publicKey),
        active: row === active,
        createdAt: row.createdAt,
        acceptedUntil: retiredAt ? retiredAt.getTime() + this.longestLifeMs + RETIRED_GRACE_MS : Infinity,
      });
    });
    if (this.signer?.kid !== active.id) {
      const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: active.id }), 'utf8').toString('base64url');
      const key = createPrivateKey(this.masterKey.unwrap(active.privateKey, SIGNING_KEY_PURPOSE).toString('utf8'));
      this.signer = { kid: active.id, key, header };
    }
    this.verifiers = verifiers;
    this.readAt = this.clock.now().getTime();
  }

  /** The key that signs now, with its JWT header (read again when the last read is older than SIGNING_KEYS_REFRESH_MS). */
  async current(): Promise<{ kid: string; key: KeyObject; header: string }> {
    if (this.since(this.readAt) >= SIGNING_KEYS_REFRESH_MS) await this.read();
    return this.signer;
  }

  /** How long ago an instant was; a clock set back counts as long ago (the keys are read again rather than trusted for longer). */
  private since(at: number): number {
    return Math.abs(this.clock.now().getTime() - at);
  }

  /** The public key of a kid while it verifies; an unknown kid reads the keys again (at most once a second). */
  async verifier(kid: string | undefined): Promise<KeyObject | undefined> {
    const now = this.clock.now().getTime();
    if (kid && !this.verifiers.has(kid) && this.since(this.unknownReadAt) >= UNKNOWN_KID_READ_MS) {
      this.unknownReadAt = now;
      await this.read();
    }
    const found = this.verifiers.get(kid ?? this.signer.kid);
    return found && found.acceptedUntil > now ? found.key : undefined;
  }

  /**
   * A new key pair signs from now on; the previous ones keep verifying the
   * tokens they signed until those expire. Answers the new kid and the kids
   * it retired.
   */
  async rotate(): Promise<{ kid: string; retired: string[] }> {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = thumbprintKid(pair.publicKey);
    const retired = await this.table.rotateSigningKey(this.sealed(kid, pair.privateKey, pair.publicKey), this.clock.now());
    await this.read();
    return { kid, retired };
  }

  /** The keys that verify now, public halves only (read again when older than the refresh: the endpoint answers others' rotations too). */
  async jwks(): Promise<{ keys: Jwk[] }> {
    if (this.since(this.readAt) >= UNKNOWN_KID_READ_MS * 5) await this.read();
    const now = this.clock.now().getTime();
    const keys: Jwk[] = [];
    for (const [kid, verifier] of this.verifiers) {
      if (verifier.acceptedUntil <= now) continue;
      const { n, e } = verifier.key.export({ format: 'jwk' });
      keys.push({ kty: 'RSA', kid, use: 'sig', alg: 'RS256', n: n!, e: e! });
    }
    return { keys };
  }

  /** Every stored key with whether it signs and until when it verifies. */
  async list(): Promise<SigningKeyView[]> {
    await this.read();
    return [...this.verifiers].map(([kid, verifier]) => ({
      kid,
      active: verifier.active,
      createdAt: verifier.createdAt,
      acceptedUntil: Number.isFinite(verifier.acceptedUntil) ? new Date(verifier.acceptedUntil) : null,
    }));
  }
}
