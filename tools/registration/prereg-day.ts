import { randomInt, randomUUID } from 'node:crypto';
import type { PacketDocument } from '../../lib/packet/write.js';
import { envelopeOf, firstError, graphqlData, graphqlRequest, GRAPHQL_PATH, type SessionCall, type FetchLike } from './client.js';
import { answerOf, envelope, json, PREREG, type Booked } from './prereg-calls.js';
import { fetchedApplication, machineKey, machineName, syncedIds } from './prereg-centre.js';
import { pool } from './pool.js';
import type { SampleResident } from './sample-resident.js';
import type { SimulationSummary } from './summary.js';

/**
 * The pre-registration half of a simulated day (`npm run simulate -- --prereg`):
 * residents apply and book online (each signs in by OTP, read from the outbox
 * as the development platform keeps it), then the centre syncs its day's ids
 * and fetches each application for its machine, as MOSIP's registration
 * client does, decrypting with the machine's own key.
 */

/** The fields pre-registration requires beside a sample resident's (its zone and a reference number), the same for the same resident. */
export function applicationIdentity(resident: SampleResident): Record<string, unknown> {
  const digits = BigInt(`0x${Buffer.from(resident.seed).toString('hex').slice(0, 20) || '1'}`) % 10n ** 12n;
  const zone = (resident.identity.city as { language: string; value: string }[]).map(({ language, value }) => ({ language, value }));
  return { ...resident.identity, zone, referenceIdentityNumber: `${digits}`.padStart(12, '7') };
}

