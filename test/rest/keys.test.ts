import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase64Any } from '../../lib/crypto/envelope.js';
import { keyErrors } from '../../subgraphs/keys/errors.js';
import { expectRejected } from '../support/assertions.js';
import { bearer, cookieHeader, envelopeOf, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { refusalOf, refusalCode } from '../support/refusals.js';

let t: TestPlatform;
let auth: Record<string, string>;
let dir: string;
/** Every response body this file receives, to prove no private key ever leaves. */
const seen: string[] = [];

beforeAll(async () => {
  t = await startTestPlatform();
  auth = cookieHeader(await t.adminToken());
  dir = mkdtempSync(path.join(tmpdir(), 'keys-test-'));
});
afterAll(async () => {
  expect(seen.join('\n')).not.toMatch(/PRIVATE KEY/);
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, urlPath: string, body?: unknown) {
  const response = await t.request(method, urlPath, { body: body === undefined ? undefined : envelopeOf(body), headers: auth });
  seen.push(JSON.stringify(response.json));
  return response;
}
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
/** stdout and stderr together: OpenSSL 3 reports a CSR's verification on stderr and exits 0 either way. */
const opensslReport = (...args: string[]) => {
  const run = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
};
const file = (name: string, content: string | Buffer) => {
  writeFileSync(path.join(dir, name), content);
  return name;
};
const certificate = async (applicationId: string, referenceId?: string) =>
  (await call('GET', `/v1/keymanager/getCertificate?applicationId=${applicationId}${referenceId ? `&referenceId=${referenceId}` : ''}`)).json;
const encrypt = async (request: Record<string, unknown>) => (await call('POST', '/v1/cryptomanager/encrypt', request)).json;
const decrypt = async (request: Record<string, unknown>) => (await call('POST', '/v1/cryptomanager/decrypt', request)).json;
/** A message exactly, as an expectRejected pattern. */
const exactly = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const BAD_TIMESTAMP = exactly(keyErrors.badTimestamp().message);
const ENCRYPT_AT =
  'mutation($ts: DateTime) { encrypt(input: { applicationId: "REGISTRATION", data: "at a time", timeStamp: $ts }) { cryptoResult { data } userErrors { field code message } } }';
const SUBJECT = {
  commonName: 'regproc.example.org',
  country: 'MA',
  state: 'Rabat-Sale',
  location: 'Rabat',
  organization: 'Identity Platform',
  organizationUnit: 'Registration',
};

describe('key manager', () => {
  it('issues X.509 certificates that openssl parses and verifies up to the root', async () => {
    const root = await certificate('ROOT');
    const master = await certificate('REGISTRATION');
    expect(master.response).toMatchObject({ certSignRequest: null, issuedAt: expect.any(String), expiryAt: expect.any(String), timestamp: expect.any(String) });
    file('root.pem', root.response.certificate);
    file('master.pem', master.response.certificate);
    expect(openssl('x509', '-in', 'master.pem', '-noout', '-subject')).toMatch(/CN ?= ?REGISTRATION/);
    expect(openssl('verify', '-CAfile', 'root.pem', 'master.pem')).toMatch(/master.pem: OK/);
    const base = await call('POST', '/v1/keymanager/generateMasterKey/Certificate', {
      applicationId: 'REGISTRATION',
      referenceId: '10001_10002',
      force: false,
      ...SUBJECT,
    });
    file('base.pem', base.json.response.certificate);
    expect(openssl('verify', '-CAfile', 'root.pem', '-untrusted', 'master.pem', 'base.pem')).toMatch(/base.pem: OK/);
    expect(openssl('x509', '-in', 'base.pem', '-noout', '-subject')).toMatch(/regproc\.example\.org/);
  });

  it('generates a CSR that openssl verifies, and takes back a CA-signed certificate for the same key', async () => {
    const csr = await call('POST', '/v1/keymanager/generateCSR', { applicationId: 'IDA', ...SUBJECT });
    expect(csr.json.id).toBe('io.platform.keymanager.generateCSR');
    file('ida.csr', csr.json.response.certSignRequest);
    expect(opensslReport('req', '-in', 'ida.csr', '-noout', '-verify')).toMatch(/self-signature verify OK/);
    // the same check fails for the CSR with one bit of its signature flipped
    openssl('req', '-in', 'ida.csr', '-outform', 'DER', '-out', 'ida.der');
    const tampered = readFileSync(path.join(dir, 'ida.der'));
    tampered[tampered.length - 10]! ^= 1;
    file('ida-tampered.der', tampered);
    expect(opensslReport('req', '-in', 'ida-tampered.der', '-inform', 'DER', '-noout', '-verify')).toMatch(/self-signature verify failure/);
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=Test CA', '-days', '2');
    openssl('x509', '-req', '-in', 'ida.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'ida-signed.pem', '-days', '1');
    const signed = readFileSync(path.join(dir, 'ida-signed.pem'), 'utf8');
    const sealedBefore = await encrypt({ applicationId: 'IDA', data: 'before upload' });
    const uploaded = await call('POST', '/v1/keymanager/uploadCertificate', { applicationId: 'IDA', certificateData: signed });
    expect(uploaded.json.response.status).toBe('success');
    const now = await certificate('IDA');
    expect(new X509Certificate(now.response.certificate).issuer).toMatch(/Test CA/);
    // what was encrypted under the old certificate's thumbprint still opens: the upload orphans nothing
    expect((await decrypt({ applicationId: 'IDA', data: sealedBefore.response.data })).response.data).toBe('before upload');
    // what is encrypted for the new certificate opens with the same key
    const sealed = await encrypt({ applicationId: 'IDA', data: 'after upload' });
    expect((await decrypt({ applicationId: 'IDA', data: sealed.response.data })).response.data).toBe('after upload');
    // a certificate for another key is refused
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other.key', '-out', 'other.pem', '-subj', '/CN=Other', '-days', '1');
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/uploadCertificate', { applicationId: 'IDA', certificateData: readFileSync(path.join(dir, 'other.pem'), 'utf8') }),
      'KER-KMS-013',
    );
  });

  it('rotates with force; what the old key encrypted still decrypts, chosen by thumbprint', async () => {
    const before = await certificate('PRE_REGISTRATION');
    const old = await encrypt({ applicationId: 'PRE_REGISTRATION', data: 'sealed before rotation' });
    const rotated = await call('POST', '/v1/keymanager/generateMasterKey/Certificate', { applicationId: 'PRE_REGISTRATION', force: true, ...SUBJECT });
    expect(rotated.json.response.certificate).not.toBe(before.response.certificate);
    const kept = await call('POST', '/v1/keymanager/generateMasterKey/Certificate', { applicationId: 'PRE_REGISTRATION', force: false, ...SUBJECT });
    expect(kept.json.response.certificate).toBe(rotated.json.response.certificate);
    const fresh = await encrypt({ applicationId: 'PRE_REGISTRATION', data: 'sealed after rotation' });
    const thumbprint = (sealed: string) => decodeBase64Any(sealed).subarray(6, 38).toString('hex');
    expect(thumbprint(old.response.data)).not.toBe(thumbprint(fresh.response.data));
    expect((await decrypt({ applicationId: 'PRE_REGISTRATION', data: old.response.data })).response.data).toBe('sealed before rotation');
    expect((await decrypt({ applicationId: 'PRE_REGISTRATION', data: fresh.response.data })).response.data).toBe('sealed after rotation');
  });

  it('stores another domain certificate and encrypts towards it with its thumbprint', async () => {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'abis.key', '-out', 'abis.pem', '-subj', '/CN=ABIS partner', '-days', '30');
    const pem = readFileSync(path.join(dir, 'abis.pem'), 'utf8');
    // The certificate is valid from the second openssl made it, which the platform's clock (set when the test began) may not have reached.
    t.clock.set(new Date());
    const uploaded = await call('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
      applicationId: 'PARTNER',
      referenceId: 'partner-default-abis',
      certificateData: pem,
    });
    expect(uploaded.json.id).toBe('io.platform.keymanager.uploadOtherDomainCertificate');
    expect(uploaded.json.response.status).toBe('success');
    const sealed = decodeBase64Any((await encrypt({ applicationId: 'PARTNER', referenceId: 'partner-default-abis', data: 'for the ABIS' })).response.data);
    expect(sealed.subarray(0, 6).toString()).toBe('VER_R2');
    expect(sealed.subarray(6, 38)).toEqual(createHash('sha256').update(new X509Certificate(pem).raw).digest());
    expect(sealed.subarray(294, 308).toString()).toBe('#KEY_SPLITTER#');
    // openssl unwraps the session key with the partner's private key (RSA-OAEP, SHA-256 digest and MGF1)
    file('wrapped.bin', sealed.subarray(38, 294));
    const key = execFileSync(
      'openssl',
      [
        'pkeyutl',
        '-decrypt',
        '-inkey',
        'abis.key',
        '-in',
        'wrapped.bin',
        '-pkeyopt',
        'rsa_padding_mode:oaep',
        '-pkeyopt',
        'rsa_oaep_md:sha256',
        '-pkeyopt',
        'rsa_mgf1_md:sha256',
      ],
      { cwd: dir },
    );
    expect(key).toHaveLength(32);
    // the platform cannot decrypt it: it holds no private key of that domain
    await expectRejected(
      t,
      () => call('POST', '/v1/cryptomanager/decrypt', { applicationId: 'PARTNER', referenceId: 'partner-default-abis', data: sealed.toString('base64url') }),
      'KER-CRY-006',
    );
  });

  it('gives the documented KER-KMS codes and changes nothing', async () => {
    await expectRejected(t, () => call('GET', '/v1/keymanager/getCertificate'), 'KER-KMS-005');
    await expectRejected(t, () => call('GET', '/v1/keymanager/getCertificate?applicationId=NOPE'), 'KER-KMS-002');
    await expectRejected(t, () => call('GET', '/v1/keymanager/getCertificate?applicationId=ROOT&referenceId=X'), 'KER-KMS-010');
    await expectRejected(t, () => call('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION&referenceId=never-made'), 'KER-KMS-012');
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/generateMasterKey/Certificate', { applicationId: 'ROOT', referenceId: 'X', force: false, ...SUBJECT }),
      'KER-KMS-010',
    );
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/generateMasterKey/Certificate', { applicationId: 'NOPE', force: false, ...SUBJECT }),
      'KER-KMS-002',
    );
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/generateCSR', { applicationId: 'REGISTRATION', referenceId: 'never-made', ...SUBJECT }),
      'KER-KMS-012',
    );
    await expectRejected(t, () => call('POST', '/v1/keymanager/generateCSR', { ...SUBJECT }), 'KER-KMS-005');
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/uploadCertificate', { applicationId: 'IDA', certificateData: 'not a certificate' }),
      'KER-KMS-013',
    );
    await expectRejected(t, () => call('POST', '/v1/keymanager/uploadCertificate', { certificateData: 'x' }), 'KER-KMS-005');
    await expectRejected(
      t,
      () => call('POST', '/v1/keymanager/uploadOtherDomainCertificate', { applicationId: 'NOPE', referenceId: 'p', certificateData: 'x' }),
      'KER-KMS-002',
    );
    await expectRejected(
      t,
      () =>
        call('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
          applicationId: 'PARTNER',
          referenceId: 'p',
          certificateData: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
        }),
      'KER-KMS-013',
    );
    // a platform key's reference cannot be overwritten by another domain's certificate
    await expectRejected(
      t,
      () =>
        call('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
          applicationId: 'REGISTRATION',
          referenceId: '10001_10002',
          certificateData: readFileSync(path.join(dir, 'other.pem'), 'utf8'),
        }),
      'KER-KMS-003',
    );
  });
});

