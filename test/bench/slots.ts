// The appointment slots benchmark (BENCH_CASES=slots): a centre's availability over the 30 days
// offered, with 100 and with 10,000 bookings in place, and booking throughput through REST. The
// centre (200 kiosks, open every day, 28 slots a day: 840 slots) and the applications and bookings
// are written straight into PostgreSQL; the applicant signs in by OTP as the portal does.
import pg from 'pg';
import type { LoadCase, LoadResult } from './load.js';
import { sizes } from './sizes.js';

type Call = (
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
) => Promise<{ json: { response: Record<string, unknown> | null; errors: unknown; data?: Record<string, unknown> }; setCookie: string }>;

export interface SlotsBench {
  platformUrl: string;
  databaseUrl: string;
  adminCookie: string;
  call: Call;
  load: (spec: LoadCase) => Promise<LoadResult>;
  connections: number;
  seconds: number;
}

const CENTRE = 'BENCH1';
const KIOSKS = 200;
const SLOTS_A_DAY = 28;
/** The shipped configuration's window: from today + 2 days, 30 days. */
const [OFFSET_DAYS, DAYS] = [2, 30];
const SLOTS = SLOTS_A_DAY * DAYS;
/** Applications waiting for an appointment, booked by the throughput run: more than it can book. */
const POOL = 50_000;

const envelope = (id: string, request: unknown) => ({ id: `platform.pre-registration.${id}`, version: '1.0', requesttime: new Date().toISOString(), request });
/** The i-th slot of the window (from 0): its day from the window's first, and its times, 09:00-13:00 then 14:00-17:00. */
const slotSql = (i: string) => `
  ((${i}) % ${SLOTS}) / ${SLOTS_A_DAY} AS day,
  to_char(time '09:00' + (CASE WHEN (${i}) % ${SLOTS_A_DAY} < 16 THEN (${i}) % ${SLOTS_A_DAY} * 15 ELSE 300 + ((${i}) % ${SLOTS_A_DAY} - 16) * 15 END) * interval '1 minute', 'HH24:MI:SS') AS "fromTime",
  to_char(time '09:15' + (CASE WHEN (${i}) % ${SLOTS_A_DAY} < 16 THEN (${i}) % ${SLOTS_A_DAY} * 15 ELSE 300 + ((${i}) % ${SLOTS_A_DAY} - 16) * 15 END) * interval '1 minute', 'HH24:MI:SS') AS "toTime"`;

/** The centre, open every day, as master data's rows. */
async function seedCentre(db: pg.Client): Promise<void> {
  await db.query(
    `INSERT INTO md_registration_center (id, "langCode", name, "centerTypeCode", "locationCode", "holidayLocationCode", "numberOfKiosks", "perKioskProcessTime",
       "centerStartTime", "centerEndTime", "lunchStartTime", "lunchEndTime", "zoneCode", "isActive", "createdBy", "createdAt", "changedAt")
     VALUES ($1, 'eng', 'Bench centre', 'REG', 'BENCH', 'BENCH', $2, '00:15:00', '09:00:00', '17:00:00', '13:00:00', '14:00:00', 'BENCH', true, 'bench', now(), now())`,
    [CENTRE, KIOSKS],
  );
  await db.query(
    `INSERT INTO md_reg_center_working_day ("regCenterId", "dayCode", "langCode", "isWorking", "createdBy", "createdAt", "changedAt")
     SELECT $1, day, 'eng', true, 'bench', now(), now() FROM unnest(ARRAY['MON','TUE','WED','THU','FRI','SAT','SUN']) AS day`,
    [CENTRE],
  );
}

/** Applications numbered from..to (ids `<prefix><n>`) of the applicant, in a status. */
async function seedApplications(db: pg.Client, owner: string, prefix: string, from: number, to: number, status: string): Promise<void> {
  await db.query(
    `INSERT INTO prereg_application (id, "createdBy", "langCode", "statusCode", "bookingType", demographic, "demographicHash", "createdAt")
     SELECT $1 || lpad(i::text, 8, '0'), $2, 'eng', $3, 'NEW_PREREGISTRATION', 'bench', 'bench', now() FROM generate_series($4::int, $5::int) AS i`,
    [prefix, owner, status, from, to],
  );
}

/** Bookings from..to, spread over the window's slots, Booked applications of their own; the slots' counters recomputed. */
async function seedBookings(db: pg.Client, owner: string, from: number, to: number, firstDay: string): Promise<void> {
  await seedApplications(db, owner, 'BK', from, to, 'Booked');
  await db.query(
    `INSERT INTO prereg_booking ("preRegId", "centreId", date, "fromTime", "toTime", "bookedBy", "bookedAt")
     SELECT 'BK' || lpad(i::text, 8, '0'), $1, $2::date + day, "fromTime", "toTime", $3, now()
     FROM (SELECT i, ${slotSql('i - 1')} FROM generate_series($4::int, $5::int) AS i) AS slots`,
    [CENTRE, firstDay, owner, from, to],
  );
  await db.query(
    `INSERT INTO prereg_slot_usage ("centreId", date, "fromTime", "toTime", booked)
     SELECT "centreId", date, "fromTime", "toTime", count(*) FROM prereg_booking WHERE "centreId" = $1 GROUP BY 1, 2, 3, 4
     ON CONFLICT ("centreId", date, "fromTime") DO UPDATE SET booked = EXCLUDED.booked`,
    [CENTRE],
  );
  await db.query('ANALYZE prereg_booking; ANALYZE prereg_slot_usage; ANALYZE prereg_application');
}

