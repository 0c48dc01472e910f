import { beforeAll, describe, expect, it } from 'vitest';
import { expectRejected } from '../support/assertions.js';
import { idrepoCalls, newRid } from '../support/identities.js';
import { cookieHeader, type TestPlatform, useTestPlatform } from '../support/platform.js';

/**
 * The sample country's ID schema holds the spec's whole identity (Document 1,
 * "Identity (ID repository)") and what pre-registration's demographic form
 * sends, with the global configuration's patterns as its validators.
 */
let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

type Credentials = Record<string, string>;
const { send, ok, newUin } = idrepoCalls(() => t);

let processor: Credentials;
let ida: Credentials;
beforeAll(async () => {
  processor = cookieHeader((await t.clientToken(['REGISTRATION_PROCESSOR'], 'registrationprocessor')).token);
  ida = cookieHeader((await t.clientToken(['ID_AUTHENTICATION'], 'ida')).token);
});

/** A multilingual value in the sample country's three languages. */
const inAll = (eng: string, fra: string, ara: string) => [
  { language: 'eng', value: eng },
  { language: 'fra', value: fra },
  { language: 'ara', value: ara },
];

/** Every attribute of the spec's identity record, and pre-registration's residenceStatus, zone and referenceIdentityNumber. */
function fullIdentityOf(uin: string, guardianRid: string) {
  return {
    IDSchemaVersion: 1,
    UIN: uin,
    fullName: inAll('Amina Ben Salah', 'Amina Ben Salah', 'أمينة بن صالح'),
    dateOfBirth: '1988/11/23',
    age: 37,
    gender: inAll('Female', 'Féminin', 'أنثى'),
    residenceStatus: inAll('Non-Foreigner', 'Non-étranger', 'غير أجنبي'),
    addressLine1: inAll('14 Olive Tree Street', '14 rue de l’Olivier', '14 شارع شجرة الزيتون'),
    addressLine2: inAll('Building C', 'Immeuble C', 'العمارة ج'),
    addressLine3: inAll('Ben Mansour', 'Ben Mansour', 'بن منصور'),
    region: inAll('Rabat Sale Kenitra', 'Rabat Salé Kénitra', 'الرباط سلا القنيطرة'),
    province: inAll('Kenitra', 'Kénitra', 'القنيطرة'),
    city: inAll('Kenitra', 'Kénitra', 'القنيطرة'),
    zone: inAll('Ben Mansour', 'Ben Mansour', 'بن منصور'),
    postalCode: '14000',
    phone: '9876543210',
    email: 'amina.bensalah@example.org',
    referenceIdentityNumber: '1234567890123',
    parentOrGuardianRIDOrUIN: guardianRid,
    parentOrGuardianName: inAll('Youssef Ben Salah', 'Youssef Ben Salah', 'يوسف بن صالح'),
    proofOfAddress: { format: 'pdf', type: 'RNC', value: 'proofOfAddress' },
    proofOfIdentity: { format: 'pdf', type: 'PAS', value: 'proofOfIdentity' },
    proofOfRelationship: { format: 'pdf', type: 'CRN', value: 'proofOfRelationship' },
    proofOfDateOfBirth: { format: 'pdf', type: 'CRN', value: 'proofOfDateOfBirth' },
    individualBiometrics: { format: 'cbeff', version: 1.0, value: 'individualBiometrics' },
    parentOrGuardianBiometrics: { format: 'cbeff', version: 1.0, value: 'parentOrGuardianBiometrics' },
  };
}

/** The attributes of spec Document 1's identity record, and those pre-registration's demographic form adds (Document 3). */
const SPEC_ATTRIBUTES = [
  'IDSchemaVersion',
  'UIN',
  'fullName',
  'dateOfBirth',
  'age',
  'gender',
  'addressLine1',
  'addressLine2',
  'addressLine3',
  'region',
  'province',
  'city',
  'postalCode',
  'phone',
  'email',
  'parentOrGuardianRIDOrUIN',
  'parentOrGuardianName',
  'proofOfAddress',
  'proofOfIdentity',
  'proofOfRelationship',
  'proofOfDateOfBirth',
  'individualBiometrics',
  'parentOrGuardianBiometrics',
];
const PRE_REGISTRATION_ATTRIBUTES = ['residenceStatus', 'zone', 'referenceIdentityNumber'];

/** A file of each document and biometric category, base64, distinct content. */
const fileOf = (category: string) => Buffer.from(`%PDF-1.4 ${category} of the sample resident`).toString('base64');
const DOCUMENT_CATEGORIES = ['proofOfAddress', 'proofOfIdentity', 'proofOfRelationship', 'proofOfDateOfBirth'];
const BIOMETRIC_CATEGORIES = ['individualBiometrics', 'parentOrGuardianBiometrics'];
const byCategory = (categories: string[]) =>
  categories.map((category) => ({ category, value: fileOf(category) })).sort((a, b) => a.category.localeCompare(b.category));

const createWith = (identity: Record<string, unknown>, documents: { category: string; value: string }[] = []) => {
  const rid = newRid();
  return { rid, call: send(processor, 'POST', '/', { registrationId: rid, biometricReferenceId: `bio-${rid}`, identity, documents }) };
};

