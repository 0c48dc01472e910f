import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { makeRid } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, type SyncRecord } from '../../lib/packet/write.js';
import {
  type FetchLike,
  SEARCH_PATH,
  GRAPHQL_PATH,
  type AdminCredentials,
  adminCredentials,
  envelopeOf,
  requestEnvelope,
  graphqlRequest,
  graphqlData,
  graphqlTokenRefused,
  signIn,
  registrationCertificate,
  syncRecords,
  uploadPacket,
} from './client.js';
import { pool } from './pool.js';
import { preregisterDay, withConsumed } from './prereg-day.js';
import { packetInputOf, sampleResident } from './sample-resident.js';
import { ADJUDICATION_STAGE, hasEnded, isFinal, summarise, SYNC_FAILED, UPLOAD_FAILED, type PacketTrack, type SimulationSummary } from './summary.js';

/**
 * A registration centre played against a running platform (`npm run
 * simulate`): sample residents registered, their RIDs synced in batches,
 * their packets uploaded, then their status polled until each is final. The
 * HTTP client is a parameter so that the flow runs against a fake handler in
 * unit tests; everything else is the platform's public REST API.
 */

export const SYNC_BATCH = 20;
const SEARCH_BATCH = 100;
/** A RID's sequence has five digits. */
export const MAX_COUNT = 99_999;

