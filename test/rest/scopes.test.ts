// Every caller acts in its own scope: an OTP belongs to whoever generated it, an
// application's keys to the roles the key policy grants, a machine's key to
// whoever may re-map it. Each case is an attack a stranger would try.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { cookieHeader, envelopeOf, startTestPlatform, tokenOfCookie, type TestPlatform } from '../support/platform.js';
import { refusalOf } from '../support/refusals.js';

let t: TestPlatform;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await startTestPlatform();
  admin = cookieHeader(await t.adminToken());
});
afterAll(async () => {
  await t?.close();
});

/** A self-registered applicant: pre-registration OTP login, which anyone can do, gives role INDIVIDUAL. */
async function individual(email: string): Promise<Record<string, string>> {
  await t.request('POST', '/v1/authmanager/authenticate/sendotp', {
    body: envelopeOf({ userId: email, otpChannel: ['email'], useridtype: 'USERID', appId: 'preregistration' }),
  });
  const outbox = await t.graphql('query($to: String) { outbox(to: $to, limit: 1) { body } }', { to: email }, admin);
  const otp = /\b(\d{6})\b/.exec(outbox.data.outbox[0].body)?.[1];
  const login = await t.request('POST', '/v1/authmanager/authenticate/useridOTP', { body: envelopeOf({ userId: email, otp, appId: 'preregistration' }) });
  return cookieHeader(tokenOfCookie(login.headers.get('set-cookie') ?? ''));
}

const generate = (caller: Record<string, string>, key: string) =>
  t.request('POST', '/v1/otpmanager/otp/generate', { body: envelopeOf({ key }), headers: caller });
const validate = (caller: Record<string, string>, key: string, otp: string) =>
  t.request('GET', `/v1/otpmanager/otp/validate?key=${encodeURIComponent(key)}&otp=${otp}`, { headers: caller });

describe('OTPs belong to the caller that generated them', () => {
  it('keeps self-registered users (INDIVIDUAL) away from the OTP manager: KER-ATH-403 on REST and GraphQL', async () => {
    const stranger = await individual('stranger@example.org');
    await expectRejected(t, () => generate(stranger, 'resident-42'), 'KER-ATH-403');
    await expectRejected(t, () => validate(stranger, 'resident-42', '123456'), 'KER-ATH-403');
    const viaGraphql = await t.graphql(
      'mutation { generateOtp(input: { key: "resident-42" }) { otpGeneration { otp } userErrors { field code message } } }',
      {},
      stranger,
    );
    expect(refusalOf(viaGraphql)!.code).toBe('KER-ATH-403');
  });

  it("does not let another caller replace or validate a service's OTP; the service's own OTP still validates", async () => {
    const service = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'])).token);
    const other = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'])).token);
    const mine = (await generate(service, 'resident-43')).json.response.otp as string;
    // The other caller generates for the same key: its own OTP, in its own scope.
    const theirs = (await generate(other, 'resident-43')).json.response.otp as string;
    // ...and cannot use the service's OTP, which it may have seen in transit.
    if (mine !== theirs) expect((await validate(other, 'resident-43', mine)).json.response).toEqual({ status: 'failure', message: 'VALIDATION_UNSUCCESSFUL' });
    expect((await validate(service, 'resident-43', mine)).json.response).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
    expect((await validate(other, 'resident-43', theirs)).json.response).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
  });

  it('scopes GraphQL callers the same way', async () => {
    const service = cookieHeader((await t.clientToken(['PRE_REGISTRATION_ADMIN'], 'preregistration')).token);
    const other = cookieHeader((await t.clientToken(['PRE_REGISTRATION_ADMIN'], 'preregistration')).token);
    const generated = await t.graphql(
      'mutation { generateOtp(input: { key: "applicant-7" }) { otpGeneration { otp status } userErrors { field code message } } }',
      {},
      service,
    );
    const otp = generated.data.generateOtp.otpGeneration.otp as string;
    await t.graphql('mutation { generateOtp(input: { key: "applicant-7" }) { otpGeneration { otp } userErrors { field code message } } }', {}, other);
    const byOther = await t.graphql(
      'mutation($otp: String!) { validateOtp(input: { key: "applicant-7", otp: $otp }) { otpValidation { status message } userErrors { field code message } } }',
      { otp },
      other,
    );
    expect(byOther.data.validateOtp.otpValidation.status).toBe('failure');
    const byService = await t.graphql(
      'mutation($otp: String!) { validateOtp(input: { key: "applicant-7", otp: $otp }) { otpValidation { status message } userErrors { field code message } } }',
      { otp },
      service,
    );
    expect(byService.data.validateOtp.otpValidation).toEqual({ status: 'success', message: 'VALIDATION_SUCCESSFUL' });
  });
});

const encrypt = (caller: Record<string, string>, applicationId: string, data: string) =>
  t.request('POST', '/v1/cryptomanager/encrypt', { body: envelopeOf({ applicationId, data }), headers: caller });
const decrypt = (caller: Record<string, string>, applicationId: string, data: string) =>
  t.request('POST', '/v1/cryptomanager/decrypt', { body: envelopeOf({ applicationId, data }), headers: caller });