describe('crypto manager', () => {
  it('round-trips text, with and without the caller aad and salt', async () => {
    for (const data of ['hello', 'Ünïcödé ✓ 🌍', 'x'.repeat(100_000)]) {
      const sealed = await encrypt({ applicationId: 'REGISTRATION', data, timeStamp: new Date().toISOString() });
      expect(sealed.id).toBe('io.platform.cryptomanager.encrypt');
      expect(sealed.response.data).toMatch(/^[A-Za-z0-9_-]+=*$/);
      expect((await decrypt({ applicationId: 'REGISTRATION', data: sealed.response.data })).response.data).toBe(data);
    }
    const aad = Buffer.from('bound context data 0123456789ab').toString('base64url');
    const salt = Buffer.from('twelve-bytes').toString('base64url');
    const sealed = await encrypt({ applicationId: 'REGISTRATION', data: 'with aad', aad, salt });
    expect((await decrypt({ applicationId: 'REGISTRATION', data: sealed.response.data, aad, salt })).response.data).toBe('with aad');
    expect(
      (await decrypt({ applicationId: 'REGISTRATION', data: sealed.response.data, aad: Buffer.from('other').toString('base64url'), salt })).errors[0].errorCode,
    ).toBe('KER-CRY-003');
  });

  it('fails cleanly on tampering, a wrong key, and malformed input, changing nothing', async () => {
    const sealed = decodeBase64Any((await encrypt({ applicationId: 'REGISTRATION', data: 'integrity' })).response.data);
    for (const offset of [0, 10, 100, 300, 320, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[offset]! ^= 0x01;
      const result = await decrypt({ applicationId: 'REGISTRATION', data: tampered.toString('base64url') });
      expect(result.response, `byte ${offset}`).toBeNull();
      expect(['KER-CRY-003', 'KER-CRY-006']).toContain(result.errors[0].errorCode);
    }
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/decrypt', { applicationId: 'IDA', data: sealed.toString('base64url') }), 'KER-CRY-006');
    await expectRejected(
      t,
      () => call('POST', '/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: Buffer.from('no splitter in here at all').toString('base64url') }),
      'KER-CRY-003',
    );
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: '***not base64***' }), 'KER-CRY-003');
    const future = Buffer.concat([Buffer.from('VER_R9'), sealed.subarray(6)]);
    await expectRejected(
      t,
      () => call('POST', '/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: future.toString('base64url') }),
      'KER-CRY-001',
    );
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'REGISTRATION' }), 'KER-CRY-004');
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'REGISTRATION', data: '' }), 'KER-CRY-004');
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/encrypt', { data: 'x' }), 'KER-CRY-004');
    await expectRejected(
      t,
      () => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'REGISTRATION', data: 'x', timeStamp: 'yesterday' }),
      'KER-CRY-007',
    );
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'NOPE', data: 'x' }), 'KER-CRY-006');
    await expectRejected(t, () => call('POST', '/v1/cryptomanager/encrypt', { applicationId: 'REGISTRATION', data: 'x', aad: '%%%' }), 'KER-CRY-003');
  });

  it('works through GraphQL with the same codes', async () => {
    const headers = bearer(await t.adminToken());
    const sealed = await t.graphql(
      'mutation { encrypt(input: { applicationId: "REGISTRATION", data: "via graphql" }) { cryptoResult { data } userErrors { field code message } } }',
      {},
      headers,
    );
    const opened = await t.graphql(
      'mutation($d: String!) { decrypt(input: { applicationId: "REGISTRATION", data: $d }) { cryptoResult { data } userErrors { field code message } } }',
      { d: sealed.data.encrypt.cryptoResult.data },
      headers,
    );
    expect(opened.data.decrypt.cryptoResult.data).toBe('via graphql');
    // A key generated through the graph answers the certificate in force, as the key store keeps it.
    const generated = await t.graphql(
      'mutation { generateMasterKey(input: { objectType: "Certificate", applicationId: "KERNEL", referenceId: "GRAPH", force: true }) { certificateRecord { certificate inForce { thumbprint subject } } userErrors { code message } } }',
      {},
      headers,
    );
    const record = generated.data.generateMasterKey.certificateRecord;
    expect(record.inForce.thumbprint).toBe(createHash('sha256').update(new X509Certificate(record.certificate).raw).digest('hex'));
    const bad = await t.graphql(
      'mutation { decrypt(input: { applicationId: "REGISTRATION", data: "AAAA" }) { cryptoResult { data } userErrors { field code message } } }',
      {},
      headers,
    );
    expect(refusalOf(bad)!.code).toBe('KER-CRY-003');
  });

  it('takes timeStamp as a DateTime through GraphQL, while REST answers malformed wire text with KER-CRY-007 as before', async () => {
    await certificate('REGISTRATION'); // the key in force, generated where none is yet
    const headers = bearer(await t.adminToken());
    const now = new Date().toISOString();
    const sealed = await t.graphql(ENCRYPT_AT, { ts: now }, headers);
    expect(sealed.errors).toBeUndefined();
    expect(sealed.data.encrypt.userErrors).toEqual([]);
    const opened = await t.graphql(
      'mutation($d: String!, $ts: DateTime) { decrypt(input: { applicationId: "REGISTRATION", data: $d, timeStamp: $ts }) { cryptoResult { data } userErrors { field code message } } }',
      { d: sealed.data.encrypt.cryptoResult.data, ts: now },
      headers,
    );
    expect(opened.data.decrypt.cryptoResult.data).toBe('at a time');
    // Absent (null) stays absent: the key in force now.
    expect((await t.graphql(ENCRYPT_AT, { ts: null }, headers)).data.encrypt.cryptoResult.data).toEqual(expect.any(String));
    // What is no instant GraphQL refuses itself, before the crypto manager runs.
    for (const ts of ['yesterday', '', '2026-02-30T00:00:00.000Z']) {
      const refused = await t.graphql(ENCRYPT_AT, { ts }, headers);
      expect(refused.data ?? null).toBeNull();
      expect(refusalOf(refused)).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/DateTime/) });
    }
    const literal = await t.graphql(
      'mutation { decrypt(input: { applicationId: "REGISTRATION", data: "AAAA", timeStamp: "soon" }) { cryptoResult { data } userErrors { field code message } } }',
      {},
      headers,
    );
    // An inline literal is refused too (the subgraph's validation; the gateway's supergraph lets any literal through to it).
    expect(literal.data?.decrypt ?? null).toBeNull();
    expect(literal.errors).toHaveLength(1);

    // REST: the wire's text, checked as the crypto manager checks it, same code and message as before.
    for (const path of ['/v1/cryptomanager/encrypt', '/v1/cryptomanager/decrypt']) {
      await expectRejected(t, () => call('POST', path, { applicationId: 'REGISTRATION', data: 'x', timeStamp: 'yesterday' }), 'KER-CRY-007', BAD_TIMESTAMP);
      await expectRejected(t, () => call('POST', path, { applicationId: 'REGISTRATION', data: 'x', timeStamp: '2026-02-30T00:00:00.000Z' }), 'KER-CRY-007');
      // An empty application id or data is still reported first.
      await expectRejected(t, () => call('POST', path, { applicationId: ' ', data: 'x', timeStamp: 'yesterday' }), 'KER-CRY-004', /^applicationId /);
      await expectRejected(t, () => call('POST', path, { applicationId: 'REGISTRATION', data: '', timeStamp: 'yesterday' }), 'KER-CRY-004', /^data /);
      await expectRejected(t, () => call('POST', path, { applicationId: 'REGISTRATION', data: 'x', timeStamp: 'y'.repeat(65) }), 'KER-CRY-007');
    }
    // An empty wire timeStamp means now, as an absent one; an instant with an offset is that instant.
    for (const timeStamp of ['', new Date().toISOString().replace('Z', '+00:00')]) {
      const wire = await encrypt({ applicationId: 'REGISTRATION', data: 'on the wire', timeStamp });
      expect(wire.errors).toBeNull();
      expect((await decrypt({ applicationId: 'REGISTRATION', data: wire.response.data, timeStamp })).response.data).toBe('on the wire');
    }
  });
});

