// The ABIS's data share: a registration's CBEFF (exceptions left out) encrypted for the ABIS partner's
// uploaded certificate, fetched with the ABIS client's token. The CBEFF is recovered here from both
// layouts with node:crypto and ABIS.md's byte layout alone, not with the platform's code.
import { createDecipheriv, createHash, createPrivateKey, privateDecrypt, constants, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutExceptions } from '../../lib/packet/cbeff.js';
import { DataShareService } from '../../subgraphs/abis/datashare/service.js';
import { DataShareStorage } from '../../subgraphs/abis/datashare/storage.js';
import { selfSignedKey } from '../support/certificates.js';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { registrationClient, type BuiltPacket } from '../support/regproc.js';

let t: TestPlatform;
let admin: Record<string, string>;
let packet: BuiltPacket;
let privateKeyPem: string;
let certificatePem: string;
let abisToken: string;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', REGPROC_DEDUPE: 'none' }, (platform, cookie) => {
  t = platform;
  admin = cookie;
});

beforeAll(async () => {
  ({ privateKeyPem, certificatePem } = await selfSignedKey('partner-default-abis'));
  const uploaded = await t.request('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
    body: envelopeOf({ applicationId: 'PARTNER', referenceId: 'partner-default-abis', certificateData: certificatePem }),
    headers: admin,
  });
  expect(uploaded.json.errors).toBeNull();
  const client = await registrationClient(t, admin);
  packet = client.build('datashare-resident');
  await client.submit(packet);
  abisToken = (await t.clientToken(['ABIS'], 'registrationprocessor')).token;
});

