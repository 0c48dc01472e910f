import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, type Platform } from '../../gateway/platform.js';
import { loadConfig } from '../../lib/config.js';
import { decodeBase64Any } from '../../lib/crypto/envelope.js';
import { createLogger } from '../../lib/log.js';
import { ManualClock } from '../../lib/time.js';
import { SIGNING_KEYS_REFRESH_MS } from '../../lib/tokens/signing-keys.js';
import type { AdminCommand, AdminContext, CommandIo } from '../../tools/admin/command.js';
import { contextOver } from '../../tools/admin/context.js';
import { keysList, keysRewrap, keysRotate, keysRotateSigning, NEW_MASTER_KEY_VARIABLE } from '../../tools/admin/keys.js';
import {
  ADMIN_PASSWORD,
  cookieHeader,
  envelopeOf,
  freshDatabase,
  startTestPlatform,
  TEST_MASTER_KEY,
  tokenOfCookie,
  type TestDatabase,
  type TestPlatform,
} from '../support/platform.js';

/*
 * The key commands of `npm run platform` run in process against platforms on
 * one PostgreSQL database: an application key rotated (what the old key
 * sealed still opens), the token signing key rotated (tokens signed before
 * stay valid, new ones name the new kid, /.well-known/jwks.json lists both,
 * another instance follows), and every wrapped secret moved under a new
 * master key (the platform starts on it, and refuses the old one).
 */

const NEW_MASTER_KEY = 'the next master key of the tests';
const VALIDATE = '/v1/authmanager/authorize/admin/validateToken';

let db: TestDatabase;
/** the instance the commands run on, and a second one on the same database */
let a: TestPlatform;
let b: TestPlatform;

beforeAll(async () => {
  db = await freshDatabase({ kind: 'postgres' });
  a = await startTestPlatform({}, { database: db.database });
  b = await startTestPlatform({}, { database: db.database });
});

/** the instances a test has closed already (the rewrap's restarts them under the new key) */
const closed = new Set<TestPlatform>();
const close = async (platform: TestPlatform | undefined) => {
  if (!platform || closed.has(platform)) return;
  closed.add(platform);
  await platform.close();
};

afterAll(async () => {
  await close(a);
  await close(b);
  await db?.drop();
});

/** Runs a command as `npm run platform --` would, over a platform already open: its result and the lines it printed. */
async function run(command: AdminCommand, values: ParsedValues = {}, context: AdminContext = contextOver(a.platform.deps, db.database)) {
  const lines: string[] = [];
  const bars: { label: string; total: number; ticks: number }[] = [];
  const io: CommandIo = {
    json: false,
    out: (line) => lines.push(line),
    progress: (label, total) => {
      const bar = { label, total, ticks: 0 };
      bars.push(bar);
      return { tick: (count = 1) => void (bar.ticks += count), done: () => undefined };
    },
  };
  const result = (await command.run({ positionals: [], values }, io, () => Promise.resolve(context))) as any;
  return { result, lines, bars };
}
type ParsedValues = Record<string, string | boolean | undefined>;

const adminCookie = async (platform: TestPlatform) => cookieHeader(await platform.adminToken());
const crypto = async (platform: TestPlatform, operation: 'encrypt' | 'decrypt', data: string) => {
  const { json } = await platform.request('POST', `/v1/cryptomanager/${operation}`, {
    body: envelopeOf({ applicationId: 'KERNEL', data }),
    headers: await adminCookie(platform),
  });
  expect(json.errors, operation).toBeNull();
  return json.response.data as string;
};
/** The certificate thumbprint a VER_R2 block names (after its version). */
const thumbprintOf = (sealed: string) => decodeBase64Any(sealed).subarray(6, 38).toString('hex');
const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string }).kid;
const validates = async (platform: { request: TestPlatform['request'] }, token: string) =>
  (await platform.request('GET', VALIDATE, { headers: cookieHeader(token) })).json;