export interface SimulationOptions {
  count: number;
  centreId: string;
  machineId: string;
  /** batches in flight at once (each uploads its packets one after the other) */
  concurrency: number;
  /** the share of residents that reuse an earlier resident's biometrics, 0 to 1 */
  duplicates: number;
  /** how long to wait for final statuses once every packet is uploaded */
  timeoutSeconds: number;
  /** residents pre-register and book first, and their packets name the application the machine fetched (prereg-day.ts) */
  prereg?: boolean;
  /** how to sign in: a Cookie header value, or credentials (adminCredentials() by default) */
  cookie?: string;
  credentials?: AdminCredentials;
  certificatePem?: string;
  officerId?: string;
  supervisorId?: string;
  /** resident seeds derive from it; random by default so that runs never share biometrics */
  seed?: string;
  bdbBytes?: number;
  pollIntervalMs?: number;
  /** a call unanswered this long fails (its packets count as failed); 120 s by default */
  requestTimeoutMs?: number;
  log?: (line: string) => void;
  /** milliseconds, Date.now by default */
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** What became of one packet; times in the clock's milliseconds. */
/**
 * Which residents reuse another's biometrics: `share` of them spread evenly
 * over the run, each copying one registered about half a run earlier (never a
 * duplicate itself). Index -> original index.
 */
export function duplicatePlan(count: number, share: number): Map<number, number> {
  const plan = new Map<number, number>();
  if (share <= 0) return plan;
  for (let index = 1; index < count; index++) {
    if (Math.floor((index + 1) * share) === Math.floor(index * share)) continue;
    let original = Math.floor(index / 2);
    while (plan.has(original)) original--;
    plan.set(index, original);
  }
  return plan;
}

const REGISTRATION_STAGE = 'query($rid: ID!) { registration(registrationId: $rid) { stage status } }';

/** Plays the registration centre against `baseUrl`; resolves with the summary (it throws only when it cannot start). */
export async function simulate(baseUrl: string, options: SimulationOptions, fetchImpl: FetchLike = fetch): Promise<SimulationSummary> {
  if (!Number.isInteger(options.count) || options.count < 1 || options.count > MAX_COUNT) throw new RangeError(`count must be 1 to ${MAX_COUNT}`);
  const base = baseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const log = options.log ?? (() => undefined);
  const started = clock();
  const elapsed = () => `${((clock() - started) / 1000).toFixed(1)} s`;

  const credentials = options.cookie ? undefined : (options.credentials ?? adminCredentials());
  let cookie = options.cookie ?? (await signIn(base, credentials!, fetchImpl));
  const certificate = options.certificatePem ?? (await registrationCertificate(base, cookie, options.centreId, options.machineId, fetchImpl));

  /** A call with the session cookie; signs in again once if the token has expired meanwhile. */
  const call = async (pathname: string, init: RequestInit): Promise<Response> => {
    const send = () =>
      fetchImpl(`${base}${pathname}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), cookie },
        signal: AbortSignal.timeout(options.requestTimeoutMs ?? 120_000),
      });
    const response = await send();
    const refused = response.status === 401 || (pathname === GRAPHQL_PATH && (await graphqlTokenRefused(response)));
    if (!refused || !credentials) return response;
    cookie = await signIn(base, credentials, fetchImpl);
    return send();
  };

  const seed = options.seed ?? randomUUID();
  const firstSequence = randomInt(0, MAX_COUNT + 1);
  const plan = duplicatePlan(options.count, options.duplicates);
  const residentOf = (index: number) => {
    const original = plan.get(index);
    const duplicateOf = original === undefined ? undefined : sampleResident(`${seed}/${original}`, { bdbBytes: options.bdbBytes });
    return sampleResident(`${seed}/${index}`, { duplicateOf, bdbBytes: options.bdbBytes });
  };
  // Every resident but the duplicates (they come again, as walk-ins) pre-registers and books.
  const day = options.prereg
    ? await preregisterDay({
        base,
        fetchImpl,
        admin: call,
        residents: Array.from({ length: options.count }, (_, index) => index)
          .filter((index) => !plan.has(index))
          .map((index) => ({ index, resident: residentOf(index) })),
        centreId: options.centreId,
        machineId: options.machineId,
        concurrency: options.concurrency,
        log,
      })
    : undefined;
  const tracks: PacketTrack[] = [];
  /** by resident index, for a duplicate to find its original */
  const trackOf = new Map<number, PacketTrack>();
  const counters = { synced: 0, uploaded: 0 };

  /**
   * Holds a duplicate back until its original has an end (or never reached the
   * pipeline), as a later enrolment of the same person comes after the first
   * was decided: uploaded together, the two race through de-duplication and
   * the original may be the one held for adjudication. Bounded by the timeout.
   */
  const originalDecided = async (index: number) => {
    const original = trackOf.get(plan.get(index)!);
    const until = clock() + options.timeoutSeconds * 1000;
    const decided = () => !original || hasEnded(original) || original.status === SYNC_FAILED || original.status === UPLOAD_FAILED;
    while (!decided() && clock() < until) await sleep(options.pollIntervalMs ?? 2000);
  };

  /** One batch: build and seal its packets, sync them in one call, upload those synced. */
  const runBatch = async (indexes: number[]) => {
    const now = new Date(clock());
    const packets = indexes.map((index) => {
      const resident = residentOf(index);
      const registrationId = makeRid(options.centreId, options.machineId, (firstSequence + index) % (MAX_COUNT + 1), now);
      const booked = day?.byIndex.get(index);
      const zip = buildPacketZip(
        packetInputOf(registrationId, { centre: options.centreId, machine: options.machineId }, resident, now, {
          ...(options.officerId ? { officerId: options.officerId } : {}),
          ...(options.supervisorId ? { supervisorId: options.supervisorId } : {}),
          // A pre-registered resident comes with the application's identity and documents, and consumes it.
          ...(booked ? { identity: booked.identity, documents: booked.documents, preRegistrationId: booked.booked.preRegistrationId } : {}),
        }),
      );
      const sealed = sealPacket(zip, certificate);
      const track: PacketTrack = { registrationId, status: 'UPLOAD_PENDING', ...(plan.has(index) ? { duplicate: true } : {}) };
      tracks.push(track);
      trackOf.set(index, track);
      return { index, track, sealed, record: syncRecordOf(registrationId, sealed, { supervisorComment: 'simulated registration' }) };
    });
    const outcome = await syncBatch(packets.map((packet) => packet.record));
    for (const packet of packets) {
      const failure = outcome.get(packet.track.registrationId);
      if (failure) Object.assign(packet.track, { status: SYNC_FAILED, problem: `sync ${failure}` });
      else counters.synced++;
    }
    // Duplicates last: each waits for its original (originalDecided), the rest of the batch need not.
    for (const packet of [...packets.filter((p) => !p.track.duplicate), ...packets.filter((p) => p.track.duplicate)]) {
      if (packet.track.status === SYNC_FAILED) continue;
      if (packet.track.duplicate) await originalDecided(packet.index);
      const problem = await upload(packet.track.registrationId, packet.sealed);
      if (problem) Object.assign(packet.track, { status: UPLOAD_FAILED, problem: `upload ${problem}` });
      else {
        Object.assign(packet.track, { status: 'PACKET_RECEIVED', uploadedAt: clock() });
        counters.uploaded++;
      }
    }
    log(`synced ${counters.synced}/${options.count}, uploaded ${counters.uploaded}/${options.count} (${elapsed()})`);
  };

  const syncBatch = (records: SyncRecord[]) => syncRecords(call, `${options.centreId}_${options.machineId}`, certificate, records, new Date(clock()));
  const upload = (registrationId: string, sealed: Buffer) => uploadPacket(call, registrationId, sealed);

  /** when the last upload finished (the timeout counts from there), and whether it ran out */
  const run: { uploadsDoneAt?: number; timedOut: boolean } = { timedOut: false };
  /** Polls the uploaded packets not at an end until all are, or the timeout has passed since the last upload. */
  const poll = async () => {
    let last = '';
    for (;;) {
      const pending = tracks.filter((track) => track.uploadedAt !== undefined && !hasEnded(track));
      if (run.uploadsDoneAt !== undefined && !pending.length) return;
      if (run.uploadsDoneAt !== undefined && clock() - run.uploadsDoneAt > options.timeoutSeconds * 1000) {
        run.timedOut = true;
        return;
      }
      for (let at = 0; at < pending.length; at += SEARCH_BATCH) await searchStatuses(pending.slice(at, at + SEARCH_BATCH));
      await findAdjudication(pending.filter((track) => track.duplicate && track.status === 'PROCESSING'));
      const { statuses, adjudicationStatuses } = summarise(tracks, plan.size, false);
      const line = Object.entries(statuses)
        .map(([status, n]) => `${status} ${n}${adjudicationStatuses[status] ? ` (${adjudicationStatuses[status]} in adjudication)` : ''}`)
        .join(', ');
      if (line && line !== last) log(`statuses: ${line} (${elapsed()})`);
      last = line;
      await sleep(options.pollIntervalMs ?? 2000);
    }
  };

  const searchStatuses = async (batch: PacketTrack[]) => {
    try {
      const response = await call(SEARCH_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: requestEnvelope(
          'platform.registration.status',
          batch.map((track) => ({ registrationId: track.registrationId })),
        ),
      });
      const envelope = await envelopeOf(response, 'status search');
      const byRid = new Map(batch.map((track) => [track.registrationId, track]));
      for (const item of (envelope.response as { registrationId: string; statusCode: string }[] | null) ?? []) {
        const track = byRid.get(item.registrationId);
        if (!track || !item.statusCode) continue;
        track.status = item.statusCode;
        if (isFinal(item.statusCode)) track.finalAt ??= clock();
      }
    } catch (error) {
      log(`status search failed: ${(error as Error).message}`);
    }
  };

  /**
   * The status search says PROCESSING whether a stage works on a packet or it
   * waits for an adjudicator: the stage comes from the portal graph's
   * registration (the admin's view), asked for duplicates only.
   */
  let stageProblem = '';
  const findAdjudication = (duplicates: PacketTrack[]) =>
    pool(duplicates, Math.max(1, options.concurrency), async (track) => {
      try {
        const { registration } = await graphqlData<{ registration: { stage: string | null; status: string } | null }>(
          await call(GRAPHQL_PATH, graphqlRequest(REGISTRATION_STAGE, { rid: track.registrationId })),
          'registration stage',
        );
        if (registration?.stage !== ADJUDICATION_STAGE || registration.status !== 'PROCESSING') return;
        track.adjudication = true;
        track.finalAt ??= clock();
      } catch (error) {
        // Once per kind of failure rather than once per duplicate and poll.
        if ((error as Error).message !== stageProblem) log(`stage query failed: ${(error as Error).message}`);
        stageProblem = (error as Error).message;
      }
    });

  const batches: number[][] = [];
  for (let index = 0; index < options.count; index += SYNC_BATCH)
    batches.push(Array.from({ length: Math.min(SYNC_BATCH, options.count - index) }, (_, offset) => index + offset));
  log(`registering ${options.count} residents (${plan.size} duplicates) at centre ${options.centreId}, machine ${options.machineId}`);
  const polling = poll();
  await pool(batches, Math.max(1, options.concurrency), runBatch);
  run.uploadsDoneAt = clock();
  await polling;
  const summary = summarise(tracks, plan.size, run.timedOut);
  if (!day) return summary;
  return withConsumed(summary, day, {
    base,
    fetchImpl,
    processed: (index) => trackOf.get(index)?.status === 'PROCESSED',
    walkIns: plan.size,
    concurrency: options.concurrency,
    until: clock() + options.timeoutSeconds * 1000,
    clock,
    sleep: () => sleep(options.pollIntervalMs ?? 2000),
    log: (line) => log(`${line} (${elapsed()})`),
  });
}
