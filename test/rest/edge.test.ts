// What the edge refuses before anything runs: bodies of the wrong type, control
// characters, undecodable paths, tokens that would never expire, and any body
// at all from a caller without a token.
import { createPrivateKey } from 'node:crypto';
import net from 'node:net';
import jwt from 'jsonwebtoken';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { cookieHeader, envelopeOf, startTestPlatform, testMasterKey, type TestPlatform } from '../support/platform.js';
import { waitFor } from '../support/wait.js';

let t: TestPlatform;
let admin: Record<string, string>;
const errorLines: string[] = [];
beforeAll(async () => {
  const logger = pino({ level: 'error' }, { write: (line: string) => void errorLines.push(line) });
  t = await startTestPlatform({}, undefined, { logger });
  admin = cookieHeader(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('JSON routes', () => {
  it('refuse a text/plain or form-encoded body with the route code, even with a valid cookie, and create nothing', async () => {
    const body = JSON.stringify(envelopeOf({ MISPId: 'misp-csrf', licenseExpiryTime: inDays(30) }));
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      await expectRejected(
        t,
        () => t.request('POST', '/v1/licensekeymanager/license/generate', { raw: body, headers: { ...admin, 'content-type': contentType } }),
        'KER-LKM-006',
        /application\/json/,
      );
    }
    // the same body as JSON (charset allowed) goes through
    const accepted = await t.request('POST', '/v1/licensekeymanager/license/generate', {
      raw: body,
      headers: { ...admin, 'content-type': 'application/json; charset=utf-8' },
    });
    expect(accepted.json.response.licenseKey).toMatch(/^[A-Za-z0-9]{16}$/);
  });
});

describe('control characters in identifiers', () => {
  it("get the field's code at the edge, change nothing and log no error (REST)", async () => {
    const before = errorLines.length;
    await expectRejected(
      t,
      () =>
        t.request('POST', '/v1/authmanager/authenticate/internal/useridPwd', { body: envelopeOf({ userName: 'ad\u0000min', password: 'x', appId: 'admin' }) }),
      'KER-ATH-003',
      /control characters/,
    );
    await expectRejected(
      t,
      () =>
        t.request('POST', '/v1/licensekeymanager/license/generate', {
          body: envelopeOf({ MISPId: 'misp\u0000', licenseExpiryTime: inDays(3) }),
          headers: admin,
        }),
      'KER-LKM-001',
    );
    await expectRejected(
      t,
      () => t.request('POST', '/v1/otpmanager/otp/generate', { body: envelopeOf({ key: 'key\u001b[31m' }), headers: admin }),
      'KER-OTG-001',
    );
    await expectRejected(t, () => t.request('GET', '/v1/keymanager/getCertificate?applicationId=IDA%00', { headers: admin }), 'KER-KMS-013');
    expect(errorLines.slice(before)).toEqual([]);
  });
});

describe('a path whose percent-encoding does not decode', () => {
  it('gets a 400 envelope, with no stack trace and no error log', async () => {
    const before = errorLines.length;
    const { status, json } = await t.request('GET', '/v1/syncdata/publickey/%E0%A4%A?timeStamp=2026-01-01T00:00:00.000Z', { headers: admin });
    expect(status).toBe(400);
    expect(json).toMatchObject({ response: null, errors: [{ errorCode: 'KER-REQ-400' }] });
    expect(JSON.stringify(json)).not.toMatch(/URIError|at \w+ \(/);
    expect(errorLines.slice(before)).toEqual([]);
  });
});

describe('tokens', () => {
  const signingKey = async () => {
    const row = await t.platform.deps.prisma.signingKey.findFirstOrThrow();
    return createPrivateKey(testMasterKey.unwrap(row.privateKey, 'auth/token-signing-key').toString('utf8'));
  };
  const validate = (token: string) => t.request('GET', '/v1/authmanager/authorize/admin/validateToken', { headers: cookieHeader(token) });

  it('without exp are refused (KER-ATH-401), even when signed by the platform and recorded', async () => {
    const real = jwt.decode(await t.adminToken()) as Record<string, unknown>;
    const { exp: _exp, iat: _iat, ...claims } = real;
    const forever = jwt.sign(claims, await signingKey(), { algorithm: 'RS256', keyid: 'auth-token-signing-1' });
    expect((await validate(forever)).json.errors[0].errorCode).toBe('KER-ATH-401');
  });

  it('are refused once their recorded expiry has passed, whatever the JWT says', async () => {
    const token = await t.adminToken();
    expect((await validate(token)).json.response.userId).toBe('admin');
    const { jti } = jwt.decode(token) as { jti: string };
    // Lowering the recorded expiry (by any path, an operator's UPDATE included) revokes the token from then on:
    // every instance hears of it through the trigger's NOTIFY, as of any revocation (within 1 s; more on a loaded machine).
    await t.platform.deps.prisma.accessToken.update({ where: { id: jti }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const refusal = await waitFor(
      async () => (await validate(token)).json.errors?.[0]?.errorCode as string | undefined,
      'the lowered expiry to be heard',
      5_000,
    );
    expect(refusal).toBe('KER-ATH-008');
  });
});

describe('a protected route called without a token', () => {
  it('answers KER-ATH-006 before reading the body: a malformed envelope or form is not even looked at', async () => {
    await expectRejected(t, () => t.request('POST', '/v1/licensekeymanager/license/generate', { raw: '{"not": "an envelope"' }), 'KER-ATH-006');
    const form = new FormData();
    form.set('mailSubject', 'no recipient');
    const response = await fetch(`${t.baseUrl}/v1/emailnotifier/email/send`, { method: 'POST', body: form });
    expect((await response.json()).errors[0].errorCode).toBe('KER-ATH-006');
  });

  it('answers at once when a 50 MB upload has only begun: nothing is buffered', async () => {
    const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /v1/emailnotifier/email/send HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 52428800\r\n\r\n--b\r\nContent-Disposition: form-data; name="attachments"; filename="big.bin"\r\n\r\n',
    );
    socket.write(Buffer.alloc(64 * 1024));
    const deadline = Date.now() + 10_000;
    while (!answer.includes('KER-ATH-006') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    expect(answer).toContain('"errorCode":"KER-ATH-006"');
  });
});
