import { describe, expect, it } from 'vitest';
import { bearer, type TestPlatform } from '../support/platform.js';
import { applicant, applicantIdentity, createApplication, preregCall, preregPlatform } from '../support/prereg.js';

let t: TestPlatform;
let amina: Record<string, string>;
let bilal: Record<string, string>;
preregPlatform((suite) => ({ t, amina, bilal } = suite));

const codeOf = (answer: { json: { errors?: { errorCode: string }[] | null } }) => answer.json.errors?.[0]?.errorCode;

describe('applications', () => {
  it('creates, reads, lists, updates and deletes the applicant’s own application', async () => {
    const created = await createApplication(t, amina);
    expect(created.json.errors).toBeNull();
    const { preRegistrationId } = created.json.response;
    expect(preRegistrationId).toMatch(/^[2-9]\d{13}$/);
    expect(created.json.response).toMatchObject({ statusCode: 'Pending_Appointment', langCode: 'eng', demographicDetails: { identity: applicantIdentity() } });

    const read = await preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: amina });
    expect(read.json.response.demographicDetails.identity).toEqual(applicantIdentity());
    const status = await preregCall(t, 'GET', `/applications/prereg/status/${preRegistrationId}`, { headers: amina });
    expect(status.json.response).toEqual({ preRegistartionId: preRegistrationId, statusCode: 'Pending_Appointment' });
    const list = await preregCall(t, 'GET', '/applications/prereg?pageIndex=0', { headers: amina });
    expect(list.json.response).toMatchObject({ totalRecords: '1', noOfRecords: '1', pageIndex: '0' });

    const updated = await preregCall(t, 'PUT', `/applications/prereg/${preRegistrationId}`, {
      id: 'demographic.update',
      request: { langCode: 'eng', demographicDetails: { identity: applicantIdentity({ postalCode: '14001' }) } },
      headers: amina,
    });
    expect(updated.json.response.demographicDetails.identity.postalCode).toBe('14001');

    // Another applicant reaches nothing of it.
    for (const call of [
      preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: bilal }),
      preregCall(t, 'GET', `/applications/prereg/status/${preRegistrationId}`, { headers: bilal }),
      preregCall(t, 'DELETE', `/applications/prereg/${preRegistrationId}`, { headers: bilal }),
    ])
      expect(codeOf(await call)).toBe('PRG_PAM_APP_017');
    const viaGraphql = await t.graphql('query($id: String!) { preRegistration(preRegistrationId: $id) { statusCode } }', { id: preRegistrationId }, bilal);
    expect(viaGraphql.errors[0].extensions.code).toBe('PRG_PAM_APP_017');

    const deleted = await preregCall(t, 'DELETE', `/applications/prereg/${preRegistrationId}`, { headers: amina });
    expect(deleted.json.response.preRegistrationId).toBe(preRegistrationId);
    expect(codeOf(await preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: amina }))).toBe('PRG_PAM_APP_005');
  });

  it('refuses a missing or invalid identity field and an unknown language, changing nothing', async () => {
    const before = await t.snapshot();
    const { fullName: _omitted, ...withoutName } = applicantIdentity();
    expect(codeOf(await createApplication(t, amina, withoutName))).toBe('KER-IOV-005');
    expect(codeOf(await createApplication(t, amina, applicantIdentity({ postalCode: '1' })))).toBe('KER-IOV-004');
    expect(codeOf(await createApplication(t, amina, applicantIdentity({ email: 'not-an-email' })))).toBe('KER-IOV-004');
    expect(codeOf(await createApplication(t, amina, applicantIdentity(), 'xyz'))).toBe('PRG_CORE_REQ_014');
    expect(await t.snapshot()).toEqual(before);
  });

  it('keeps registration staff out and lets pre-registration administrators read only', async () => {
    const created = await createApplication(t, amina);
    const { preRegistrationId } = created.json.response;
    const officer = bearer((await t.clientToken(['REGISTRATION_OFFICER'])).token);
    const preregAdmin = bearer((await t.clientToken(['PRE_REGISTRATION_ADMIN'])).token);
    expect(codeOf(await preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: officer }))).toBe('KER-ATH-403');
    const read = await preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: preregAdmin });
    expect(read.json.response.statusCode).toBe('Pending_Appointment');
    expect(codeOf(await createApplication(t, preregAdmin))).toBe('KER-ATH-403');
    expect(codeOf(await preregCall(t, 'DELETE', `/applications/prereg/${preRegistrationId}`, { headers: preregAdmin }))).toBe('KER-ATH-403');
  });
});

describe('the other application codes', () => {
  it('answers PRG_PAM_APP_016 for a page that is not a number, PRG_PAM_APP_005 for none, PRG_PAM_APP_003 deleting an expired one', async () => {
    const carol = await applicant(t, 'carol@example.org');
    expect(codeOf(await preregCall(t, 'GET', '/applications/prereg?pageIndex=first', { headers: carol }))).toBe('PRG_PAM_APP_016');
    expect(codeOf(await preregCall(t, 'GET', '/applications/prereg?pageIndex=0', { headers: carol }))).toBe('PRG_PAM_APP_005');
    const { preRegistrationId } = (await createApplication(t, carol)).json.response;
    // As the expiry job leaves an application whose appointment's day has passed.
    await t.platform.database.prisma.preRegApplication.update({ where: { id: preRegistrationId }, data: { statusCode: 'Expired' } });
    const before = await t.snapshot();
    expect(codeOf(await preregCall(t, 'DELETE', `/applications/prereg/${preRegistrationId}`, { headers: carol }))).toBe('PRG_PAM_APP_003');
    expect(await t.snapshot()).toEqual(before);
  });

  it('answers PRG_PAM_CORE_010 for an identity whose stored HMAC does not match, by REST and GraphQL', async () => {
    const { preRegistrationId } = (await createApplication(t, amina)).json.response;
    const { prisma } = t.platform.database;
    const row = await prisma.preRegApplication.findUniqueOrThrow({ where: { id: preRegistrationId } });
    const other = row.demographicHash.replace(/^./, (first) => (first === '0' ? '1' : '0'));
    await prisma.preRegApplication.update({ where: { id: preRegistrationId }, data: { demographicHash: other } });
    expect(codeOf(await preregCall(t, 'GET', `/applications/prereg/${preRegistrationId}`, { headers: amina }))).toBe('PRG_PAM_CORE_010');
    const graph = await t.graphql('query($id: String!) { preRegistration(preRegistrationId: $id) { demographicDetails } }', { id: preRegistrationId }, amina);
    expect(graph.errors[0].extensions.code).toBe('PRG_PAM_CORE_010');
  });
});