/** One resident applies and books the first free place the centre offers. */
export async function applyAndBook(
  base: string,
  fetchImpl: FetchLike,
  admin: SessionCall,
  resident: SampleResident,
  index: number,
  centreId: string,
  userId: string,
): Promise<Booked> {
  const call = (path: string, init: RequestInit) => fetchImpl(`${base}${PREREG}${path}`, { ...init, signal: AbortSignal.timeout(60_000) });
  await answerOf(await call('/login/sendOtp', json(envelope('login.sendotp', { userId }))), 'sendOtp');
  const { outbox } = await graphqlData<{ outbox: { body: string }[] }>(
    await admin(GRAPHQL_PATH, graphqlRequest('query($to: String) { outbox(to: $to, limit: 1) { body } }', { to: userId })),
    'outbox',
  );
  const otp = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
  if (!otp) throw new Error(`no OTP reached ${userId}`);
  const login = await call('/login/validateOtp', json(envelope('login.useridotp', { userId, otp })));
  await answerOf(login.clone(), 'validateOtp');
  const cookie = /(Authorization=[^;,\s]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('validateOtp set no cookie');
  const created = await answerOf<{ preRegistrationId: string }>(
    await call(
      '/applications',
      json(envelope('demographic.create', { langCode: 'eng', demographicDetails: { identity: applicationIdentity(resident) } }), cookie),
    ),
    'create application',
  );
  await uploadProofOfAddress(call, created.preRegistrationId, resident, cookie);
  const slots = await answerOf<{ centerDetails: { date: string; timeSlots: { fromTime: string; toTime: string; availability: number }[] }[] }>(
    await call(`/applications/appointment/slots/availability/${centreId}`, { headers: { cookie } }),
    'slots',
  );
  const free = slots.centerDetails.flatMap((day) => day.timeSlots.filter((slot) => slot.availability > 0).map((slot) => ({ date: day.date, ...slot })));
  if (!free.length) throw new Error(`centre ${centreId} has no free place`);
  // Spread over the first free places, so that residents do not all race for one.
  const slot = free[randomInt(Math.min(free.length, 8))]!;
  await answerOf(
    await call(
      `/applications/appointment/${created.preRegistrationId}`,
      json(
        envelope('booking.book', {
          registration_center_id: centreId,
          appointment_date: slot.date,
          time_slot_from: slot.fromTime,
          time_slot_to: slot.toTime,
        }),
        cookie,
      ),
    ),
    'book',
  );
  return { index, preRegistrationId: created.preRegistrationId, date: slot.date, cookie };
}

/** The resident's proof of address, as the portal uploads it (multipart `file` and `Document request`). */
async function uploadProofOfAddress(
  call: (path: string, init: RequestInit) => Promise<Response>,
  preRegistrationId: string,
  resident: SampleResident,
  cookie: string,
) {
  const document = resident.documents.find((entry) => entry.field === 'proofOfAddress');
  if (!document) return;
  const form = new FormData();
  form.append('file', new Blob([Uint8Array.from(document.data)], { type: 'application/pdf' }), `${document.type.toLowerCase()}.${document.format}`);
  form.append('Document request', envelope('document.upload', { docCatCode: 'POA', docTypCode: document.type, langCode: 'eng' }));
  await answerOf(await call(`/documents/${preRegistrationId}`, { method: 'POST', body: form, headers: { cookie } }), 'document upload');
}

/** Where the application stands for its applicant: Consumed once registration took it in (gone from their list once moved). */
export async function applicationStatus(base: string, fetchImpl: FetchLike, booked: Booked): Promise<string> {
  const response = await fetchImpl(`${base}${PREREG}/applications/prereg/status/${booked.preRegistrationId}`, { headers: { cookie: booked.cookie } });
  const answer = await envelopeOf(response, 'application status');
  // Moved to the consumed history: no longer an application.
  if (answer.errors?.[0]?.errorCode === 'PRG_PAM_APP_005') return 'Consumed';
  if (answer.errors?.length) throw new Error(`application status: ${firstError(answer)}`);
  return (answer.response as { statusCode: string }).statusCode;
}

/** A resident who came pre-registered: the id the packet names, and the identity the machine fetched for it. */
export interface Preregistered {
  booked: Booked;
  identity: Record<string, unknown>;
  /** the documents the machine fetched, as the packet carries them */
  documents: PacketDocument[];
}

export interface PreregisteredDay {
  /** by resident index */
  byIndex: Map<number, Preregistered>;
  booked: number;
  /** booked ids the centre's sync listed */
  synced: number;
  fetched: number;
  /** the first few failures, code and message, never personal data */
  problems: string[];
}

/**
 * The morning of a pre-registered day: each resident signs in by OTP (to an
 * address of this run's own), applies and books at the centre; the machine
 * maps a fresh key (as a reinstalled client does), the centre syncs the
 * booked days' ids and fetches each application sealed for the machine. A
 * resident whose step fails comes as a walk-in (no pre-registration id).
 */
export async function preregisterDay(options: {
  base: string;
  fetchImpl: FetchLike;
  admin: SessionCall;
  residents: readonly { index: number; resident: SampleResident }[];
  centreId: string;
  machineId: string;
  concurrency: number;
  log: (line: string) => void;
}): Promise<PreregisteredDay> {
  const { admin, centreId, machineId, log } = options;
  log(`pre-registering ${options.residents.length} residents at centre ${centreId}`);
  // Addresses of this run's own: each resident's OTP is the newest message to theirs.
  const run = randomUUID().slice(0, 8);
  const problems: string[] = [];
  const note = (what: string, error: unknown) => problems.length < 20 && problems.push(`${what}: ${(error as Error).message}`);
  const booked: { booked: Booked; resident: SampleResident }[] = [];
  await pool(options.residents, options.concurrency, async ({ index, resident }) => {
    try {
      const userId = `prereg-${run}-${index}@example.org`;
      booked.push({ booked: await applyAndBook(options.base, options.fetchImpl, admin, resident, index, centreId, userId), resident });
    } catch (error) {
      note(`pre-registration of resident ${index}`, error);
    }
  });
  const byIndex = new Map<number, Preregistered>();
  if (!booked.length) return { byIndex, booked: 0, synced: 0, fetched: 0, problems };
  const privateKey = await machineKey(admin, await machineName(admin, machineId));
  const days = booked.map(({ booked }) => booked.date).sort();
  const listed = new Set(await syncedIds(admin, centreId, days[0]!, days.at(-1)!));
  const synced = booked.filter(({ booked }) => listed.has(booked.preRegistrationId));
  if (synced.length < booked.length) note('sync', new Error(`${booked.length - synced.length} booked applications not listed for centre ${centreId}`));
  await pool(synced, options.concurrency, async ({ booked, resident }) => {
    try {
      const { identity, documents } = await fetchedApplication(admin, booked.preRegistrationId, machineId, privateKey);
      if (JSON.stringify(identity.fullName) !== JSON.stringify(resident.identity.fullName))
        throw new Error('the fetched application is not the one the resident gave');
      // The proof of address comes back as uploaded: the packet carries these bytes.
      const proof = resident.documents.find((entry) => entry.field === 'proofOfAddress');
      const fetched = [...documents.values()];
      if (proof && !fetched.some((bytes) => bytes.equals(proof.data))) throw new Error('the fetched application lacks the uploaded proof of address');
      byIndex.set(booked.index, { booked, identity, documents: proof ? [{ ...proof, data: fetched.find((bytes) => bytes.equals(proof.data))! }] : [] });
    } catch (error) {
      note(`fetch of ${booked.preRegistrationId}`, error);
    }
  });
  log(`pre-registered: ${booked.length} booked, ${synced.length} listed by the centre's sync, ${byIndex.size} fetched for machine ${machineId}`);
  return { byIndex, booked: booked.length, synced: synced.length, fetched: byIndex.size, problems };
}

/**
 * The run's summary with its pre-registrations: each application whose packet
 * was PROCESSED must become Consumed (the platform hears the processed
 * registration and marks it), polled until all are or `until`; the run is ok
 * only when every resident but the walk-ins was fetched and all are consumed.
 */
export async function withConsumed(
  summary: SimulationSummary,
  day: PreregisteredDay,
  options: {
    base: string;
    fetchImpl: FetchLike;
    processed: (index: number) => boolean;
    /** residents who came without an application (the duplicates) */
    walkIns: number;
    concurrency: number;
    until: number;
    clock: () => number;
    sleep: () => Promise<void>;
    log: (line: string) => void;
  },
): Promise<SimulationSummary> {
  const expected = [...day.byIndex].filter(([index]) => options.processed(index)).map(([, entry]) => entry.booked);
  const consumed = new Set<string>();
  for (;;) {
    const waiting = expected.filter((booked) => !consumed.has(booked.preRegistrationId));
    await pool(waiting, options.concurrency, async (booked) => {
      const status = await applicationStatus(options.base, options.fetchImpl, booked).catch(() => undefined);
      if (status === 'Consumed') consumed.add(booked.preRegistrationId);
    });
    if (consumed.size === expected.length || options.clock() > options.until) break;
    await options.sleep();
  }
  options.log(`pre-registrations consumed: ${consumed.size} of ${expected.length} whose packet was PROCESSED`);
  return {
    ...summary,
    preRegistration: { booked: day.booked, synced: day.synced, fetched: day.fetched, consumed: consumed.size, processed: expected.length },
    problems: [...day.problems, ...summary.problems].slice(0, 20),
    ok: summary.ok && day.fetched === summary.count - options.walkIns && consumed.size === expected.length,
  };
}
