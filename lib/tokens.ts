import { createHash, randomUUID, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import jwt from 'jsonwebtoken';
import type { Credentials } from './credentials.js';
import { PlatformError } from './errors.js';
import type { MasterKey } from './master-key.js';
import type { RevocationList } from './revocations.js';
import type { Clock } from './time.js';
import { kidOf, SigningKeys, type Jwk, type SigningKeyView } from './tokens/signing-keys.js';
import type { RevokedTokens, SessionWrite, SubjectType, TokenRow, TokenStorage } from './tokens/storage.js';

export { RESIDENT_SUBJECT, type SubjectType } from './tokens/storage.js';
export type { Jwk, SigningKeyView };

/** A user's profile, carried in the token so that validation needs no look-up (as Keycloak's tokens carry it). */
export interface Profile {
  name?: string | null;
  mail?: string | null;
  mobile?: string | null;
  langCode?: string | null;
  rid?: string | null;
}

/** Who a verified token speaks for. */
export interface Principal {
  subject: string;
  subjectType: SubjectType;
  appId: string;
  roles: string[];
  tokenId: string;
  sessionId: string;
  token: string;
  expiresAt: Date;
  profile: Profile;
}

export interface Subject {
  id: string;
  type: SubjectType;
  appId: string;
  roles: string[];
  profile?: Profile;
}

export interface IssuedTokens {
  token: string;
  expiresIn: number;
  sessionId: string;
  /** absent for client logins, which log in again instead */
  refreshToken?: string;
  refreshExpiresIn?: number;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  accessLifeSeconds: number;
  refreshLifeSeconds: number;
}

const signAsync = promisify(cryptoSign) as (algorithm: string, data: Buffer, key: KeyObject) => Promise<Buffer>;
/** Verified tokens kept (by hash) until their exp, so a repeated token costs no RSA verification. */
const VERIFIED_CACHE_SIZE = 10_000;

interface Claims {
  sub: string;
  jti: string;
  sid: string;
  typ: 'access' | 'refresh';
  sty: SubjectType;
  appId: string;
  roles: string[];
  exp: number;
  prf?: Profile;
}

export const TOKEN_ERRORS = {
  noCookies: () => new PlatformError('KER-ATH-006', 'Cookies are empty'),
  noToken: () => new PlatformError('KER-ATH-007', 'Token is not present in cookies'),
  notStored: () => new PlatformError('KER-ATH-008', 'Token is not present in datastore, Please try with new token'),
  invalid: () => new PlatformError('KER-ATH-401', 'Authentication Failed: invalid or expired token'),
  refreshReused: () => new PlatformError('KER-ATH-401', 'Authentication Failed: this refresh token was already used; its session is revoked'),
  wrongRealm: (appId: string) =>
    new PlatformError('KER-ATH-026', `Realm not found for the given appId: ${appId} (the refresh token belongs to another application)`),
};

/**
 * Issues RS256 tokens with the auth manager's key and verifies them. Every
 * token is recorded with its session; verification needs no database round
 * trip: the signature and exp prove the token, and the in-memory revocation
 * list (kept current by LISTEN/NOTIFY) says whether it was ended early.
 */
export class TokenService {
  private readonly verified = new Map<string, Claims>();
  /** the signing keys: rotated by an operator (`platform keys rotate-signing`), published at /.well-known/jwks.json */
  readonly keys: SigningKeys;

  constructor(
    private readonly store: TokenStorage,
    private readonly masterKey: MasterKey,
    private readonly settings: TokenSettings,
    private readonly clock: Clock,
    readonly revocations: RevocationList,
  ) {
    const longest = Math.max(settings.accessLifeSeconds, settings.refreshLifeSeconds) * 1000;
    this.keys = new SigningKeys(store, masterKey, clock, longest);
  }

  /**
   * Opens the master key's derivation root (a rewrap's; before any component
   * derives its keys from it), loads the signing keys (signing-keys.ts: made
   * on the first start), then starts the revocation list.
   */
  async init(): Promise<void> {
    this.masterKey.openRoot(await this.store.sealedDerivationRoot());
    await this.keys.start();
    await this.revocations.start();
  }

  async stop(): Promise<void> {
    await this.revocations.stop();
  }

  /**
   * A new session: an access token, and for users a refresh token. The
   * session, not the token, is what logout and an admin's revokeSession end.
   */
  async issue(subject: Subject, options: { clientAddress?: string; refresh?: boolean } = {}): Promise<IssuedTokens> {
    const now = this.clock.now();
    const sessionId = randomUUID();
    const refresh = options.refresh ?? subject.type === 'user';
    const life = refresh ? this.settings.refreshLifeSeconds : this.settings.accessLifeSeconds;
    const session = {
      id: sessionId,
      subject: subject.id,
      subjectType: subject.type,
      appId: subject.appId,
      clientAddress: options.clientAddress ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + life * 1000),
    };
    return this.issueInSession(subject, sessionId, now, refresh, { open: session });
  }

  /** Signs the tokens, then records them with their session; a revoked session gets none (KER-ATH-008). */
  private async issueInSession(subject: Subject, sessionId: string, now: Date, refresh: boolean, session: SessionWrite): Promise<IssuedTokens> {
    const [access, renewal] = await Promise.all([
      this.sign(subject, sessionId, 'access', now, this.settings.accessLifeSeconds),
      refresh ? this.sign(subject, sessionId, 'refresh', now, this.settings.refreshLifeSeconds) : undefined,
    ]);
    if (!(await this.store.record(renewal ? [access.row, renewal.row] : [access.row], session))) throw TOKEN_ERRORS.notStored();
    return {
      token: access.jwt,
      expiresIn: this.settings.accessLifeSeconds,
      sessionId,
      ...(renewal ? { refreshToken: renewal.jwt, refreshExpiresIn: this.settings.refreshLifeSeconds } : {}),
    };
  }

  /**
   * A compact RS256 JWT. The RSA signature runs on libuv's thread pool (the
   * callback form of crypto.sign), so a burst of logins does not stall the
   * event loop; jsonwebtoken verifies these tokens like any other.
   */
  private async sign(subject: Subject, sessionId: string, kind: 'access' | 'refresh', now: Date, lifeSeconds: number) {
    const iat = Math.floor(now.getTime() / 1000);
    const id = randomUUID();
    const claims: Claims & { iat: number; iss: string; aud: string } = {
      sub: subject.id,
      jti: id,
      sid: sessionId,
      typ: kind,
      sty: subject.type,
      appId: subject.appId,
      roles: subject.roles,
      exp: iat + lifeSeconds,
      ...(subject.profile ? { prf: subject.profile } : {}),
      iat,
      iss: this.settings.issuer,
      aud: this.settings.audience,
    };
    const signer = await this.keys.current();
    const input = `${signer.header}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
    const signature = await signAsync('sha256', Buffer.from(input, 'utf8'), signer.key);
    const row: TokenRow = {
      id,
      sessionId,
      subject: subject.id,
      subjectType: subject.type,
      kind,
      appId: subject.appId,
      issuedAt: now,
      expiresAt: new Date((iat + lifeSeconds) * 1000),
    };
    return { jwt: `${input}.${signature.toString('base64url')}`, row };
  }

  /** The access token's principal, or the spec's KER-ATH code for what is wrong with it. */
  async verify(credentials: Credentials): Promise<Principal> {
    if (!credentials.token) throw credentials.cookiesPresent ? TOKEN_ERRORS.noToken() : TOKEN_ERRORS.noCookies();
    const claims = await this.checkSignature(credentials.token, 'access');
    if (await this.revocations.isRevoked(claims.jti)) throw TOKEN_ERRORS.notStored();
    return {
      subject: claims.sub,
      subjectType: claims.sty,
      appId: claims.appId,
      roles: claims.roles,
      tokenId: claims.jti,
      sessionId: claims.sid,
      token: credentials.token,
      expiresAt: new Date(claims.exp * 1000),
      profile: claims.prf ?? {},
    };
  }

  private async checkSignature(token: string, kind: Claims['typ']): Promise<Claims> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const hash = createHash('sha256').update(token).digest('base64url');
    let claims = this.verified.get(hash);
    if (!claims) {
      claims = this.verifySignature(token, now, await this.keys.verifier(kidOf(token)));
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(hash, claims);
    }
    if (claims.exp <= now) {
      this.verified.delete(hash);
      throw TOKEN_ERRORS.invalid();
    }
    if (claims.typ !== kind) throw TOKEN_ERRORS.invalid();
    return claims;
  }

  private verifySignature(token: string, now: number, publicKey: KeyObject | undefined): Claims {
    if (!publicKey) throw TOKEN_ERRORS.invalid();
    try {
      const claims = jwt.verify(token, publicKey, {
        algorithms: ['RS256'],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        clockTimestamp: now,
      }) as Partial<Claims>;
      // A token without exp would never expire: refused, whoever signed it.
      if (!claims.jti || !claims.sub || !claims.sid || !claims.appId || !Array.isArray(claims.roles) || typeof claims.exp !== 'number')
        throw TOKEN_ERRORS.invalid();
      return claims as Claims;
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      throw TOKEN_ERRORS.invalid();
    }
  }

  /**
   * Exchanges a refresh token for new tokens in the same session and retires
   * it. A refresh token presented a second time means it was stolen or
   * replayed: the whole session is revoked (OAuth 2.0 security BCP, reuse
   * detection).
   */
  async refresh(refreshToken: string | undefined, appId: string): Promise<IssuedTokens> {
    if (!refreshToken) throw TOKEN_ERRORS.noToken();
    const claims = await this.checkSignature(refreshToken, 'refresh');
    if (claims.appId !== appId) throw TOKEN_ERRORS.wrongRealm(appId);
    const now = this.clock.now();
    if (!(await this.store.rotate(claims.jti, now))) {
      if (await this.store.wasRotated(claims.jti)) {
        await this.revokeSession(claims.sid);
        throw TOKEN_ERRORS.refreshReused();
      }
      throw TOKEN_ERRORS.notStored();
    }
    const subject: Subject = { id: claims.sub, type: claims.sty, appId: claims.appId, roles: claims.roles, ...(claims.prf ? { profile: claims.prf } : {}) };
    const until = new Date(now.getTime() + this.settings.refreshLifeSeconds * 1000);
    return this.issueInSession(subject, claims.sid, now, true, { extend: claims.sid, until, at: now });
  }

  /** Ends the live tokens matching `where` now, on this instance at once and on the others through the trigger's notification. */
  private async revokeWhere(where: RevokedTokens): Promise<number> {
    const now = this.clock.now();
    const rows = await this.store.revoke(where, now);
    for (const row of rows) this.revocations.note(row.id, now.getTime(), row.expiresAt.getTime());
    return rows.length;
  }

  /** Ends a session: every token it handed out, refresh tokens included. */
  revokeSession(sessionId: string): Promise<number> {
    return this.revokeWhere({ sessionId });
  }

  /** Ends every live session of a subject (locked user, reset password, changed roles, rotated client secret). */
  revokeSubject(subject: string): Promise<number> {
    return this.revokeWhere({ subject });
  }
}