describe('signature service', () => {
  it('signs a JWS that openssl verifies with the signing certificate, and validates it', async () => {
    const signed = await call('POST', '/v1/signature/sign', { data: 'registration 10001100020000120240101120000' });
    const jws: string = signed.json.response.signature;
    expect(signed.json.response.timestamp).toEqual(expect.any(String));
    const [header, payload, signature] = jws.split('.');
    const { alg, x5c } = JSON.parse(Buffer.from(header!, 'base64url').toString());
    expect(alg).toBe('RS256');
    file('signer.pem', new X509Certificate(Buffer.from(x5c[0], 'base64')).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    file('jws-input.txt', `${header}.${payload}`);
    file('jws-signature.bin', Buffer.from(signature!, 'base64url'));
    expect(openssl('dgst', '-sha256', '-verify', 'signer.pem', '-signature', 'jws-signature.bin', 'jws-input.txt')).toMatch(/Verified OK/);
    const valid = await call('POST', '/v1/signature/validate', { signature: jws, data: 'registration 10001100020000120240101120000' });
    expect(valid.json.response).toEqual({ status: 'success', message: 'Validation Successful' });
  });

  it('answers KER-CSS-101 for a signature that is not valid and KER-CSS-999 for bad input', async () => {
    const jws: string = (await call('POST', '/v1/signature/sign', { data: 'original' })).json.response.signature;
    await expectRejected(t, () => call('POST', '/v1/signature/validate', { signature: jws, data: 'changed' }), 'KER-CSS-101');
    const [h, p, s] = jws.split('.');
    const flipped = Buffer.from(s!, 'base64url');
    flipped[10]! ^= 1;
    await expectRejected(t, () => call('POST', '/v1/signature/validate', { signature: `${h}.${p}.${flipped.toString('base64url')}` }), 'KER-CSS-101');
    // signed by a key that is not the platform's
    const foreignHeader = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'f'.repeat(64) })).toString('base64url');
    await expectRejected(t, () => call('POST', '/v1/signature/validate', { signature: `${foreignHeader}.${p}.${s}` }), 'KER-CSS-101');
    await expectRejected(t, () => call('POST', '/v1/signature/validate', { signature: 'not-a-jws' }), 'KER-CSS-999');
    await expectRejected(t, () => call('POST', '/v1/signature/validate', {}), 'KER-CSS-999');
    await expectRejected(t, () => call('POST', '/v1/signature/sign', { data: '' }), 'KER-CSS-999');
    await expectRejected(t, () => call('POST', '/v1/signature/sign', {}), 'KER-CSS-999');
  });
});