/** Signs an applicant in by OTP (read from the outbox as the admin): their cookie and user id. */
async function signIn(bench: SlotsBench, userId: string): Promise<{ cookie: string; subject: string }> {
  await bench.call('POST', '/preregistration/v1/login/sendOtp', envelope('login.sendotp', { userId }));
  const outbox = await bench.call('POST', '/graphql', { query: `{ outbox(to: "${userId}", limit: 1) { body } }` }, bench.adminCookie);
  const otp = /\b(\d{6})\b/.exec((outbox.json.data!.outbox as { body: string }[])[0]!.body)![1]!;
  const login = await bench.call('POST', '/preregistration/v1/login/validateOtp', envelope('login.useridotp', { userId, otp }));
  const token = /Authorization=Platform-Token([^;]+)/.exec(login.setCookie)![1]!;
  const { sub } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string };
  return { cookie: `Authorization=Platform-Token${token}`, subject: sub };
}

/** Books pool applications for `seconds` over `connections` at once, each on the next slot: bookings per second. */
async function bookingThroughput(bench: SlotsBench, cookie: string, firstDay: string): Promise<number> {
  let next = 0;
  const until = Date.now() + bench.seconds * 1000;
  const started = Date.now();
  let booked = 0;
  const dayOf = (index: number) =>
    new Date(Date.parse(`${firstDay}T00:00:00Z`) + Math.floor((index % SLOTS) / SLOTS_A_DAY) * 86_400_000).toISOString().slice(0, 10);
  const timeOf = (index: number, start: number) => {
    const slot = index % SLOTS_A_DAY;
    const minutes = start + (slot < 16 ? slot * 15 : 300 + (slot - 16) * 15);
    return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  };
  await Promise.all(
    Array.from({ length: bench.connections }, async () => {
      while (Date.now() < until && next < POOL) {
        const index = next++;
        const request = {
          registration_center_id: CENTRE,
          appointment_date: dayOf(index),
          time_slot_from: timeOf(index, 540),
          time_slot_to: timeOf(index, 555),
        };
        const id = `BP${String(index + 1).padStart(8, '0')}`;
        const answer = await bench.call('POST', `/preregistration/v1/applications/appointment/${id}`, envelope('booking.book', request), cookie);
        if (answer.json.errors) throw new Error(`booking ${id}: ${JSON.stringify(answer.json.errors)}`);
        booked++;
      }
    }),
  );
  return booked / ((Date.now() - started) / 1000);
}

export async function benchSlots(bench: SlotsBench): Promise<void> {
  const db = new pg.Client({ connectionString: bench.databaseUrl });
  await db.connect();
  try {
    await seedCentre(db);
    const { cookie, subject } = await signIn(bench, 'bench-applicant@example.org');
    const firstDay = new Date(Date.now() + OFFSET_DAYS * 86_400_000).toISOString().slice(0, 10);
    const spec = { url: bench.platformUrl, path: `/preregistration/v1/applications/appointment/slots/availability/${CENTRE}`, headers: { cookie } };
    let small: LoadResult | undefined;
    const [smallSize, largeSize] = sizes.bookings as [number, number];
    for (const [size, from] of [
      [smallSize, 1],
      [largeSize, smallSize + 1],
    ] as const) {
      await seedBookings(db, subject, from, size, firstDay);
      await bench.load({ ...spec, connections: bench.connections, seconds: sizes.tableWarmupSeconds });
      const result = await bench.load({ ...spec, connections: bench.connections, seconds: bench.seconds });
      if (result.non2xx || result.errors || result.failedAnswers) throw new Error('slot availability: failed answers');
      small ??= result;
      const growth = result === small ? '' : `   p50 ×${(result.p50ms / small.p50ms).toFixed(2)} of ${smallSize.toLocaleString('en')}`;
      console.log(
        `${`slot availability, 30 days (${size.toLocaleString('en')} bookings)`.padEnd(44)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s    p50 ${result.p50ms} ms  p99 ${result.p99ms} ms${growth}`,
      );
    }
    await seedApplications(db, subject, 'BP', 1, POOL, 'Pending_Appointment');
    await db.query('ANALYZE prereg_application');
    console.log(`${'booking through REST'.padEnd(44)} ${(await bookingThroughput(bench, cookie, firstDay)).toFixed(0).padStart(7)} bookings/s`);
  } finally {
    await db.end();
  }
}
