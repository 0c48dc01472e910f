import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/log.js';
import { MasterKey } from '../../lib/master-key.js';
import { hashClientSecret, hashPassword, verifyClientSecret, verifyPassword } from '../../lib/secrets.js';

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one; the hash carries its parameters and no plaintext', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
  });
  it('refuses when there is no stored hash (unknown user)', async () => {
    expect(await verifyPassword('anything', null)).toBe(false);
  });
  it('salts: two hashes of one password differ', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });
});

describe('client secrets', () => {
  it('checks an HMAC under a key the database does not hold', () => {
    const key = randomBytes(32);
    const stored = hashClientSecret('s3cret', key);
    expect(verifyClientSecret('s3cret', stored, key)).toBe(true);
    expect(verifyClientSecret('s3cres', stored, key)).toBe(false);
    expect(verifyClientSecret('s3cret', stored, randomBytes(32))).toBe(false);
    expect(verifyClientSecret('s3cret', '', key)).toBe(false);
  });
});

describe('the master key', () => {
  it('wraps and unwraps per purpose, and a value cannot be moved to another purpose or tampered with', () => {
    const key = MasterKey.fromPassphrase('test');
    const wrapped = key.wrap('private key pem', 'purpose-a');
    expect(wrapped).not.toContain('private key pem');
    expect(key.unwrap(wrapped, 'purpose-a').toString()).toBe('private key pem');
    expect(() => key.unwrap(wrapped, 'purpose-b')).toThrow();
    const raw = Buffer.from(wrapped.slice(4), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => key.unwrap('mk1.' + raw.toString('base64'), 'purpose-a')).toThrow();
    expect(() => MasterKey.fromPassphrase('other').unwrap(wrapped, 'purpose-a')).toThrow();
  });
  it('generates a development key once into the data folder', async () => {
    const { mkdtempSync, statSync } = await import('node:fs');
    const dir = mkdtempSync('/tmp/mk-');
    const logger = createLogger('silent');
    const first = MasterKey.load(undefined, dir, logger);
    const again = MasterKey.load(undefined, dir, logger);
    expect(again.unwrap(first.wrap('x', 'p'), 'p').toString()).toBe('x');
    expect(statSync(`${dir}/master-key`).mode & 0o777).toBe(0o600);
  });
});