describe('sync data keys', () => {
  it('hands out the public key in force and maps machine keys by thumbprint', async () => {
    const key = await call('GET', `/v1/syncdata/publickey/REGISTRATION?timeStamp=${new Date().toISOString()}`);
    expect(key.json.response).toMatchObject({ publicKey: expect.any(String), issuedAt: expect.any(String), expiryAt: expect.any(String), profile: 'default' });
    const cert = new X509Certificate((await certificate('REGISTRATION')).response.certificate);
    expect(decodeBase64Any(key.json.response.publicKey)).toEqual(cert.publicKey.export({ type: 'spki', format: 'der' }));
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/REGISTRATION'), 'KER-KMS-005');
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/REGISTRATION?timeStamp=soon'), 'KER-CRY-007');
    await expectRejected(t, () => call('GET', `/v1/syncdata/publickey/NOPE?timeStamp=${new Date().toISOString()}`), 'KER-KMS-002');
    // Through GraphQL timeStamp is a DateTime: the same key; what is no instant GraphQL refuses itself.
    const headers = bearer(await t.adminToken());
    const SYNC_KEY = 'query($ts: DateTime!) { syncPublicKey(applicationId: "REGISTRATION", timeStamp: $ts) { publicKey profile } }';
    expect((await t.graphql(SYNC_KEY, { ts: new Date().toISOString() }, headers)).data.syncPublicKey).toEqual({
      publicKey: key.json.response.publicKey,
      profile: 'default',
    });
    for (const ts of ['soon', '']) expect(refusalOf(await t.graphql(SYNC_KEY, { ts }, headers))).toMatchObject({ code: 'BAD_USER_INPUT' });
    // REST keeps its codes and their order: an empty timeStamp is malformed, the path's application id is checked before it.
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/REGISTRATION?timeStamp=soon'), 'KER-CRY-007', BAD_TIMESTAMP);
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/REGISTRATION?timeStamp='), 'KER-CRY-007', BAD_TIMESTAMP);
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/IDA%00?timeStamp=soon'), 'KER-KMS-005', /^applicationId is invalid/);
    await expectRejected(t, () => call('GET', `/v1/syncdata/publickey/${'A'.repeat(257)}?timeStamp=soon`), 'KER-KMS-005', /^applicationId is invalid/);
    await expectRejected(t, () => call('GET', '/v1/syncdata/publickey/NOPE?timeStamp=soon'), 'KER-CRY-007');

    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'machine.key');
    const der = execFileSync('openssl', ['pkey', '-in', 'machine.key', '-pubout', '-outform', 'DER'], { cwd: dir });
    const publicKey = der.toString('base64');
    const mapped = await call('POST', '/v1/syncdata/tpm/publickey', { machineName: 'machine-10002', publicKey });
    expect(mapped.json.id).toBe('platform.kernel.sync.publickeytomachine');
    expect(mapped.json.response.keyIndex).toBe(createHash('sha256').update(der).digest('hex'));
    expect((await call('POST', '/v1/syncdata/tpm/publickey/verify', { machineName: 'machine-10002', publicKey })).json.response.verified).toBe(true);
    // Another key of a known machine is not verified; a machine without a mapped key is not found (MOSIP's KER-SNC-155).
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'other.key');
    const stranger = execFileSync('openssl', ['pkey', '-in', 'other.key', '-pubout', '-outform', 'DER'], { cwd: dir }).toString('base64');
    expect((await call('POST', '/v1/syncdata/tpm/publickey/verify', { machineName: 'machine-10002', publicKey: stranger })).json.response).toMatchObject({
      machineName: 'machine-10002',
      verified: false,
    });
    await expectRejected(
      t,
      () => call('POST', '/v1/syncdata/tpm/publickey/verify', { machineName: 'machine-other', publicKey }),
      'KER-SNC-155',
      /Machine not found/,
    );
    const verify =
      'mutation($m: ID!, $k: String!) { verifyMachinePublicKey(input: { machineName: $m, publicKey: $k }) { machineKey { machineName keyIndex verified } userErrors { field code message } } }';
    const admin = bearer(await t.adminToken());
    const before = await t.snapshot();
    const unknown = await t.graphql(verify, { m: 'machine-other', k: publicKey }, admin);
    expect(refusalCode(unknown)).toBe('KER-SNC-155');
    expect(unknown.data.verifyMachinePublicKey.machineKey).toBeNull();
    expect(await t.snapshot()).toEqual(before);
    expect((await t.graphql(verify, { m: 'machine-10002', k: publicKey }, admin)).data.verifyMachinePublicKey.machineKey.verified).toBe(true);
    await expectRejected(t, () => call('POST', '/v1/syncdata/tpm/publickey', { machineName: 'machine-x', publicKey: 'bm90IGEga2V5' }), 'KER-CRY-002');
    await expectRejected(t, () => call('POST', '/v1/syncdata/tpm/publickey', { machineName: 'machine-x' }), 'KER-CRY-004');
    await expectRejected(t, () => call('POST', '/v1/syncdata/tpm/publickey', { machineName: 'machine-y', publicKey }), 'KER-CRY-002');
  });
});

