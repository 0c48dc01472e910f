import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';

const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'interop', 'CryptoInterop.java');
const VALUES = ['plain ascii', 'accents é à ü, emoji 🌍🔐', 'x', 'z'.repeat(100_000)];

let t: TestPlatform;
let auth: Record<string, string>;
let dir: string;

/** Runs the Java side of the interop (MOSIP's JCE calls). */
const java = (args: string[], input: string) => execFileSync('java', ['-cp', dir, 'CryptoInterop', ...args], { input, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
const call = async (urlPath: string, request: unknown) => (await t.request('POST', urlPath, { body: envelopeOf(request), headers: auth })).json;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'java-interop-'));
  // javac and java are part of the machine; a missing JDK fails here with its own message.
  execFileSync('javac', ['-d', dir, SOURCE], { stdio: 'pipe' });
  t = await startTestPlatform();
  auth = cookieHeader(await t.adminToken());
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("interoperability with MOSIP's Java side (JCE: RSA-OAEP SHA-256/MGF1 SHA-256, AES/GCM/NoPadding)", () => {
  it('decrypts what Java encrypts for the platform certificate', async () => {
    const certificate = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: auth })).json.response.certificate;
    writeFileSync(path.join(dir, 'registration.pem'), certificate);
    for (const value of VALUES) {
      const sealed = java(['encrypt', path.join(dir, 'registration.pem')], value);
      const opened = await call('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: sealed });
      expect(opened.errors, value.slice(0, 20)).toBeNull();
      expect(opened.response.data).toBe(value);
    }
  });

  it('encrypts what Java decrypts with a partner key the platform only has the certificate of', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'partner.key', '-out', 'partner.pem', '-subj', '/CN=Java partner', '-days', '2'], { cwd: dir, stdio: 'pipe' });
    const uploaded = await call('/v1/keymanager/uploadOtherDomainCertificate', { applicationId: 'PARTNER', referenceId: 'java-partner', certificateData: readFileSync(path.join(dir, 'partner.pem'), 'utf8') });
    expect(uploaded.response.status).toBe('success');
    for (const value of VALUES) {
      const sealed = await call('/v1/cryptomanager/encrypt', { applicationId: 'PARTNER', referenceId: 'java-partner', data: value });
      expect(java(['decrypt', path.join(dir, 'partner.key')], sealed.response.data)).toBe(value);
    }
  });
});