describe('the sample country’s ID schema', () => {
  it('declares every attribute of the spec’s identity and of pre-registration’s form, phone/email/postalCode/age/referenceIdentityNumber with the global patterns', async () => {
    const { json: latest } = await t.request('GET', '/v1/masterdata/idschema/latest', { headers: admin });
    expect(latest.errors).toBeNull();
    const fields = new Map<string, any>(latest.response.schema.map((field: any) => [field.id, field]));
    expect([...fields.keys()]).toEqual(expect.arrayContaining([...SPEC_ATTRIBUTES, ...PRE_REGISTRATION_ATTRIBUTES]));

    const { json: configs } = await t.request('GET', '/v1/syncdata/configs', { headers: admin });
    expect(configs.errors).toBeNull();
    const global = configs.response.globalConfiguration as Record<string, string>;
    for (const attribute of ['phone', 'email', 'postalCode', 'age', 'referenceIdentityNumber']) {
      const pattern = global[`platform.id.validation.identity.${attribute}`];
      expect(pattern, attribute).toEqual(expect.any(String));
      expect(fields.get(attribute).validators, attribute).toEqual([{ type: 'regex', validator: pattern, arguments: [] }]);
    }
    // What MOSIP 1.2 requires of every identity; a minor's guardian fields are not among them.
    const required = [...fields.values()].filter((field) => field.required).map((field) => field.id);
    expect(required.sort()).toEqual(
      ['IDSchemaVersion', 'fullName', 'dateOfBirth', 'gender', 'addressLine1', 'region', 'province', 'city', 'postalCode', 'individualBiometrics'].sort(),
    );
    const schemaJson = JSON.parse(latest.response.schemaJson);
    expect(schemaJson.properties.identity.required.filter((id: string) => id === 'IDSchemaVersion')).toHaveLength(1);
    expect(schemaJson.properties.identity.properties.age).toMatchObject({ type: 'number', minimum: 0, maximum: 150 });
  });

  it('stores the spec’s full sample identity with its four documents and both biometrics, and reads every part back by RID and by UIN', async () => {
    const uin = newUin();
    const identity = fullIdentityOf(uin, newRid());
    const { rid, call } = createWith(
      identity,
      [...DOCUMENT_CATEGORIES, ...BIOMETRIC_CATEGORIES].map((category) => ({ category, value: fileOf(category) })),
    );
    expect(await ok(call)).toMatchObject({ status: 'ACTIVATED' });

    const everything = byCategory([...DOCUMENT_CATEGORIES, ...BIOMETRIC_CATEGORIES]);
    const byRid = await ok(send(ida, 'GET', `/rid/${rid}?type=all`));
    expect(byRid.status).toBe('ACTIVATED');
    expect(byRid.identity).toEqual(identity);
    for (const attribute of [...SPEC_ATTRIBUTES, ...PRE_REGISTRATION_ATTRIBUTES]) expect(byRid.identity[attribute], attribute).toBeDefined();
    expect(byRid.documents).toEqual(everything);
    expect(byRid.identity.fullName.map((value: { language: string }) => value.language)).toEqual(['eng', 'fra', 'ara']);

    const byUin = await ok(send(ida, 'GET', `/uin/${uin}?type=all`));
    expect(byUin.identity).toEqual(identity);
    expect(byUin.documents).toEqual(everything);
    expect((await ok(send(ida, 'GET', `/uin/${uin}?type=bio`))).documents).toEqual(byCategory(BIOMETRIC_CATEGORIES));
    expect((await ok(send(ida, 'GET', `/uin/${uin}?type=demo`))).documents).toEqual(byCategory(DOCUMENT_CATEGORIES));
  });

  it('refuses a phone, email, postal code, age or reference number off the configured patterns (IDR-IDS-005), changing nothing', async () => {
    const refused = async (over: Record<string, unknown>, field: string) => {
      const identity = { ...fullIdentityOf(newUin(), newRid()), ...over };
      await expectRejected(t, () => createWith(identity).call, 'IDR-IDS-005', new RegExp(field));
    };
    await refused({ phone: '12345' }, 'phone');
    await refused({ phone: '+212612345678' }, 'phone');
    await refused({ email: 'not-an-address' }, 'email');
    await refused({ postalCode: '1400' }, 'postalCode');
    await refused({ age: 151 }, 'age');
    await refused({ age: 12.5 }, 'age');
    await refused({ age: '37' }, 'age');
    await refused({ referenceIdentityNumber: '12345' }, 'referenceIdentityNumber');
    await refused({ dateOfBirth: '1988/13/23' }, 'dateOfBirth');
    await refused({ parentOrGuardianRIDOrUIN: '12345' }, 'parentOrGuardianRIDOrUIN');
    await refused({ IDSchemaVersion: undefined }, 'IDSchemaVersion');
    // The configuration's postal code pattern takes letters (no (?i) in JavaScript), and NA.
    const uin = newUin();
    await ok(createWith({ ...fullIdentityOf(uin, newRid()), postalCode: 'NA' }).call);
    await ok(createWith({ ...fullIdentityOf(newUin(), newRid()), postalCode: 'kT14a' }).call);
  });

  it('accepts a minor without guardian fields, and the spec’s identity without pre-registration’s extra attributes', async () => {
    const {
      parentOrGuardianName: _name,
      parentOrGuardianRIDOrUIN: _rid,
      parentOrGuardianBiometrics: _bio,
      proofOfRelationship: _relationship,
      ...rest
    } = fullIdentityOf(newUin(), newRid());
    const minor = { ...rest, fullName: inAll('Salma Ben Salah', 'Salma Ben Salah', 'سلمى بن صالح'), dateOfBirth: '2019/03/02', age: 7 };
    const { rid, call } = createWith(minor, [{ category: 'individualBiometrics', value: fileOf('individualBiometrics') }]);
    expect(await ok(call)).toMatchObject({ status: 'ACTIVATED' });
    expect((await ok(send(ida, 'GET', `/rid/${rid}`))).identity).toEqual(minor);

    const { residenceStatus: _status, zone: _zone, referenceIdentityNumber: _reference, ...specOnly } = fullIdentityOf(newUin(), newRid());
    await ok(createWith(specOnly).call);
  });
});
