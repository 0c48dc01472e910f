import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Credentials } from './credentials.js';
import { PlatformError } from './errors.js';
import type { MasterKey } from './master-key.js';
import type { Clock } from './time.js';

export type SubjectType = 'user' | 'client';

/** Who a verified token speaks for. */
export interface Principal {
  subject: string;
  subjectType: SubjectType;
  appId: string;
  roles: string[];
  tokenId: string;
  token: string;
  expiresAt: Date;
}

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  accessLifeSeconds: number;
  refreshLifeSeconds: number;
}

const SIGNING_KEY_ID = 'auth-token-signing-1';
const KEY_PURPOSE = 'auth/token-signing-key';

interface Claims {
  sub: string;
  jti: string;
  typ: 'access' | 'refresh';
  sty: SubjectType;
  appId: string;
  roles: string[];
  exp: number;
}

const refreshIdOf = (accessId: string) => `${accessId}-r`;

export const TOKEN_ERRORS = {
  noCookies: () => new PlatformError('KER-ATH-006', 'Cookies are empty'),
  noToken: () => new PlatformError('KER-ATH-007', 'Token is not present in cookies'),
  notStored: () => new PlatformError('KER-ATH-008', 'Token is not present in datastore, Please try with new token'),
  invalid: () => new PlatformError('KER-ATH-401', 'Authentication Failed: invalid or expired token'),
};

/**
 * Issues RS256 tokens with the auth manager's key and verifies them. Every
 * token id is recorded, and verification looks it up, so invalidation takes
 * effect at once on every instance.
 */
export class TokenService {
  private privateKey!: KeyObject;
  private publicKey!: KeyObject;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly masterKey: MasterKey,
    private readonly settings: TokenSettings,
    private readonly clock: Clock,
  ) {}

  /** Loads the signing key, creating it on first start; concurrent first starts converge on one row. */
  async init(): Promise<void> {
    let row = await this.prisma.signingKey.findUnique({ where: { id: SIGNING_KEY_ID } });
    if (!row) {
      const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      row = await this.prisma.signingKey.upsert({
        where: { id: SIGNING_KEY_ID },
        create: {
          id: SIGNING_KEY_ID,
          privateKey: this.masterKey.wrap(pem, KEY_PURPOSE),
          publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
        update: {},
      });
    }
    this.privateKey = createPrivateKey(this.masterKey.unwrap(row.privateKey, KEY_PURPOSE).toString('utf8'));
    this.publicKey = createPublicKey(row.publicKey);
  }

  async issue(subject: { id: string; type: SubjectType; appId: string; roles: string[] }): Promise<IssuedTokens> {
    const now = this.clock.now();
    // The refresh token's id derives from the access token's, so logging out revokes both.
    const id = randomUUID();
    const [token, refreshToken] = await Promise.all([
      this.sign(subject, id, 'access', now, this.settings.accessLifeSeconds),
      this.sign(subject, refreshIdOf(id), 'refresh', now, this.settings.refreshLifeSeconds),
    ]);
    await this.prisma.accessToken.createMany({ data: [token.row, refreshToken.row] });
    return {
      token: token.jwt,
      refreshToken: refreshToken.jwt,
      expiresIn: this.settings.accessLifeSeconds,
      refreshExpiresIn: this.settings.refreshLifeSeconds,
    };
  }

  private async sign(subject: { id: string; type: SubjectType; appId: string; roles: string[] }, id: string, kind: 'access' | 'refresh', now: Date, lifeSeconds: number) {
    const iat = Math.floor(now.getTime() / 1000);
    const claims: Claims = { sub: subject.id, jti: id, typ: kind, sty: subject.type, appId: subject.appId, roles: subject.roles, exp: iat + lifeSeconds };
    const signed = jwt.sign({ ...claims, iat }, this.privateKey, {
      algorithm: 'RS256', issuer: this.settings.issuer, audience: this.settings.audience, keyid: SIGNING_KEY_ID,
    });
    const row = { id, subject: subject.id, subjectType: subject.type, kind, appId: subject.appId, issuedAt: now, expiresAt: new Date((iat + lifeSeconds) * 1000) };
    return { jwt: signed, row };
  }

  /** The access token's principal, or the spec's KER-ATH code for what is wrong with it. */
  async verify(credentials: Credentials): Promise<Principal> {
    if (!credentials.token) throw credentials.cookiesPresent ? TOKEN_ERRORS.noToken() : TOKEN_ERRORS.noCookies();
    const claims = this.checkSignature(credentials.token);
    const row = await this.prisma.accessToken.findUnique({ where: { id: claims.jti }, select: { revokedAt: true, expiresAt: true } });
    if (!row || row.revokedAt) throw TOKEN_ERRORS.notStored();
    if (row.expiresAt <= this.clock.now()) throw TOKEN_ERRORS.invalid();
    return {
      subject: claims.sub, subjectType: claims.sty, appId: claims.appId, roles: claims.roles,
      tokenId: claims.jti, token: credentials.token, expiresAt: new Date(claims.exp * 1000),
    };
  }

  private checkSignature(token: string): Claims {
    try {
      const claims = jwt.verify(token, this.publicKey, {
        algorithms: ['RS256'], issuer: this.settings.issuer, audience: this.settings.audience,
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      }) as Partial<Claims>;
      // A token without exp would never expire: refused, whoever signed it.
      if (claims.typ !== 'access' || !claims.jti || !claims.sub || !claims.appId || !Array.isArray(claims.roles) || typeof claims.exp !== 'number') throw TOKEN_ERRORS.invalid();
      return claims as Claims;
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      throw TOKEN_ERRORS.invalid();
    }
  }

  /** Revokes every live token of a subject (locked user, reset password). */
  async revokeSubject(subject: string): Promise<number> {
    const { count } = await this.prisma.accessToken.updateMany({ where: { subject, revokedAt: null }, data: { revokedAt: this.clock.now() } });
    return count;
  }

  /** Marks the access token and its refresh token revoked; answers whether the access token was live. */
  async revoke(tokenId: string): Promise<boolean> {
    const { count } = await this.prisma.accessToken.updateMany({
      where: { id: { in: [tokenId, refreshIdOf(tokenId)] }, revokedAt: null },
      data: { revokedAt: this.clock.now() },
    });
    return count > 0;
  }
}
