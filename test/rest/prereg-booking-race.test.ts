// The last place of a slot, asked for by two residents at the same moment: one gets it, the other
// PRG_BOOK_RCI_002, round after round; the slots' counters always equal their bookings. Runs on
// PostgreSQL (a pool of connections, the conditional increment as arbiter) and on embedded PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { applicant } from '../support/prereg.js';
import { book, centreBody, codeOf, freeSlots, newApplication, slotCounts, writeCentre } from '../support/prereg-booking.js';

const ROUNDS = 20;
const CENTRE = 'RACE1';

let t: TestPlatform;
let residents: Record<string, string>[];
beforeAll(async () => {
  t = await startTestPlatform({ PLATFORM_SAMPLE_DATA: 'true' });
  await writeCentre(t, cookieHeader(await t.adminToken()), centreBody(CENTRE));
  residents = [await applicant(t, 'racer-one@example.org'), await applicant(t, '9123400011')];
});
afterAll(async () => {
  await t?.close();
});

describe('the last place of a slot', () => {
  it(`goes to one of two residents booking it at once, ${ROUNDS} rounds on a one-kiosk slot`, async () => {
    const applications = await Promise.all(residents.map((cookie) => newApplication(t, cookie)));
    const slots = (await freeSlots(t, residents[0]!, CENTRE)).slice(0, ROUNDS);
    expect(slots).toHaveLength(ROUNDS);
    for (const slot of slots) {
      expect(slot.availability).toBe(1);
      const answers = await Promise.all(residents.map((cookie, i) => book(t, cookie, applications[i]!, slot)));
      const codes = answers.map((answer) => codeOf(answer) ?? 'booked').sort();
      expect(codes).toEqual(['PRG_BOOK_RCI_002', 'booked']);
      const { counted, rows } = await slotCounts(t, CENTRE);
      expect(counted).toEqual(rows);
      expect(counted[`${slot.date} ${slot.from}`]).toBe(1);
    }
    // Each winner re-booked from its earlier slot: those places came back, and no slot holds more than its one kiosk.
    const { counted } = await slotCounts(t, CENTRE);
    expect(Object.values(counted).every((booked) => booked === 1)).toBe(true);
    expect(Object.keys(counted).length).toBeLessThanOrEqual(2);
  });
});