describe('platform keys rotate', () => {
  it("rotates an application's key: the old key still opens what it sealed, new data is sealed with the new key", { timeout: 120_000 }, async () => {
    const before = await crypto(a, 'encrypt', 'sealed before the rotation');
    const { result, lines } = await run(keysRotate, { app: 'KERNEL' });
    expect(result).toMatchObject({ applicationId: 'KERNEL', referenceId: '', kind: 'MASTER' });
    expect(result.retired).toEqual(expect.any(String));
    expect(thumbprintOf(before)).not.toBe(result.thumbprint);
    expect(lines[1]).toMatch(/still decrypts what it sealed/);
    expect(await crypto(a, 'decrypt', before)).toBe('sealed before the rotation');
    const after = await crypto(a, 'encrypt', 'sealed after the rotation');
    expect(thumbprintOf(after)).toBe(result.thumbprint);
    expect(await crypto(a, 'decrypt', after)).toBe('sealed after the rotation');

    const listed = await run(keysList, { app: 'KERNEL', ref: '' });
    expect(listed.result.keys.map((key: any) => [key.alias, key.status])).toEqual([
      [result.alias, 'ACTIVE'],
      [result.retired, 'RETIRED'],
    ]);
    expect(listed.lines.some((line) => line.includes(result.alias) && line.includes('ACTIVE'))).toBe(true);
    // An application the key policy does not know is refused with the key manager's code.
    await expect(run(keysRotate, { app: 'NOPE' })).rejects.toMatchObject({ code: 'KER-KMS-002' });
  });
});

describe('platform keys rotate-signing and /.well-known/jwks.json', () => {
  it(
    'keeps tokens signed before valid, names the new kid in new tokens, publishes both keys, and reaches the other instance',
    { timeout: 120_000 },
    async () => {
      const old = await a.adminToken();
      expect(kidOf(old)).toBe('auth-token-signing-1');
      const { result, lines } = await run(keysRotateSigning);
      expect(result.retired).toEqual([{ kid: 'auth-token-signing-1', verifiesUntil: expect.any(Date) }]);
      expect(lines[0]).toContain(result.kid);

      expect((await validates(a, old)).errors).toBeNull();
      const fresh = await a.adminToken();
      expect(kidOf(fresh)).toBe(result.kid);
      expect((await validates(a, fresh)).errors).toBeNull();

      const jwks = await a.request('GET', '/.well-known/jwks.json');
      expect(jwks.status).toBe(200);
      expect(jwks.headers.get('cache-control')).toBe('public, max-age=300');
      expect(jwks.json.keys.map((key: any) => key.kid).sort()).toEqual(['auth-token-signing-1', result.kid].sort());
      for (const key of jwks.json.keys) expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      // An outside verifier checks each token with the key its kid names, and nothing else.
      const keyOf = (kid: string) => createPublicKey({ key: jwks.json.keys.find((key: any) => key.kid === kid) as JsonWebKey, format: 'jwk' });
      for (const token of [old, fresh]) expect(jwt.verify(token, keyOf(kidOf(token)), { algorithms: ['RS256'] })).toMatchObject({ sub: 'admin' });
      expect(() => jwt.verify(fresh, keyOf(kidOf(old)), { algorithms: ['RS256'] })).toThrow(/signature/);

      // The other instance verifies the new kid at once, and signs with it once it reads the keys again.
      expect((await validates(b, fresh)).errors).toBeNull();
      b.clock.advance(SIGNING_KEYS_REFRESH_MS);
      expect(kidOf(await b.adminToken())).toBe(result.kid);
      expect((await b.request('GET', '/.well-known/jwks.json')).json.keys).toHaveLength(2);

      // Once the last token the old key signed has expired, the old key is published no more.
      const until = result.retired[0].verifiesUntil as Date;
      expect(until.getTime()).toBeGreaterThan(a.clock.now().getTime() + 86_400_000);
      a.clock.set(new Date(until.getTime() + 1000));
      expect((await a.request('GET', '/.well-known/jwks.json')).json.keys.map((key: any) => key.kid)).toEqual([result.kid]);
    },
  );
});