describe('roles', () => {
  it('requires a token (KER-ATH-006) and the key roles (KER-ATH-403)', async () => {
    await expectRejected(t, () => t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION'), 'KER-ATH-006');
    await t.graphql(
      'mutation { createUser(input: {userId: "resident-k", password: "resident-pass-1", roles: [INDIVIDUAL], appIds: ["resident"]}) { user { userId } userErrors { field code message } } }',
      {},
      bearer(await t.adminToken()),
    );
    const login = await t.graphql(
      'mutation { loginWithPassword(input: { userName: "resident-k", password: "resident-pass-1", appId: "resident" }) { passwordLogin { token } userErrors { field code message } } }',
    );
    const resident = cookieHeader(login.data.loginWithPassword.passwordLogin.token);
    await expectRejected(
      t,
      () => t.request('POST', '/v1/cryptomanager/decrypt', { body: envelopeOf({ applicationId: 'REGISTRATION', data: 'AAAA' }), headers: resident }),
      'KER-ATH-403',
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', '/v1/keymanager/generateMasterKey/CSR', { body: envelopeOf({ applicationId: 'IDA', force: true, ...SUBJECT }), headers: resident }),
      'KER-ATH-403',
    );
  });
});

describe('Response-Signature', () => {
  it('signs the signature service responses with a detached JWS that the service validates against the body', async () => {
    const response = await fetch(`${t.baseUrl}/v1/signature/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(envelopeOf({ data: 'anything' })),
    });
    const body = await response.text();
    const header = response.headers.get('response-signature');
    expect(header).toMatch(/^[\w-]+\.\.[\w-]+$/);
    expect((await call('POST', '/v1/signature/validate', { signature: header, data: body })).json.response.status).toBe('success');
    await expectRejected(
      t,
      () => call('POST', '/v1/signature/validate', { signature: header, data: body.replace('"errors":null', '"errors":[]') }),
      'KER-CSS-101',
    );
  });
});

describe('logs', () => {
  it('never carry a private key, even at trace level', async () => {
    const { pino } = await import('pino');
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const traced = await startTestPlatform({}, undefined, { logger });
    try {
      const headers = cookieHeader(await traced.adminToken());
      const send = (p: string, body: unknown) => traced.request('POST', p, { body: envelopeOf(body), headers });
      await send('/v1/keymanager/generateMasterKey/CSR', { applicationId: 'REGISTRATION', force: true, ...SUBJECT });
      const sealed = await send('/v1/cryptomanager/encrypt', { applicationId: 'REGISTRATION', data: 'secret' });
      await send('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: sealed.json.response.data });
      await send('/v1/cryptomanager/decrypt', { applicationId: 'REGISTRATION', data: 'AAAA' });
      await send('/v1/signature/sign', { data: 'x' });
      expect(lines.length).toBeGreaterThan(0);
      const rows = await traced.platform.deps.prisma.keyStoreEntry.findMany();
      const pems = await Promise.all(
        rows
          .filter((r) => r.privateKey)
          .map(async (r) => {
            const { KeyStore } = await import('../../subgraphs/keys/key-store.js');
            const { KeysStorage } = await import('../../subgraphs/keys/storage.js');
            const store = new KeyStore(
              new KeysStorage(traced.platform.deps.prisma),
              traced.platform.deps.masterKey,
              traced.clock,
              (await import('../../subgraphs/keys/policy.js')).DEFAULT_KEY_POLICY,
            );
            return (await store.privateKeyOf(r)).export({ type: 'pkcs8', format: 'der' }).toString('base64');
          }),
      );
      const logged = lines.join('');
      expect(logged).not.toMatch(/PRIVATE KEY/);
      for (const der of pems) expect(logged).not.toContain(der.slice(100, 160));
      // at rest too: the database holds no private key in the clear
      expect(JSON.stringify(rows)).not.toMatch(/PRIVATE KEY/);
    } finally {
      await traced.close();
    }
  });
});

describe('a configured key policy', () => {
  it('knows only its application ids, their validity and whether they take reference ids', async () => {
    const policy = [
      { applicationId: 'CUSTOM', validityDays: 30, referenceIds: false, autoGenerate: true, cryptoRoles: ['GLOBAL_ADMIN'] },
      { applicationId: 'MANUAL', validityDays: 10, referenceIds: true, autoGenerate: false },
      // The keys sealing stored data stay the platform's own, whatever roles a policy grants them.
      { applicationId: 'IDREPO', validityDays: 30, referenceIds: false, autoGenerate: true, cryptoRoles: ['GLOBAL_ADMIN'] },
      { applicationId: 'PREREG', validityDays: 30, referenceIds: false, autoGenerate: true, cryptoRoles: ['GLOBAL_ADMIN'] },
    ];
    const custom = await startTestPlatform({ PLATFORM_KEY_POLICY: JSON.stringify(policy) });
    try {
      const headers = cookieHeader(await custom.adminToken());
      const get = (query: string) => custom.request('GET', `/v1/keymanager/getCertificate?${query}`, { headers });
      const record = (await get('applicationId=CUSTOM')).json.response;
      expect(new Date(record.expiryAt).getTime() - new Date(record.issuedAt).getTime()).toBe(30 * 86_400_000);
      expect((await get('applicationId=REGISTRATION')).json.errors[0].errorCode).toBe('KER-KMS-002');
      expect((await get('applicationId=CUSTOM&referenceId=r1')).json.errors[0].errorCode).toBe('KER-KMS-010');
      // Through the crypto manager the same mistake is its one code, whether it encrypts or decrypts.
      for (const operation of ['encrypt', 'decrypt']) {
        const refused = await custom.request('POST', `/v1/cryptomanager/${operation}`, {
          headers,
          body: envelopeOf({ applicationId: 'CUSTOM', referenceId: 'r1', data: 'eA' }),
        });
        expect(refused.json.errors[0].errorCode, operation).toBe('KER-CRY-006');
      }
      for (const applicationId of ['IDREPO', 'PREREG'])
        for (const operation of ['encrypt', 'decrypt']) {
          const refused = await custom.request('POST', `/v1/cryptomanager/${operation}`, { headers, body: envelopeOf({ applicationId, data: 'eA' }) });
          expect(refused.json.errors[0].errorCode, `${operation} ${applicationId}`).toBe('KER-ATH-403');
        }
      expect((await get('applicationId=MANUAL')).json.errors[0].errorCode).toBe('KER-KMS-012');
      const made = await custom.request('POST', '/v1/keymanager/generateMasterKey/Certificate', {
        headers,
        body: envelopeOf({ applicationId: 'MANUAL', force: false, ...SUBJECT }),
      });
      expect((await get('applicationId=MANUAL')).json.response.certificate).toBe(made.json.response.certificate);
    } finally {
      await custom.close();
    }
  });
});
