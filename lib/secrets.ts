import { createHmac, randomBytes, randomInt, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))));

/** Human passwords: scrypt, parameters stored with the hash so they can be raised later. */
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A well-formed hash that matches nothing, so unknown users cost as much as known ones. */
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const hash = stored ?? (await (decoyHash ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, expected] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * Number(n) * Number(r),
  });
  return timingSafeEqual(key, expectedKey) && stored != null;
}

/**
 * Platform-issued client secrets are high-entropy, so an HMAC under a key the
 * database never holds is as safe as a slow hash and keeps machine logins fast.
 */
export function hashClientSecret(secret: string, hmacKey: Buffer): string {
  return 'hmac-sha256$' + createHmac('sha256', hmacKey).update(secret, 'utf8').digest('base64');
}

export function verifyClientSecret(secret: string, stored: string, hmacKey: Buffer): boolean {
  const expected = Buffer.from(stored, 'utf8');
  const actual = Buffer.from(hashClientSecret(secret, hmacKey), 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A random secret of `bytes` bytes of entropy, URL-safe. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A key of `[A-Za-z0-9]` characters from a CSPRNG (license keys, partner API keys): shown once, stored as lookupHash. */
export function randomAlphanumeric(length: number): string {
  return Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

/** The HMAC a high-entropy key is stored and found by (the key itself is never kept). */
export function lookupHash(hmacKey: Buffer, value: string): string {
  return createHmac('sha256', hmacKey).update(value).digest('base64url');
}
