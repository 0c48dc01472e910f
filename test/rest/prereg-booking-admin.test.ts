// The admins' view of a centre's appointments: pre-registration's administrators, each within the
// centres master data says they reach. Zones: MOR (the bootstrap admin's) ── RSK ── KTA (centre 10001)
//                                             └── Z_1 (z1-prereg's; centre Z1C)
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, envelopeOf, type TestPlatform, useTestPlatform } from '../support/platform.js';
import { applicant } from '../support/prereg.js';
import { book, centreBody, codeOf, freeSlots, newApplication, SAMPLE_CENTRE, writeCentre } from '../support/prereg-booking.js';
import { refusalCode } from '../support/refusals.js';
import { userLogin } from '../support/users.js';

let t: TestPlatform;
let admin: Record<string, string>;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

const LIST = `query($centre: String!, $date: Date, $first: Int, $after: String) {
  preRegistrationBookings(registrationCenterId: $centre, date: $date, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { preRegistrationId registrationCenterId appointmentDate timeSlotFrom timeSlotTo bookedAt } } } }`;

let zoneAdmin: Record<string, string>;
let bookedAtZ1: string;
let bookedAt10001: string[];
beforeAll(async () => {
  const send = async (path: string, body: unknown) =>
    expect((await t.request('POST', path, { body: envelopeOf(body), headers: admin })).json.errors).toBeNull();
  await send('/v1/masterdata/zones', { code: 'Z_1', langCode: 'eng', name: 'Zone Z_1', hierarchyLevel: 1, hierarchyName: 'Zone', parentZoneCode: 'MOR' });
  await writeCentre(t, admin, centreBody('Z1C', { zoneCode: 'Z_1' }));
  zoneAdmin = (await userLogin(t, 'z1-prereg', ['ZONAL_ADMIN', 'PRE_REGISTRATION_ADMIN'], 'admin')).bearer;
  await send('/v1/masterdata/zoneuser', { userId: 'z1-prereg', zoneCode: 'Z_1' });

  const amina = await applicant(t, 'amina@example.org');
  bookedAtZ1 = await newApplication(t, amina);
  expect(codeOf(await book(t, amina, bookedAtZ1, (await freeSlots(t, amina, 'Z1C'))[0]!))).toBeUndefined();
  bookedAt10001 = [await newApplication(t, amina), await newApplication(t, amina)];
  const [first, second] = await freeSlots(t, amina, SAMPLE_CENTRE);
  expect(codeOf(await book(t, amina, bookedAt10001[0]!, first!))).toBeUndefined();
  expect(codeOf(await book(t, amina, bookedAt10001[1]!, second!))).toBeUndefined();
});

describe("a centre's appointments", () => {
  it('are listed, by day and slot, to the pre-registration admin of the centre’s zone', async () => {
    const answer = await t.graphql(LIST, { centre: 'Z1C' }, zoneAdmin);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.preRegistrationBookings.totalCount).toBe(1);
    expect(answer.data.preRegistrationBookings.edges[0].node).toMatchObject({
      preRegistrationId: bookedAtZ1,
      registrationCenterId: 'Z1C',
      timeSlotFrom: '09:00:00',
    });
  });

  it('are refused to an admin of another zone, to an admin without the pre-registration role, and to applicants', async () => {
    expect(refusalCode(await t.graphql(LIST, { centre: SAMPLE_CENTRE }, zoneAdmin))).toBe('KER-MSD-439');
    const zonalOnly = (await userLogin(t, 'z1-zonal', ['ZONAL_ADMIN'], 'admin')).bearer;
    expect(refusalCode(await t.graphql(LIST, { centre: 'Z1C' }, zonalOnly))).toBe('KER-ATH-403');
    const applicantToken = await applicant(t, '9123400002');
    expect(refusalCode(await t.graphql(LIST, { centre: 'Z1C' }, applicantToken))).toBe('KER-ATH-403');
    // A pre-registration admin with no zone and no centre reaches none.
    const unplaced = (await userLogin(t, 'prereg-unplaced', ['PRE_REGISTRATION_ADMIN'], 'admin')).bearer;
    expect(refusalCode(await t.graphql(LIST, { centre: 'Z1C' }, unplaced))).toBe('KER-ATH-403');
  });

  it('page for the platform admin of the whole country, one day at a time when asked', async () => {
    const global = bearer(await t.adminToken());
    const firstPage = await t.graphql(LIST, { centre: SAMPLE_CENTRE, first: 1 }, global);
    expect(firstPage.data.preRegistrationBookings).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    const secondPage = await t.graphql(LIST, { centre: SAMPLE_CENTRE, first: 1, after: firstPage.data.preRegistrationBookings.pageInfo.endCursor }, global);
    const ids = [firstPage, secondPage].map((page) => page.data.preRegistrationBookings.edges[0].node.preRegistrationId as string);
    expect(ids.sort()).toEqual([...bookedAt10001].sort());
    const date = firstPage.data.preRegistrationBookings.edges[0].node.appointmentDate as string;
    expect((await t.graphql(LIST, { centre: SAMPLE_CENTRE, date }, global)).data.preRegistrationBookings.totalCount).toBe(2);
    expect((await t.graphql(LIST, { centre: SAMPLE_CENTRE, date: '2030-01-01' }, global)).data.preRegistrationBookings.totalCount).toBe(0);
    expect((await t.graphql(LIST, { centre: 'NO-SUCH' }, global)).data.preRegistrationBookings.totalCount).toBe(0);
  });
});