describe("an application's keys serve only the roles its key policy grants", () => {
  it("refuses a RESIDENT (and any other stranger) ID_REPO's data with KER-ATH-403, on REST and GraphQL", async () => {
    const idRepository = cookieHeader((await t.clientToken(['ID_REPOSITORY'])).token);
    const sealed = (await encrypt(idRepository, 'ID_REPO', 'identity of a resident')).json.response.data as string;
    expect((await decrypt(idRepository, 'ID_REPO', sealed)).json.response.data).toBe('identity of a resident');

    const resident = cookieHeader((await t.clientToken(['RESIDENT'], 'resident')).token);
    const idAuthentication = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'])).token);
    for (const stranger of [resident, idAuthentication]) {
      await expectRejected(t, () => decrypt(stranger, 'ID_REPO', sealed), 'KER-ATH-403');
      await expectRejected(t, () => encrypt(stranger, 'ID_REPO', 'planted'), 'KER-ATH-403');
      const viaGraphql = await t.graphql(
        'mutation($data: String!) { decrypt(input: { applicationId: "ID_REPO", data: $data }) { cryptoResult { data } userErrors { field code message } } }',
        { data: sealed },
        stranger,
      );
      expect(refusalOf(viaGraphql)!.code).toBe('KER-ATH-403');
      expect(viaGraphql.data).toBeNull();
    }
    // the resident service's keys serve no self-registered resident either
    await expectRejected(t, () => encrypt(resident, 'RESIDENT', 'x'), 'KER-ATH-403');
  });

  it("never lets a caller use the platform's own keys (PLATFORM), not even the admin", async () => {
    await expectRejected(t, () => encrypt(admin, 'PLATFORM', 'x'), 'KER-ATH-403');
    const sealedNotification = (await t.platform.deps.prisma.notification.findFirst({ where: { content: { not: null } } }))?.content;
    expect(sealedNotification).toBeTruthy();
    await expectRejected(t, () => decrypt(admin, 'PLATFORM', sealedNotification!), 'KER-ATH-403');
  });

  it('signs with KERNEL/SIGN only: a signature from `sign` is not a Response-Signature', async () => {
    const signed = await t.request('POST', '/v1/signature/sign', { body: envelopeOf({ data: 'hello' }), headers: admin });
    const jwsHeader = JSON.parse(Buffer.from(signed.json.response.signature.split('.')[0], 'base64url').toString('utf8'));
    const responseHeader = JSON.parse(Buffer.from(signed.headers.get('response-signature')!.split('.')[0]!, 'base64url').toString('utf8'));
    expect(jwsHeader.kid).not.toBe(responseHeader.kid);
    const responseKey = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=PLATFORM&referenceId=RESPONSE_SIGN', { headers: admin })).json
      .response;
    const signKey = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=KERNEL&referenceId=SIGN', { headers: admin })).json.response;
    expect(responseKey.certificate).not.toBe(signKey.certificate);
    expect(Buffer.from(responseHeader.x5c[0], 'base64').toString('base64')).toBe(pemBody(responseKey.certificate));
    expect(Buffer.from(jwsHeader.x5c[0], 'base64').toString('base64')).toBe(pemBody(signKey.certificate));
  });
});

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

describe('TPM machine keys', () => {
  const publicKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const upload = (caller: Record<string, string>, machineName: string, key: string) =>
    t.request('POST', '/v1/syncdata/tpm/publickey', { body: envelopeOf({ machineName, publicKey: key }), headers: caller });

  it("lets an officer map a new machine, but not re-map another machine's key: that takes an admin, and is recorded", async () => {
    const officer = await t.clientToken(['REGISTRATION_OFFICER'], 'registrationclient');
    const officerCookie = cookieHeader(officer.token);
    const registrationAdmin = await t.clientToken(['REGISTRATION_ADMIN'], 'registrationclient');
    // Machine 77 stands at the officer's centre, in the registration admin's zone (master data's rule: issue 19).
    const prisma = t.platform.deps.prisma;
    const audit = { createdBy: 'test', createdAt: new Date(), changedAt: new Date() };
    await prisma.zone.create({ data: { code: 'Z77', langCode: 'eng', name: 'Zone 77', hierarchyLevel: 0, hierarchyName: 'Zone', path: 'Z77', ...audit } });
    await prisma.zoneUser.create({ data: { userId: registrationAdmin.clientId, zoneCode: 'Z77', ...audit } });
    const centre = { centerTypeCode: 'REG', locationCode: 'L77', holidayLocationCode: 'L77', zoneCode: 'Z77' };
    await prisma.registrationCenter.create({ data: { id: 'C77', langCode: 'eng', name: 'Centre 77', ...centre, ...audit } });
    await prisma.registrationCenterUser.create({ data: { regCenterId: 'C77', userId: officer.clientId, ...audit } });
    await prisma.machine.create({ data: { id: 'M77', langCode: 'eng', name: 'machine-77', regCenterId: 'C77', zoneCode: 'Z77', ...audit } });
    const first = publicKey();
    expect((await upload(officerCookie, 'machine-77', first)).json.errors).toBeNull();
    // the same key again is no change
    expect((await upload(officerCookie, 'machine-77', first)).json.errors).toBeNull();
    await expectRejected(t, () => upload(officerCookie, 'machine-77', publicKey()), 'KER-ATH-403');
    const viaGraphql = await t.graphql(
      'mutation($key: String!) { uploadMachinePublicKey(input: { machineName: "machine-77", publicKey: $key }) { machineKey { keyIndex } userErrors { field code message } } }',
      { key: publicKey() },
      officerCookie,
    );
    expect(refusalOf(viaGraphql)!.code).toBe('KER-ATH-403');

    const replacement = publicKey();
    expect((await upload(cookieHeader(registrationAdmin.token), 'machine-77', replacement)).json.errors).toBeNull();
    const row = await t.platform.deps.prisma.machinePublicKey.findUnique({ where: { machineName: 'machine-77' } });
    expect(row).toMatchObject({ createdBy: officer.clientId, updatedBy: registrationAdmin.clientId, publicKey: replacement });
    expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(row!.createdAt.getTime());
  });
});