/** ABIS.md (c), VER_R2: 'VER_R2' | thumbprint(32) | RSA-OAEP-SHA256(key)(256) | '#KEY_SPLITTER#' | aad(32) | AES-GCM data + tag(16), IV = aad[0..12]. */
function openVerR2(text: string): Buffer {
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  expect(bytes.subarray(0, 6).toString('ascii')).toBe('VER_R2');
  expect(bytes.subarray(6, 38)).toEqual(createHash('sha256').update(new X509Certificate(certificatePem).raw).digest());
  expect(bytes.subarray(294, 308).toString('ascii')).toBe('#KEY_SPLITTER#');
  const key = privateDecrypt({ key: createPrivateKey(privateKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes.subarray(38, 294));
  const aad = bytes.subarray(308, 340);
  const sealed = bytes.subarray(340);
  const decipher = createDecipheriv('aes-256-gcm', key, aad.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

/** ABIS.md (c), LEGACY: thumbprint(32) | RSA-OAEP-SHA256(key)(256) | '#KEY_SPLITTER#' | AES-GCM data + tag(16) | IV(16); no AAD; standard base64. */
function openLegacy(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  expect(bytes.subarray(288, 302).toString('ascii')).toBe('#KEY_SPLITTER#');
  const key = privateDecrypt({ key: createPrivateKey(privateKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes.subarray(32, 288));
  const iv = bytes.subarray(bytes.length - 16);
  const sealed = bytes.subarray(302, bytes.length - 16);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

const fetchShare = (url: string, headers: Record<string, string>) => fetch(url, { headers });

describe('data share', () => {
  it('serves the CBEFF without exceptions, encrypted VER_R2 for the partner certificate, to the ABIS token in the cookie or the header', async () => {
    const { url, shareKey } = await t.platform.deps.services.dataShares.create(packet.rid);
    expect(url).toBe(
      `${t.platform.deps.config.publicUrl ?? `http://127.0.0.1:${t.platform.deps.config.port}`}/v1/datashare/get/policy-default-abis/partner-default-abis/${shareKey}`,
    );
    expect(shareKey).toMatch(/^partner-default-abispolicy-default-abis\d{14}[A-Za-z0-9]{8}$/);
    const path = new URL(url).pathname;
    const byCookie = await fetchShare(`${t.baseUrl}${path}`, { cookie: `Authorization=${abisToken}` });
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('content-type')).toMatch(/^application\/octet-stream/);
    const text = await byCookie.text();
    expect(text).toMatch(/^[A-Za-z0-9_-]+=*$/);
    expect(openVerR2(text)).toEqual(withoutExceptions(packet.resident.cbeff));
    const byHeader = await fetchShare(`${t.baseUrl}${path}`, { authorization: `Platform-Token${abisToken}` });
    expect(openVerR2(await byHeader.text())).toEqual(withoutExceptions(packet.resident.cbeff));
  });

  it('serves the LEGACY layout when configured', async () => {
    const service = new DataShareService(
      new DataShareStorage(t.platform.deps.prisma),
      {
        cbeffOf: (rid) => t.platform.deps.services.registrationRequests.cbeffOfRegistration(rid),
        certificateOf: async (subscriberId) => (await t.platform.deps.services.keys.partnerCertificate(subscriberId)).certificate,
      },
      t.clock,
      { partnerId: 'partner-default-abis', policyId: 'policy-default-abis', dataShareLayout: 'LEGACY', dataShareValidMinutes: 60, dataShareTransactions: -1 },
      'http://platform',
    );
    const { shareKey } = await service.create(packet.rid);
    expect(openLegacy(await service.fetch('policy-default-abis', 'partner-default-abis', shareKey))).toEqual(withoutExceptions(packet.resident.cbeff));
  });

  it("serves a registration's newest live share by its rules for the biometric file: same layout, one fetch counted, null once spent", async () => {
    const service = new DataShareService(
      new DataShareStorage(t.platform.deps.prisma),
      {
        cbeffOf: (rid) => t.platform.deps.services.registrationRequests.cbeffOfRegistration(rid),
        certificateOf: async (subscriberId) => (await t.platform.deps.services.keys.partnerCertificate(subscriberId)).certificate,
      },
      t.clock,
      { partnerId: 'partner-default-abis', policyId: 'policy-default-abis', dataShareLayout: 'LEGACY', dataShareValidMinutes: 60, dataShareTransactions: 1 },
      'http://platform',
    );
    const other = await registrationClient(t, admin);
    const fresh = other.build('datashare-biometric-file');
    await other.submit(fresh);
    expect(await service.fetchOfRegistration(fresh.rid)).toBeNull();
    const { shareKey } = await service.create(fresh.rid);
    expect(openLegacy((await service.fetchOfRegistration(fresh.rid))!)).toEqual(withoutExceptions(fresh.resident.cbeff));
    expect((await t.platform.deps.prisma.dataShare.findUnique({ where: { shareKey } }))?.transactionsLeft).toBe(0);
    expect(await service.fetchOfRegistration(fresh.rid)).toBeNull();
    // The spent share still answers its own address as spent: the biometric file took its one fetch.
    await expect(service.fetch('policy-default-abis', 'partner-default-abis', shareKey)).rejects.toMatchObject({ code: 'DAT-SER-006' });
  });

  it('answers HTTP 401 (KER-ATH-401) without a token and 403 (KER-ATH-403) to another role', async () => {
    const { url } = await t.platform.deps.services.dataShares.create(packet.rid);
    const path = new URL(url).pathname;
    const none = await fetchShare(`${t.baseUrl}${path}`, {});
    expect(none.status).toBe(401);
    expect((await none.json()).errors[0]).toMatchObject({ errorCode: 'KER-ATH-401', message: 'Authentication Failed' });
    const bad = await fetchShare(`${t.baseUrl}${path}`, { cookie: 'Authorization=not-a-token' });
    expect(bad.status).toBe(401);
    const other = bearer((await t.clientToken(['REGISTRATION_PROCESSOR', 'GLOBAL_ADMIN'])).token);
    const refused = await fetchShare(`${t.baseUrl}${path}`, other);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].errorCode).toBe('KER-ATH-403');
  });

  it('answers DAT-SER-006 (HTTP 200) for an unknown key, another policy, and an expired or spent share', async () => {
    let cookie = { cookie: `Authorization=${abisToken}` };
    const errorOf = async (path: string) => {
      const response = await fetchShare(`${t.baseUrl}${path}`, cookie);
      expect(response.status).toBe(200);
      return (await response.json()).errors[0];
    };
    expect(await errorOf('/v1/datashare/get/policy-default-abis/partner-default-abis/unknown')).toEqual({
      errorCode: 'DAT-SER-006',
      message: 'Data share not found',
    });
    const { url, shareKey } = await t.platform.deps.services.dataShares.create(packet.rid);
    expect(await errorOf(`/v1/datashare/get/other-policy/partner-default-abis/${shareKey}`)).toMatchObject({
      errorCode: 'DAT-SER-006',
      message: 'Data share not found',
    });
    t.clock.set(new Date(t.clock.now().getTime() + 61 * 60_000));
    // A token of the new time: the old one expired with the share.
    cookie = { cookie: `Authorization=${(await t.clientToken(['ABIS'], 'registrationprocessor')).token}` };
    expect(await errorOf(new URL(url).pathname)).toEqual({ errorCode: 'DAT-SER-006', message: 'Data share usage expired' });

    const once = new DataShareService(
      new DataShareStorage(t.platform.deps.prisma),
      { cbeffOf: () => Promise.resolve(Buffer.from('<BIR/>')), certificateOf: () => Promise.resolve(certificatePem) },
      t.clock,
      { partnerId: 'partner-default-abis', policyId: 'policy-default-abis', dataShareLayout: 'VER_R2', dataShareValidMinutes: 60, dataShareTransactions: 1 },
      'http://platform',
    );
    const single = await once.create(packet.rid);
    await once.fetch('policy-default-abis', 'partner-default-abis', single.shareKey);
    await expect(once.fetch('policy-default-abis', 'partner-default-abis', single.shareKey)).rejects.toMatchObject({
      code: 'DAT-SER-006',
      message: 'Data share usage expired',
    });
  });

  it('cannot be made for a subscriber without an uploaded certificate', async () => {
    await expect(t.platform.deps.services.dataShares.create(packet.rid, 'partner-without-certificate')).rejects.toThrow();
  });
});
