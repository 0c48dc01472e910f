import { createHash, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../../lib/crypto/certificates.js';
import { decryptVerR2 } from '../../lib/crypto/envelope.js';
import { pmsCalls } from '../support/pms.js';
import { expectRejected, TIMESTAMP } from '../support/assertions.js';
import { cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';

const DAY_MS = 86_400_000;
let t: TestPlatform;
useTestPlatform({}, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { send, ok } = pmsCalls(() => t);

/** A partner's own key pair and a self-signed certificate of it. */
function partnerCertificate(options: { bits?: number; from?: number; to?: number; commonName?: string } = {}) {
  const pair = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const now = Date.now();
  const pem = issueCertificate({
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject: { commonName: options.commonName ?? 'bank.example.org', organization: 'Certificate Bank', country: 'MA' },
    validFrom: new Date(now + (options.from ?? -DAY_MS)),
    validTo: new Date(now + (options.to ?? 365 * DAY_MS)),
    ca: false,
    selfPrivateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  return { pem, privateKey: pair.privateKey };
}
const thumbprintOf = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
const upload = (who: Credentials, certificateData: string, partnerId = 'CERT-A', partnerDomain = 'AUTH') =>
  send(who, 'POST', '/partners/certificate/upload', { partnerId, certificateData, partnerDomain });

let partnerA: Login;
let partnerB: Login;
let admin: Credentials;
let first: { pem: string; privateKey: KeyObject };

beforeAll(async () => {
  admin = cookieHeader(await t.adminToken());
  partnerA = await userLogin(t, 'cert-partner-a', ['PARTNER']);
  partnerB = await userLogin(t, 'cert-partner-b', ['PARTNER']);
  const registration = { contactNumber: '9876543210', emailId: 'cert@example.org', address: '3 Certificate Lane', policyGroup: 'default' };
  await ok(send(partnerA.cookie, 'POST', '/partners', { partnerId: 'CERT-A', organizationName: 'Certificate Bank', ...registration }));
  await ok(send(partnerB.cookie, 'POST', '/partners', { partnerId: 'CERT-B', organizationName: 'Other Bank', ...registration }));
  first = partnerCertificate();
});

describe('partner certificates', () => {
  it('are kept by the key manager and answered certified by partner management', async () => {
    await expectRejected(t, () => send(partnerA.cookie, 'GET', '/partners/CERT-A/certificate'), 'KER-PCM-012');
    const uploaded = await ok(upload(partnerA.cookie, first.pem));
    expect(uploaded.certificateId).toBe(thumbprintOf(first.pem));
    expect(uploaded.timestamp).toMatch(TIMESTAMP);
    // The partner's own key, its own subject, issued by partner management's certificate.
    const signed = new X509Certificate(uploaded.signedCertificateData);
    const pms = new X509Certificate((await ok(send(partnerA.cookie, 'GET', '/partners/digitalcertificate'))).platformCertificate);
    expect(signed.publicKey.export({ type: 'spki', format: 'der' })).toEqual(new X509Certificate(first.pem).publicKey.export({ type: 'spki', format: 'der' }));
    expect(signed.subject).toContain('CN=bank.example.org');
    expect(signed.checkIssued(pms)).toBe(true);
    expect(signed.verify(pms.publicKey)).toBe(true);
    const fetched = await ok(send(partnerA.cookie, 'GET', '/partners/CERT-A/certificate'));
    expect(fetched).toMatchObject({ certificateId: uploaded.certificateId, certificateData: uploaded.signedCertificateData });

    // The key manager encrypts towards the partner with it: only the partner's private key opens it.
    const { json } = await t.request('POST', '/v1/cryptomanager/encrypt', {
      body: envelopeOf({ applicationId: 'PARTNER', referenceId: 'CERT-A', data: 'e-KYC for the bank' }),
      headers: admin,
    });
    const opened = await decryptVerR2(Buffer.from(json.response.data, 'base64url'), () => Promise.resolve(first.privateKey));
    expect(opened.toString('utf8')).toBe('e-KYC for the bank');
  });

  it('show in the portal graph through the key store, replaced by a new upload', async () => {
    const graph = (who: Login) =>
      t.graphql('{ partners(filter: { policyGroupId: "default" }) { edges { node { id certificate { thumbprint subject notAfter } } } } }', {}, who.bearer);
    const before = (await graph(partnerA)).data.partners.edges.map((edge: any) => edge.node);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ id: 'CERT-A', certificate: { thumbprint: thumbprintOf(first.pem) } });
    const second = partnerCertificate({ commonName: 'bank2.example.org' });
    const { certificateId } = await ok(upload(partnerA.cookie, second.pem));
    expect(certificateId).toBe(thumbprintOf(second.pem));
    const after = (await graph(partnerA)).data.partners.edges[0].node;
    expect(after.certificate).toMatchObject({ thumbprint: certificateId, subject: expect.stringContaining('bank2.example.org') });
    // Partner B sees its own record only, without a certificate yet.
    expect((await graph(partnerB)).data.partners.edges.map((edge: any) => edge.node)).toEqual([{ id: 'CERT-B', certificate: null }]);
    // Uploaded through the graph, the payload carries the partner with the certificate now in force.
    const third = partnerCertificate({ commonName: 'bank3.example.org' });
    const graphUpload = await t.graphql(
      'mutation($input: UploadPartnerCertificateInput!) { uploadPartnerCertificate(input: $input) { partnerCertificateUpload { certificateId partner { id certificate { thumbprint } } } userErrors { code message } } }',
      { input: { partnerId: 'CERT-A', certificateData: third.pem, partnerDomain: 'AUTH' } },
      partnerA.bearer,
    );
    expect(graphUpload.data.uploadPartnerCertificate).toEqual({
      partnerCertificateUpload: { certificateId: thumbprintOf(third.pem), partner: { id: 'CERT-A', certificate: { thumbprint: thumbprintOf(third.pem) } } },
      userErrors: [],
    });
    first = third;
  });

  it('leave exactly one certificate in force when uploads race, the one the partner is answered with', async () => {
    const racing = Array.from({ length: 4 }, (_, i) => partnerCertificate({ commonName: `race${i}.example.org` }));
    const answers = await Promise.all(racing.map((certificate) => ok(upload(partnerA.cookie, certificate.pem))));
    expect(answers.map((answer) => answer.certificateId).sort()).toEqual(racing.map((certificate) => thumbprintOf(certificate.pem)).sort());
    const inForce = await t.platform.deps.prisma.keyStoreEntry.findMany({ where: { applicationId: 'PARTNER', referenceId: 'CERT-A', retiredAt: null } });
    expect(inForce).toHaveLength(1);
    const current = await ok(send(partnerA.cookie, 'GET', '/partners/CERT-A/certificate'));
    expect(current.certificateId).toBe(inForce[0]!.thumbprint);
    const graph = await t.graphql('{ partners { edges { node { certificate { thumbprint } } } } }', {}, partnerA.bearer);
    expect(graph.data.partners.edges[0].node.certificate.thumbprint).toBe(current.certificateId);
    // Uploading the certificate in force again changes nothing.
    const again = racing.find((certificate) => thumbprintOf(certificate.pem) === current.certificateId)!;
    expect((await ok(upload(partnerA.cookie, again.pem))).certificateId).toBe(current.certificateId);
    expect(await t.platform.deps.prisma.keyStoreEntry.count({ where: { applicationId: 'PARTNER', referenceId: 'CERT-A', retiredAt: null } })).toBe(1);
    first = again;
  });

  it('refuses a bad certificate, domain, partner or caller with its code and changes nothing', async () => {
    await expectRejected(t, () => upload(partnerA.cookie, first.pem, 'CERT-A', 'BANKING'), 'KER-PCM-011');
    await expectRejected(t, () => upload(partnerA.cookie, 'not a certificate'), 'KER-PCM-001');
    await expectRejected(t, () => upload(partnerA.cookie, partnerCertificate({ bits: 1024 }).pem), 'KER-PCM-013');
    await expectRejected(t, () => upload(partnerA.cookie, partnerCertificate({ from: -30 * DAY_MS, to: -DAY_MS }).pem), 'KER-PCM-004', /expired/);
    await expectRejected(t, () => upload(partnerA.cookie, partnerCertificate({ from: DAY_MS }).pem), 'KER-PCM-004', /not valid before/);
    await expectRejected(t, () => upload(partnerA.cookie, first.pem, 'NO-SUCH'), 'PMS_PRT_005');
    await expectRejected(t, () => upload(partnerB.cookie, partnerCertificate().pem, 'CERT-A'), 'KER-ATH-403');
    await expectRejected(t, () => send(partnerB.cookie, 'GET', '/partners/CERT-A/certificate'), 'KER-ATH-403');
    await expectRejected(t, () => send(partnerA.cookie, 'POST', '/partners/certificate/upload', { partnerId: 'CERT-A', partnerDomain: 'AUTH' }), 'PMS_COR_001');
    const resident = await userLogin(t, 'cert-resident', ['RESIDENT']);
    await expectRejected(t, () => upload(resident.cookie, first.pem), 'KER-ATH-403');
  });
});
