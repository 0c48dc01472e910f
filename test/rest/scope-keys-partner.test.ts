// Issue 19: a role alone never reaches another caller's records, through REST
// or any GraphQL path. Partners' certificates (key manager and partner
// management), MISP license keys, validatePartnerMisp's answers, and the
// inputs of partner management (NUL, LIKE wildcards, look-alike MISP names).
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { graphql as execute } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequestContext } from '../../lib/context.js';
import { issueCertificate } from '../../lib/crypto/certificates.js';
import { keys as keysComponent } from '../../subgraphs/keys/index.js';
import { expectRejected } from '../support/assertions.js';
import { pmsCalls } from '../support/pms.js';
import { cookieHeader, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { type Login, userLogin } from '../support/users.js';
import { refusalCode as codeOf, refusalOf } from '../support/refusals.js';

const DAY_MS = 86_400_000;
let t: TestPlatform;
useTestPlatform({}, (platform) => {
  t = platform;
});

type Credentials = Record<string, string>;
const { send, ok } = pmsCalls(() => t);
const asCookie = (who: Login | Credentials): Credentials => ('cookie' in who && typeof who.cookie === 'object' ? who.cookie : (who as Credentials));
const asBearer = (who: Login | Credentials): Credentials => ('bearer' in who && typeof who.bearer === 'object' ? who.bearer : (who as Credentials));
/** A REST call outside partner management (key manager, license key manager, sync data). */
const call = (who: Login | Credentials, method: string, path: string, body?: unknown) =>
  t.request(method, path, { body: body === undefined ? undefined : envelopeOf(body), headers: asCookie(who) });
/** A GraphQL call answered as REST answers, so that expectRejected checks its code and that nothing changed. */
const viaGraphql = async (who: Login | Credentials, query: string, variables: Record<string, unknown> = {}) => {
  const answer = await t.graphql(query, variables, asBearer(who));
  const refusal = refusalOf(answer);
  return {
    status: 200,
    json: refusal
      ? { response: null, errors: [{ errorCode: refusal.code, message: refusal.message }], responsetime: new Date().toISOString() }
      : { response: answer.data, errors: null },
  };
};

/** A partner's own key pair, and a self-signed certificate of it. */
function certificate(options: { bits?: number; from?: number; to?: number; name?: string } = {}) {
  const pair = generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const now = Date.now();
  return issueCertificate({
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    subject: { commonName: options.name ?? 'partner.example.org', organization: 'Scope test' },
    validFrom: new Date(now + (options.from ?? -DAY_MS)),
    validTo: new Date(now + (options.to ?? 365 * DAY_MS)),
    ca: false,
    selfPrivateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
}
const thumbprintOf = (pem: string) => createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
/** The thumbprints of a reference's certificates in force (not retired). */
const inForce = async (referenceId: string) =>
  (await t.platform.deps.prisma.keyStoreEntry.findMany({ where: { applicationId: 'PARTNER', referenceId, retiredAt: null } })).map((row) => row.thumbprint);

const OTHER_DOMAIN =
  'mutation($a: String!, $r: String, $c: String!) { uploadOtherDomainCertificate(input: { applicationId: $a, referenceId: $r, certificateData: $c }) { keyUploadResult { status } userErrors { field code message } } }';
const uploadByKeyManager = (who: Login | Credentials, referenceId: string, certificateData: string) =>
  call(who, 'POST', '/v1/keymanager/uploadOtherDomainCertificate', { applicationId: 'PARTNER', referenceId, certificateData });
const uploadByGraphql = (who: Login | Credentials, referenceId: string, certificateData: string) =>
  viaGraphql(who, OTHER_DOMAIN, { a: 'PARTNER', r: referenceId, c: certificateData });
const uploadByPms = (who: Login | Credentials, partnerId: string, certificateData: string) =>
  send(asCookie(who), 'POST', '/partners/certificate/upload', { partnerId, certificateData, partnerDomain: 'AUTH' });
const getCertificate = (who: Login | Credentials, referenceId?: string, applicationId = 'PARTNER') =>
  call(
    who,
    'GET',
    `/v1/keymanager/getCertificate?applicationId=${applicationId}${referenceId === undefined ? '' : `&referenceId=${encodeURIComponent(referenceId)}`}`,
  );
/** The response of a key manager call that must succeed (errors null). */
const answered = async (reply: Promise<{ json: any }>) => {
  const { json } = await reply;
  expect(json.errors, JSON.stringify(json.errors)).toBeNull();
  return json.response;
};
const CERTIFICATE = 'query($a: String!, $r: String) { certificate(applicationId: $a, referenceId: $r) { certificate } }';

type Who = 'managerA' | 'managerB' | 'managerNone' | 'partnerA' | 'partnerB' | 'keyMaker' | 'partnerAdmin';
const as = {} as Record<Who, Login>;
let admin: Credentials;
let ida: Credentials;
const life = { mispId: '', licenseKey: '', keyA: '', keyB: '', pemB: '' };
const validatePath = (partnerId: string, apiKey: string, licenseKey = life.licenseKey) =>
  `/pmpartners/validatePartnerMisp/partnerId/${partnerId}/partnerApiKey/${apiKey}/mispLicenseKey/${licenseKey}`;
const VALIDATE =
  'query($p: ID!, $k: String!, $l: String!) { validatePartnerMisp(partnerId: $p, partnerApiKey: $k, mispLicenseKey: $l) { policyId partnerId } }';

beforeAll(async () => {
  admin = cookieHeader(await t.adminToken());
  const prisma = t.platform.deps.prisma;
  const audit = { createdBy: 'seed', createdAt: t.clock.now() };
  const policies = { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] };
  for (const id of ['sk-group-a', 'sk-group-b']) await prisma.policyGroup.create({ data: { id, name: id, description: id, ...audit } });
  await prisma.policy.createMany({
    data: [
      { id: 'sk-pol-a', policyGroupId: 'sk-group-a', name: 'sk-pol-a', description: 'a', policies, ...audit },
      { id: 'sk-pol-b', policyGroupId: 'sk-group-b', name: 'sk-pol-b', description: 'b', policies, ...audit },
      { id: 'sk-pol-pct', policyGroupId: 'sk-group-a', name: 'sk 100% policy', description: 'percent', policies, ...audit },
    ],
  });
  as.managerA = await userLogin(t, 'sk-manager-a', ['PARTNERMANAGER']);
  as.managerB = await userLogin(t, 'sk-manager-b', ['PARTNERMANAGER']);
  as.managerNone = await userLogin(t, 'sk-manager-none', ['PARTNERMANAGER']);
  as.partnerA = await userLogin(t, 'sk-partner-a', ['PARTNER']);
  as.partnerB = await userLogin(t, 'sk-partner-b', ['PARTNER']);
  as.partnerAdmin = await userLogin(t, 'sk-partner-admin', ['PARTNER_ADMIN']);
  as.keyMaker = await userLogin(t, 'sk-key-maker', ['KEY_MAKER'], 'admin');
  await prisma.policyGroupManager.createMany({
    data: [
      { policyGroupId: 'sk-group-a', userId: 'sk-manager-a', ...audit },
      { policyGroupId: 'sk-group-b', userId: 'sk-manager-b', ...audit },
    ],
  });
  const registration = { contactNumber: '9876543210', emailId: 'bank@example.org', address: '1 Scope Street' };
  await ok(send(as.partnerA.cookie, 'POST', '/partners', { partnerId: 'SK-A', organizationName: 'Bank A', policyGroup: 'sk-group-a', ...registration }));
  await ok(send(as.partnerB.cookie, 'POST', '/partners', { partnerId: 'SK-B', organizationName: 'Bank B', policyGroup: 'sk-group-b', ...registration }));
  life.pemB = certificate({ name: 'bank-b.example.org' });
  await ok(uploadByPms(as.partnerB, 'SK-B', life.pemB));
  const requestA = await ok(send(as.partnerA.cookie, 'PATCH', '/partners/SK-A/partnerAPIKeyRequests', { policyName: 'sk-pol-a' }));
  life.keyA = (await ok(send(as.managerA.cookie, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${requestA.apiRequestId}`, { status: 'Approved' }))).partnerAPIKey;
  const requestB = await ok(send(as.partnerB.cookie, 'PATCH', '/partners/SK-B/partnerAPIKeyRequests', { policyName: 'sk-pol-b' }));
  life.keyB = (await ok(send(as.managerB.cookie, 'PATCH', `/pmpartners/PartnerAPIKeyRequests/${requestB.apiRequestId}`, { status: 'Approved' }))).partnerAPIKey;
  const misp = await ok(send(admin, 'POST', '/misps', { organizationName: 'Scope Telco', emailId: 'telco@example.org', address: 'Rabat' }));
  life.mispId = misp.mispID;
  life.licenseKey = (await ok(send(admin, 'PATCH', `/misps/${life.mispId}/status`, { mispStatus: 'Approved' }))).mispLicenseKey;
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
});

describe("a partner's certificate changes only through partner management's scope, or by a key store admin", () => {
  it("refuses another group's partner manager, and every other role, by the key manager's REST and GraphQL doors", async () => {
    const attacker = certificate({ name: 'attacker.example.org' });
    const managerClient = cookieHeader((await t.clientToken(['PARTNERMANAGER'], 'partnermanagement')).token);
    for (const who of [as.managerA, as.managerB, as.partnerAdmin, as.partnerA, as.partnerB, managerClient]) {
      await expectRejected(t, () => uploadByKeyManager(who, 'SK-B', attacker), 'KER-ATH-403');
      await expectRejected(t, () => uploadByGraphql(who, 'SK-B', attacker), 'KER-ATH-403');
    }
    // partner management's own door: another group's manager, another partner
    await expectRejected(t, () => uploadByPms(as.managerA, 'SK-B', attacker), 'KER-ATH-403');
    await expectRejected(t, () => uploadByPms(as.partnerA, 'SK-B', attacker), 'KER-ATH-403');
    expect(await inForce('SK-B')).toEqual([thumbprintOf(life.pemB)]);
    // Data encrypted towards the partner is still for the partner's key.
    const sealed = await call(admin, 'POST', '/v1/cryptomanager/encrypt', { applicationId: 'PARTNER', referenceId: 'SK-B', data: 'for bank B' });
    expect(Buffer.from(sealed.json.response.data, 'base64url').subarray(6, 38).toString('hex')).toBe(thumbprintOf(life.pemB));
  });

  it("keeps the partner's own upload when attackers race it through both doors", async () => {
    const mine = certificate({ name: 'bank-b-2.example.org' });
    const attackers = Array.from({ length: 3 }, (_, i) => certificate({ name: `race-${i}.example.org` }));
    const answers = await Promise.all([
      uploadByPms(as.partnerB, 'SK-B', mine),
      ...attackers.flatMap((pem) => [
        uploadByKeyManager(as.managerA, 'SK-B', pem),
        uploadByGraphql(as.managerA, 'SK-B', pem),
        uploadByPms(as.managerA, 'SK-B', pem),
      ]),
    ]);
    expect(answers[0].json.errors).toEqual([]);
    expect(answers.slice(1).map((answer) => answer.json.errors[0].errorCode)).toEqual(Array(9).fill('KER-ATH-403'));
    expect(await inForce('SK-B')).toEqual([thumbprintOf(mine)]);
    life.pemB = mine;
  });

  it("holds a key store admin's upload to the partner certificate manager's checks", async () => {
    await expectRejected(t, () => uploadByKeyManager(as.keyMaker, 'sk-abis', certificate({ bits: 1024 })), 'KER-PCM-013');
    await expectRejected(t, () => uploadByGraphql(as.keyMaker, 'sk-abis', certificate({ bits: 1024 })), 'KER-PCM-013');
    await expectRejected(t, () => uploadByKeyManager(as.keyMaker, 'sk-abis', certificate({ from: -30 * DAY_MS, to: -DAY_MS })), 'KER-PCM-004');
    await expectRejected(t, () => uploadByKeyManager(as.keyMaker, 'sk-abis', certificate({ from: DAY_MS })), 'KER-PCM-004');
    await expectRejected(t, () => uploadByKeyManager(as.keyMaker, 'sk-abis', 'not a certificate'), 'KER-KMS-013');
    // Another domain's certificate (an ABIS partner's) a key store admin keeps under PARTNER.
    const abis = certificate({ name: 'abis.example.org' });
    expect((await uploadByKeyManager(as.keyMaker, 'sk-abis', abis)).json.response.status).toBe('success');
    expect(await inForce('sk-abis')).toEqual([thumbprintOf(abis)]);
    expect((await getCertificate(as.keyMaker, 'sk-abis')).json.response.certificate).toBe(new X509Certificate(abis).toString());
  });

  it("lets no partner claim an id under which the key store keeps another domain's certificate", async () => {
    const squatter = await userLogin(t, 'sk-squatter', ['PARTNER']);
    const registration = {
      partnerId: 'sk-abis',
      organizationName: 'Squat',
      contactNumber: '9876543210',
      emailId: 's@example.org',
      address: 'x',
      policyGroup: 'sk-group-a',
    };
    await expectRejected(t, () => send(squatter.cookie, 'POST', '/partners', registration), 'PMS_COR_002');
    await expectRejected(t, () => uploadByPms(squatter, 'sk-abis', certificate()), 'PMS_PRT_005');
    expect(await inForce('sk-abis')).toHaveLength(1);
  });
});

describe("a partner's certificate is read, by any door, only by whom partner management lets reach the partner", () => {
  it('refuses another partner and another group through getCertificate, certificate and sync data, REST and GraphQL', async () => {
    const now = new Date().toISOString();
    for (const who of [as.partnerA, as.managerA, ida]) {
      await expectRejected(t, () => getCertificate(who, 'SK-B'), 'KER-ATH-403');
      await expectRejected(t, () => viaGraphql(who, CERTIFICATE, { a: 'PARTNER', r: 'SK-B' }), 'KER-ATH-403');
      await expectRejected(t, () => call(who, 'GET', `/v1/syncdata/publickey/PARTNER?referenceId=SK-B&timeStamp=${now}`), 'KER-ATH-403');
    }
    // Another domain's certificate, and a partner that does not exist, say no more than "not yours".
    await expectRejected(t, () => getCertificate(as.partnerA, 'sk-abis'), 'KER-ATH-403');
    await expectRejected(t, () => getCertificate(as.partnerA, 'NO-SUCH'), 'KER-ATH-403');
    // Partner management refuses the same callers.
    await expectRejected(t, () => send(as.partnerA.cookie, 'GET', '/partners/SK-B/certificate'), 'KER-ATH-403');
    await expectRejected(t, () => send(as.managerA.cookie, 'GET', '/partners/SK-B/certificate'), 'KER-ATH-403');
  });

  it('answers the partner, its group manager, partner admins and key store admins', async () => {
    const pem = new X509Certificate(life.pemB).toString();
    for (const who of [as.partnerB, as.managerB, as.partnerAdmin, as.keyMaker, admin]) {
      expect((await answered(getCertificate(who, 'SK-B'))).certificate).toBe(pem);
      expect((await t.graphql(CERTIFICATE, { a: 'PARTNER', r: 'SK-B' }, asBearer(who))).data.certificate.certificate).toBe(pem);
    }
    // The PARTNER application's own certificate (no partner) stays public to key readers.
    expect((await answered(getCertificate(as.partnerA))).certificate).toMatch(/BEGIN CERTIFICATE/);
  });

  it("shows neither the Partner's certificate nor the Certificate entity to another partner, on the key store's subgraph reached directly", async () => {
    const schema = await t.platform.buildSubgraph(keysComponent);
    const entities = async (who: Login) => {
      const result = await execute({
        schema,
        source: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Partner { id certificate { thumbprint } } ... on Certificate { thumbprint } } }',
        variableValues: {
          r: [
            { __typename: 'Partner', id: 'SK-B' },
            { __typename: 'Certificate', thumbprint: thumbprintOf(life.pemB) },
          ],
        },
        contextValue: createRequestContext({ headers: { cookie: who.cookie.cookie! }, clientAddress: '127.0.0.1' }, t.platform.deps.tokens),
      });
      expect(result.errors).toBeUndefined();
      return result.data!._entities;
    };
    expect(await entities(as.partnerA)).toEqual([{ id: 'SK-B', certificate: null }, null]);
    expect(await entities(as.managerA)).toEqual([{ id: 'SK-B', certificate: null }, null]);
    const thumbprint = thumbprintOf(life.pemB);
    expect(await entities(as.partnerB)).toEqual([{ id: 'SK-B', certificate: { thumbprint } }, { thumbprint }]);
    expect(await entities(as.managerB)).toEqual([{ id: 'SK-B', certificate: { thumbprint } }, { thumbprint }]);
    // Through the gateway, each manager's partners only.
    const portal = async (who: Login) =>
      (await t.graphql('{ partners { edges { node { id certificate { thumbprint } } } } }', {}, who.bearer)).data.partners.edges.map((edge: any) => edge.node);
    expect(await portal(as.managerA)).toEqual([{ id: 'SK-A', certificate: null }]);
    expect(await portal(as.managerB)).toEqual([{ id: 'SK-B', certificate: { thumbprint } }]);
  });
});

describe("MISP license keys are the MISP admins'", () => {
  it('refuses a partner manager to generate, map, switch or list them, by REST and GraphQL', async () => {
    const expiry = new Date(t.clock.now().getTime() + 30 * DAY_MS).toISOString();
    const LICENSE = '/v1/licensekeymanager/license';
    for (const who of [as.managerA, as.managerB]) {
      await expectRejected(t, () => call(who, 'POST', `${LICENSE}/generate`, { MISPId: life.mispId, licenseExpiryTime: expiry }), 'KER-ATH-403');
      await expectRejected(
        t,
        () =>
          viaGraphql(
            who,
            'mutation($m: String!, $e: DateTime!) { generateLicenseKey(input: { MISPId: $m, licenseExpiryTime: $e }) { licenseKey { licenseKey } userErrors { field code message } } }',
            {
              m: life.mispId,
              e: expiry,
            },
          ),
        'KER-ATH-403',
      );
      await expectRejected(t, () => call(who, 'PUT', `${LICENSE}/status`, { licenseKey: life.licenseKey, status: 'BLOCKED' }), 'KER-ATH-403');
      await expectRejected(
        t,
        () => call(who, 'POST', `${LICENSE}/permission`, { licenseKey: life.licenseKey, MISPId: life.mispId, permissions: ['eKYC'] }),
        'KER-ATH-403',
      );
      await expectRejected(t, () => viaGraphql(who, '{ licenseKeys { totalCount edges { node { keyHint } } } }'), 'KER-ATH-403');
      // The MISP desk refuses the same user.
      await expectRejected(t, () => send(who.cookie, 'PUT', `/misps/${life.mispId}/licenseKey`), 'KER-ATH-403');
    }
    // The MISP's key is untouched and still validates.
    expect((await ok(send(ida, 'GET', validatePath('SK-B', life.keyB)))).partnerId).toBe('SK-B');
  });

  it('lets a MISP admin issue and list them', async () => {
    const expiry = new Date(t.clock.now().getTime() + 30 * DAY_MS).toISOString();
    const issued = await call(as.partnerAdmin, 'POST', '/v1/licensekeymanager/license/generate', { MISPId: life.mispId, licenseExpiryTime: expiry });
    expect(issued.json.response.licenseKey).toMatch(/^[A-Za-z0-9]{16}$/);
    const listed = await t.graphql('query($m: String) { licenseKeys(filter: { MISPId: $m }) { totalCount } }', { m: life.mispId }, as.partnerAdmin.bearer);
    expect(listed.data.licenseKeys.totalCount).toBe(2);
  });
});

describe("validatePartnerMisp answers a partner manager only about its own groups' partners", () => {
  it("refuses another group's manager with PMS_PMP_009, also once ID authentication has the answer cached, by REST and GraphQL", async () => {
    // ID authentication's call caches the links: the cache must not answer the manager of another group.
    expect((await ok(send(ida, 'GET', validatePath('SK-B', life.keyB)))).policyId).toBe('sk-pol-b');
    const refusals = await Promise.all(Array.from({ length: 4 }, () => send(as.managerA.cookie, 'GET', validatePath('SK-B', life.keyB))));
    expect(refusals.map((answer) => answer.json.errors[0].errorCode)).toEqual(Array(4).fill('PMS_PMP_009'));
    await expectRejected(t, () => send(as.managerA.cookie, 'GET', validatePath('SK-B', life.keyB)), 'PMS_PMP_009');
    await expectRejected(t, () => viaGraphql(as.managerA, VALIDATE, { p: 'SK-B', k: life.keyB, l: life.licenseKey }), 'PMS_PMP_009');
    // Its own group's key on another group's partner, an unknown partner, a manager of no group, a partner, a client of another app.
    await expectRejected(t, () => send(as.managerA.cookie, 'GET', validatePath('SK-B', life.keyA)), 'PMS_PMP_009');
    await expectRejected(t, () => send(as.managerA.cookie, 'GET', validatePath('NO-SUCH', life.keyA)), 'PMS_PMP_005');
    await expectRejected(t, () => send(as.managerNone.cookie, 'GET', validatePath('SK-B', life.keyB)), 'PMS_PMP_001');
    await expectRejected(t, () => send(as.partnerA.cookie, 'GET', validatePath('SK-B', life.keyB)), 'KER-ATH-403');
    const managerClient = cookieHeader((await t.clientToken(['PARTNERMANAGER'], 'partnermanagement')).token);
    await expectRejected(t, () => send(managerClient, 'GET', validatePath('SK-B', life.keyB)), 'PMS_PMP_001');
  });

  it("answers ID authentication, admins and the managers of the partner's group", async () => {
    expect((await ok(send(as.managerB.cookie, 'GET', validatePath('SK-B', life.keyB)))).partnerId).toBe('SK-B');
    expect((await t.graphql(VALIDATE, { p: 'SK-B', k: life.keyB, l: life.licenseKey }, as.managerB.bearer)).data.validatePartnerMisp.policyId).toBe('sk-pol-b');
    expect((await ok(send(as.managerA.cookie, 'GET', validatePath('SK-A', life.keyA)))).partnerId).toBe('SK-A');
    expect((await ok(send(as.partnerAdmin.cookie, 'GET', validatePath('SK-B', life.keyB)))).partnerId).toBe('SK-B');
    expect((await ok(send(admin, 'GET', validatePath('SK-B', life.keyB)))).partnerId).toBe('SK-B');
  });
});

describe('partner management inputs', () => {
  const nul = 'x\u0000y';
  const createMisp = (over: Record<string, unknown>) =>
    send(admin, 'POST', '/misps', { organizationName: 'Nul Telco', emailId: 'n@example.org', address: 'Rabat', ...over });

  it('refuses NUL in MISP, partner and API key request fields with PMS_COR_002, by REST and GraphQL, changing nothing', async () => {
    for (const field of ['organizationName', 'address', 'emailId', 'contactNumber']) {
      await expectRejected(t, () => createMisp({ [field]: nul }), 'PMS_COR_002');
    }
    await expectRejected(
      t,
      () =>
        viaGraphql(
          admin,
          'mutation($n: String!) { createMisp(input: { organizationName: $n, emailId: "n@example.org", address: "Rabat" }) { misp { id } userErrors { field code message } } }',
          { n: nul },
        ),
      'PMS_COR_002',
    );
    await expectRejected(t, () => send(admin, 'PUT', `/misps/${life.mispId}`, { address: nul }), 'PMS_COR_002');
    await expectRejected(t, () => send(admin, 'GET', '/misps/name/x%00y'), 'PMS_COR_002');
    await expectRejected(t, () => send(admin, 'GET', '/misps/mispId/1%002'), 'PMS_COR_002');
    const newcomer = await userLogin(t, 'sk-newcomer', ['PARTNER']);
    const registration = {
      partnerId: 'SK-NEW',
      organizationName: 'New Bank',
      contactNumber: '9876543210',
      emailId: 'new@example.org',
      address: 'x',
      policyGroup: 'sk-group-a',
    };
    for (const field of ['partnerId', 'organizationName', 'address', 'policyGroup']) {
      await expectRejected(t, () => send(newcomer.cookie, 'POST', '/partners', { ...registration, [field]: nul }), 'PMS_COR_002');
    }
    await expectRejected(t, () => send(as.partnerA.cookie, 'PATCH', '/partners/SK-A/partnerAPIKeyRequests', { policyName: nul }), 'PMS_COR_002');
    await expectRejected(
      t,
      () => send(as.partnerA.cookie, 'PATCH', '/partners/SK-A/partnerAPIKeyRequests', { policyName: 'sk-pol-a', useCaseDescription: nul }),
      'PMS_COR_002',
    );
    await expectRejected(t, () => send(as.partnerA.cookie, 'GET', '/partners/SK%00A/certificate'), 'PMS_COR_002');
    await expectRejected(t, () => send(ida, 'GET', validatePath('SK%00B', life.keyB)), 'PMS_COR_002');
    for (const query of [
      '{ misps(filter: { nameContains: "x\\u0000y" }) { totalCount } }',
      '{ mispsByName(name: "x\\u0000y") { id } }',
      '{ partners(filter: { policyGroupId: "x\\u0000y" }) { totalCount } }',
      '{ apiKeyRequests(filter: { partnerId: "x\\u0000y" }) { totalCount } }',
      '{ policyGroups(filter: { nameContains: "x\\u0000y" }) { totalCount } }',
      '{ policyGroups(filter: { nameContains: "sk-group" }) { edges { node { policies(filter: { nameContains: "x\\u0000y" }) { totalCount } } } } }',
    ]) {
      await expectRejected(t, () => viaGraphql(admin, query), 'PMS_COR_002');
    }
    // The license key manager's list, which MISP admins read.
    await expectRejected(t, () => viaGraphql(admin, '{ licenseKeys(filter: { MISPId: "x\\u0000y" }) { totalCount } }'), 'KER-LKM-001');
    // A forged cursor that decodes to NUL is no cursor.
    expect(codeOf(await t.graphql('{ misps(after: "AA") { totalCount } }', {}, asBearer(admin)))).toBe('BAD_USER_INPUT');
  });

  it('matches LIKE wildcards and the escape character as themselves', async () => {
    const names = ['Percent 100% Telco', 'Under_score Telco', 'Back\\slash Telco', 'Plain Telcos'];
    for (const organizationName of names) await ok(send(admin, 'POST', '/misps', { organizationName, emailId: 'l@example.org', address: 'Rabat' }));
    const byName = async (text: string) =>
      ((await ok(send(admin, 'GET', `/misps/name/${encodeURIComponent(text)}`))) as any[])
        .map((misp) => misp.organizationName)
        .filter((name) => names.includes(name));
    expect(await byName('%')).toEqual(['Percent 100% Telco']);
    expect(await byName('_')).toEqual(['Under_score Telco']);
    expect(await byName('\\')).toEqual(['Back\\slash Telco']);
    expect(await byName('telco')).toHaveLength(4);
    const listed = await t.graphql(
      'query($n: String) { misps(filter: { nameContains: $n }) { edges { node { organizationName } } } }',
      { n: '%' },
      asBearer(admin),
    );
    expect(listed.data.misps.edges.map((edge: any) => edge.node.organizationName)).toEqual(['Percent 100% Telco']);
    const policies = await t.graphql('{ policies(filter: { nameContains: "%" }) { edges { node { name } } } }', {}, asBearer(admin));
    expect(policies.data.policies.edges.map((edge: any) => edge.node.name)).toEqual(['sk 100% policy']);
    const groups = await t.graphql('{ policyGroups(filter: { nameContains: "_" }) { totalCount } }', {}, asBearer(admin));
    expect(groups.data.policyGroups.totalCount).toBe(0);
  });
});

describe('MISP names', () => {
  const create = (organizationName: string) => send(admin, 'POST', '/misps', { organizationName, emailId: 'acme@example.org', address: 'Rabat' });

  it('are one name whatever their case, width, spacing or invisible characters', async () => {
    await ok(create('Acme Telco'));
    for (const name of [
      'acme telco',
      'ACME TELCO',
      '  Acme   Telco ',
      'Acme \u200BTelco',
      'Acme\u00A0Telco',
      'Acme\u3000Telco',
      '\uFF21cme Telco',
      '\uFEFFAcme Telco\u2060',
    ]) {
      await expectRejected(t, () => create(name), 'PMS_MSP_003');
    }
    await expectRejected(
      t,
      () =>
        viaGraphql(
          admin,
          'mutation { createMisp(input: { organizationName: "aCmE\\u200d tElCo", emailId: "a@example.org", address: "Rabat" }) { misp { id } userErrors { field code message } } }',
        ),
      'PMS_MSP_003',
    );
    await ok(create('Straße Mobile'));
    await expectRejected(t, () => create('STRASSE MOBILE'), 'PMS_MSP_003');
    // Renaming another MISP to it.
    const other = await ok(create('Other Acme'));
    await expectRejected(t, () => send(admin, 'PUT', `/misps/${other.mispID}`, { organizationName: 'ACME  telco' }), 'PMS_MSP_003');
    // Renaming a MISP to its own name in another case is no clash.
    expect((await ok(send(admin, 'PUT', `/misps/${other.mispID}`, { organizationName: 'OTHER ACME' }))).organizationName).toBe('OTHER ACME');
    // Nothing visible is no name.
    await expectRejected(t, () => create('\u200B\u200C\uFEFF'), 'PMS_COR_002');
  });

  it('are kept as shown: NFKC, no invisible characters, one space', async () => {
    const { mispID } = await ok(create('  \uFF3Aeta\u200B \u00A0Mobile\uFEFF '));
    expect((await ok(send(admin, 'GET', `/misps/mispId/${mispID}`))).organizationName).toBe('Zeta Mobile');
    expect((await ok(send(admin, 'GET', `/misps/name/${encodeURIComponent('zeta\u200B  mobile')}`))).map((misp: any) => misp.id)).toEqual([mispID]);
  });

  it('let one of parallel registrations of look-alike names through', async () => {
    const variants = ['Race Mobile', 'race mobile', 'RACE  MOBILE', 'Race\u200B Mobile', '\uFF32ace Mobile', 'race\u00A0mobile'];
    const answers = await Promise.all(variants.map((name) => create(name)));
    const codes = answers.map((answer) => answer.json.errors[0]?.errorCode ?? 'ok').sort();
    expect(codes).toEqual(['PMS_MSP_003', 'PMS_MSP_003', 'PMS_MSP_003', 'PMS_MSP_003', 'PMS_MSP_003', 'ok']);
    expect(await t.platform.deps.prisma.misp.count({ where: { nameKey: 'race mobile' } })).toBe(1);
  });
});