/** A platform started as `npm start` starts it, with this master key, on the test's database. */
async function startWithMasterKey(passphrase: string): Promise<{ platform: Platform; request: TestPlatform['request']; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rewrap-test-'));
  const config = loadConfig({ PLATFORM_DATA_DIR: dataDir, PLATFORM_MASTER_KEY: passphrase, PLATFORM_SAMPLE_DATA: 'false', JOBS_RUN: 'false' });
  const platform = await createPlatform({ config, database: db.database, clock: new ManualClock(), logger: createLogger('silent') }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { port } = await platform.listen(0);
  const request: TestPlatform['request'] = async (method, urlPath, options = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
      method,
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
  };
  return {
    platform,
    request,
    close: async () => {
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const sealedValues = async () =>
  db.database.prisma.$queryRawUnsafe<{ value: string }[]>(
    `SELECT "privateKey" AS value FROM auth_signing_key UNION ALL SELECT "privateKey" FROM key_store WHERE "privateKey" LIKE 'mk1.%'
     UNION ALL SELECT value FROM platform_marker WHERE value LIKE 'mk1.%'`,
  );

describe('platform keys rewrap', () => {
  it(
    'moves every wrapped secret under the new master key: the platform starts on it, reads its keys, logs in; the old key is refused',
    { timeout: 300_000 },
    async () => {
      const client = await a.clientToken(['GLOBAL_ADMIN'], 'admin');
      const sealed = await crypto(a, 'encrypt', 'sealed before the rewrap');
      const tokenBefore = await a.adminToken();

      const checked = await run(keysRewrap, { 'dry-run': true });
      const signingKeys = checked.result.opened['token signing keys'] as number;
      expect(signingKeys).toBe(await db.database.prisma.signingKey.count());
      expect(checked.result.opened['platform markers']).toBe(1);
      expect(checked.lines[0]).toMatch(/^the current master key opens all \d+ wrapped values/);
      // Without the new key in the environment, nothing happens.
      await expect(run(keysRewrap)).rejects.toThrow(NEW_MASTER_KEY_VARIABLE);

      const before = (await sealedValues()).map((row) => row.value);
      const base = contextOver(a.platform.deps, db.database);
      const withNewKey = { ...base, config: { ...base.config, env: { ...base.config.env, [NEW_MASTER_KEY_VARIABLE]: NEW_MASTER_KEY } } };
      const { result, bars, lines } = await run(keysRewrap, {}, withNewKey);
      const moduleKeys = result.rewrapped['key store root and master keys'] as number;
      expect(moduleKeys).toBeGreaterThan(2);
      // Every value, plus the derivation root sealed for the first time (the start's check marker was there already).
      expect(result.rewrapped).toEqual({ 'token signing keys': signingKeys, 'key store root and master keys': moduleKeys, 'platform markers': 2 });
      expect(result.verified).toEqual(result.rewrapped);
      expect(bars[0]).toEqual({ label: 'rewrap', total: before.length + 1, ticks: before.length + 1 });
      expect(lines.at(-1)).toMatch(/PLATFORM_MASTER_KEY/);
      const after = (await sealedValues()).map((row) => row.value);
      expect(after).toHaveLength(before.length + 1);
      expect(after.filter((value) => before.includes(value))).toEqual([]);

      await close(a);
      await close(b);
      await expect(startWithMasterKey(TEST_MASTER_KEY)).rejects.toThrow(/master key/i);

      const c = await startWithMasterKey(NEW_MASTER_KEY);
      try {
        // its keys open: a token signed before, the key store's keys, the client secrets' HMAC key
        expect((await validates(c, tokenBefore)).errors).toBeNull();
        const login = await c.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', {
          body: envelopeOf({ userName: 'admin', password: ADMIN_PASSWORD, appId: 'admin' }),
        });
        expect(login.json.errors).toBeNull();
        const clientLogin = await c.request('POST', '/v1/authmanager/authenticate/clientidsecretkey', {
          body: envelopeOf({ clientId: client.clientId, secretKey: client.secretKey, appId: 'admin' }),
        });
        expect(clientLogin.json.errors).toBeNull();
        const token = tokenOfCookie(clientLogin.headers.get('set-cookie') ?? '');
        const opened = await c.request('POST', '/v1/cryptomanager/decrypt', {
          body: envelopeOf({ applicationId: 'KERNEL', data: sealed }),
          headers: cookieHeader(token),
        });
        expect(opened.json.errors).toBeNull();
        expect(opened.json.response.data).toBe('sealed before the rewrap');
        const again = await run(keysRewrap, { 'dry-run': true }, contextOver(c.platform.deps, db.database));
        expect(again.result.opened).toEqual(result.rewrapped);
      } finally {
        await c.close();
      }
    },
  );
});
