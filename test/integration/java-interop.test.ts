// Interoperability with MOSIP's Java side of the VER_R2 layout (ABIS.md (c)): test/interop/CryptoInterop.java,
// JCE only, compiled here at run time. Needs javac and java (JDK 17) and openssl on PATH; without them the
// test fails with a message saying so, it never skips.
import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';

const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'interop', 'CryptoInterop.java');
const PARTNER = { applicationId: 'PARTNER', referenceId: 'java-partner' };
const BIG = 'résumé 🌍 ok; '.repeat(5690); // 18 bytes each: just over 100 KB of mixed 1-, 2- and 4-byte UTF-8
const VALUES = ['plain ASCII: registration packet 10001100010001', 'accents é à ü ñ ç Ø, emoji 🌍🔐👩‍👩‍👧, CJK 身份', 'x', ' ', BIG];

let t: TestPlatform;
let auth: Record<string, string>;
let dir: string;
let registrationPem: string;
let partnerPem: string;
const file = (name: string) => path.join(dir, name);

/** Runs a tool; a missing one is named with what to install, a failing one with its stderr. */
function run(command: string, args: string[], options: { input?: string; cwd?: string } = {}): string {
  const result = spawnSync(command, args, { input: options.input, cwd: options.cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `'${command}' is not on PATH: the Java interop test needs a JDK 17 (javac, java) and openssl (e.g. apt-get install openjdk-17-jdk-headless openssl); it does not skip`
        : `${command} could not run: ${result.error.message}`,
    );
  }
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr.trim()}`);
  return result.stdout;
}

/** MOSIP's Java side (test/interop/CryptoInterop.java). */
const java = (args: string[], input: string) => run('java', ['-cp', dir, 'CryptoInterop', ...args], { input });
const call = async (urlPath: string, request: unknown) => (await t.request('POST', urlPath, { body: envelopeOf(request), headers: auth })).json;
const sha256 = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest();

/** Java's Base64.getUrlEncoder(): URL-safe alphabet, padded to a multiple of 4, no line breaks; then the VER_R2 blocks. */
function layoutOf(text: string) {
  expect(text).toMatch(/^[A-Za-z0-9_-]*={0,2}$/);
  expect(text.length % 4).toBe(0);
  const bytes = Buffer.from(text, 'base64url');
  return {
    bytes,
    version: bytes.subarray(0, 6).toString('latin1'),
    thumbprint: bytes.subarray(6, 38),
    wrappedKey: bytes.subarray(38, 294),
    splitter: bytes.subarray(294, 308).toString('latin1'),
    aad: bytes.subarray(308, 340),
    sealed: bytes.subarray(340),
  };
}

/** A copy of base64url text with one byte flipped. */
function flipped(text: string, offset: number): string {
  const bytes = Buffer.from(text, 'base64url');
  bytes[offset < 0 ? bytes.length + offset : offset]! ^= 0x01;
  return bytes.toString('base64url');
}

beforeAll(async () => {
  run('javac', ['-version']);
  run('java', ['-version']);
  run('openssl', ['version']);
  dir = mkdtempSync(path.join(tmpdir(), 'java-interop-'));
  run('javac', ['-d', dir, SOURCE]);
  // The partner: a key pair and self-signed certificate the platform only ever sees the certificate of.
  run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'partner.key',
      '-out',
      'partner.pem',
      '-subj',
      '/CN=java-partner/O=Interop test',
      '-days',
      '2',
    ],
    { cwd: dir },
  );
  partnerPem = readFileSync(file('partner.pem'), 'utf8');
  t = await startTestPlatform();
  auth = cookieHeader(await t.adminToken());
  const certificate = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: auth })).json;
  expect(certificate.errors).toBeNull();
  registrationPem = certificate.response.certificate;
  writeFileSync(file('registration.pem'), registrationPem);
  const uploaded = await call('/v1/keymanager/uploadOtherDomainCertificate', { ...PARTNER, certificateData: partnerPem });
  expect(uploaded.errors).toBeNull();
  expect(uploaded.response.status).toBe('success');
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("interoperability with MOSIP's Java side (JCE: RSA/ECB/OAEPWithSHA-256AndMGF1Padding, AES/GCM/NoPadding)", () => {
  it('(a) the platform decrypts, through REST, what Java encrypts for its REGISTRATION certificate', async () => {
    for (const value of ['', ...VALUES]) {
      const sealed = java(['encrypt', file('registration.pem')], value);
      // The Java side did what it claims: the layout and the thumbprint of the platform certificate.
      const layout = layoutOf(sealed);
      expect(layout.version).toBe('VER_R2');
      expect(layout.thumbprint).toEqual(sha256(registrationPem));
      expect(layout.splitter).toBe('#KEY_SPLITTER#');
      expect(layout.sealed.length).toBe(Buffer.byteLength(value) + 16);
      const opened = await call('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: sealed });
      expect(opened.errors, `${value.length} chars`).toBeNull();
      expect(opened.response.data === value, `${value.length} chars: ${String(opened.response.data).slice(0, 40)}`).toBe(true);
    }
  }, 120_000);

  it('(a) also accepts the standard base64 alphabet and missing padding, and refuses a flipped byte', async () => {
    const value = 'padding: 1 byte';
    const sealed = java(['encrypt', file('registration.pem')], value);
    const bytes = Buffer.from(sealed, 'base64url');
    for (const spelling of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/, '')]) {
      expect((await call('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: spelling })).response?.data).toBe(value);
    }
    for (const offset of [6, 100, 310, 345, -1]) {
      // thumbprint, wrapped key, AAD, ciphertext, tag
      const refused = await call('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: flipped(sealed, offset) });
      expect(refused.response, `byte ${offset}`).toBeNull();
      expect(['KER-CRY-003', 'KER-CRY-006'], `byte ${offset}`).toContain(refused.errors[0].errorCode);
    }
  }, 60_000);

  it('(b) Java decrypts, with the openssl private key, what the platform encrypts for the uploaded partner certificate', async () => {
    for (const value of VALUES) {
      const sealed = await call('/v1/cryptomanager/encrypt', { ...PARTNER, data: value });
      expect(sealed.errors).toBeNull();
      const opened = java(['decrypt', file('partner.key'), file('partner.pem')], sealed.response.data);
      expect(opened === value, `${value.length} chars: ${opened.slice(0, 40)}`).toBe(true);
    }
  }, 120_000);

  it('(b) Java refuses platform output with a flipped byte (GCM tag, AAD, wrapped key)', async () => {
    const sealed = (await call('/v1/cryptomanager/encrypt', { ...PARTNER, data: 'integrity' })).response.data as string;
    expect(java(['decrypt', file('partner.key')], sealed)).toBe('integrity');
    for (const offset of [100, 310, -1]) {
      expect(() => java(['decrypt', file('partner.key')], flipped(sealed, offset)), `byte ${offset}`).toThrow(/CryptoInterop: .*(AEADBadTag|BadPadding)/);
    }
  }, 60_000);

  it('(c) lays the platform output out byte for byte as ABIS.md (c) says', async () => {
    const thumbprint = createHash('sha256').update(new X509Certificate(partnerPem).raw).digest();
    expect(thumbprint.toString('hex').toUpperCase()).toBe(new X509Certificate(partnerPem).fingerprint256.replace(/:/g, ''));
    const seen: ReturnType<typeof layoutOf>[] = [];
    for (const value of ['x', 'layout', VALUES[1]!, BIG]) {
      const sealed = await call('/v1/cryptomanager/encrypt', { ...PARTNER, data: value });
      const layout = layoutOf(sealed.response.data);
      expect(layout.bytes.subarray(0, 6)).toEqual(Buffer.from('VER_R2', 'ascii'));
      expect(layout.thumbprint).toEqual(thumbprint);
      expect(layout.wrappedKey.length).toBe(256);
      expect(layout.bytes.subarray(294, 308)).toEqual(Buffer.from('#KEY_SPLITTER#', 'ascii'));
      expect(layout.bytes.length).toBe(6 + 32 + 256 + 14 + 32 + Buffer.byteLength(value) + 16);
      seen.push(layout);
    }
    // A fresh session key and AAD (hence IV) every time.
    expect(new Set(seen.map((l) => l.wrappedKey.toString('hex'))).size).toBe(seen.length);
    expect(new Set(seen.map((l) => l.aad.toString('hex'))).size).toBe(seen.length);
    // The data block opens in Java only with IV = AAD[0..12] and the AAD bound: covered by (b); here the thumbprint
    // check of the Java side (getEncoded()) agrees with node's certificate.raw.
    expect(java(['decrypt', file('partner.key'), file('partner.pem')], seen[1]!.bytes.toString('base64url'))).toBe('layout');
    expect(() => java(['decrypt', file('partner.key'), file('registration.pem')], seen[1]!.bytes.toString('base64url'))).toThrow(
      /thumbprint is not the certificate's/,
    );
  }, 60_000);
});
