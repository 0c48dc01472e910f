import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { makeRid } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody, type SyncRecord } from '../../lib/packet/write.js';
import { sampleResident } from './sample-resident.js';

/**
 * A registration centre played against a running platform (`npm run
 * simulate`): sample residents registered, their RIDs synced in batches,
 * their packets uploaded, then their status polled until each is final. The
 * HTTP client is a parameter so that the flow runs against a fake handler in
 * unit tests; everything else is the platform's public REST API.
 */

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export const SYNC_PATH = '/registrationprocessor/v1/registrationstatus/sync';
export const UPLOAD_PATH = '/registrationprocessor/v1/packetreceiver/registrationpackets';
export const SEARCH_PATH = '/registrationprocessor/v1/registrationstatus/search';
export const GRAPHQL_PATH = '/graphql';
const LOGIN_PATH = '/v1/authmanager/authenticate/internal/useridPwd';
/** MOSIP's client syncs up to 20 RIDs a call; the platform accepts 100 (search too). */
export const SYNC_BATCH = 20;
const SEARCH_BATCH = 100;
export const FINAL_STATUSES = ['PROCESSED', 'REJECTED', 'FAILED', 'REPROCESS_FAILED'] as const;
/**
 * Where a registration the de-duplication held waits for an adjudicator, its
 * status PROCESSING: the end of the run for a packet sent as a duplicate.
 */
export const ADJUDICATION_STAGE = 'MANUAL_ADJUDICATION';
/** Statuses the simulator gives packets that never reached the pipeline. */
export const SYNC_FAILED = 'SYNC_FAILED';
export const UPLOAD_FAILED = 'UPLOAD_FAILED';
/** A RID's sequence has five digits. */
export const MAX_COUNT = 99_999;

export interface AdminCredentials {
  userName: string;
  password: string;
}

/**
 * The admin's credentials: PLATFORM_ADMIN_PASSWORD, else the bootstrap
 * credentials file a first start writes (PLATFORM_DATA_DIR, ./data by default).
 */
export function adminCredentials(env: NodeJS.ProcessEnv = process.env): AdminCredentials {
  if (env.PLATFORM_ADMIN_PASSWORD) return { userName: 'admin', password: env.PLATFORM_ADMIN_PASSWORD };
  const file = path.join(env.PLATFORM_DATA_DIR ?? 'data', 'bootstrap-credentials.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`no admin password: set PLATFORM_ADMIN_PASSWORD or run where ${file} exists (or pass --certificate)`);
  }
  const saved = JSON.parse(text) as Partial<AdminCredentials>;
  if (!saved.password) throw new Error(`${file} holds no password`);
  return { userName: saved.userName ?? 'admin', password: saved.password };
}

export interface Envelope {
  response?: unknown;
  errors?: { errorCode?: string; message?: string; registrationId?: string | null }[] | null;
}

export async function envelopeOf(response: Response, what: string): Promise<Envelope> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`${what}: HTTP ${response.status}, not a JSON answer`);
  }
}

export const firstError = (envelope: Envelope) => {
  const error = envelope.errors?.[0];
  return error ? `${error.errorCode ?? 'error'}: ${error.message ?? ''}` : undefined;
};

const requestEnvelope = (id: string, request: unknown) => JSON.stringify({ id, version: '1.0', requesttime: new Date().toISOString(), metadata: {}, request });

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: { message?: string; extensions?: { code?: string } }[];
}

/** A POST of one GraphQL operation (to GRAPHQL_PATH); the caller adds the cookie. */
export function graphqlRequest(query: string, variables: Record<string, unknown>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) };
}

/** The data of a GraphQL answer; throws with the first error (its code and message) when there is one. */
/** A mutation's payload (the portal graph's convention): its result under `field`, or why it was refused. */
export type MutationPayload<Field extends string, Result> = { [K in Field]: Result | null } & {
  userErrors: { field: string[] | null; code: string; message: string }[];
};

export async function graphqlData<T>(response: Response, what: string): Promise<T> {
  let answer: GraphqlAnswer<T>;
  try {
    answer = (await response.json()) as GraphqlAnswer<T>;
  } catch {
    throw new Error(`${what}: HTTP ${response.status}, not a JSON answer`);
  }
  const error = answer.errors?.[0];
  if (error) throw new Error(`${what}: ${error.extensions?.code ?? 'error'}: ${error.message ?? ''}`);
  if (!answer.data) throw new Error(`${what}: HTTP ${response.status}, no data`);
  return answer.data;
}

/** GraphQL refuses an expired token in an HTTP 200 answer (KER-ATH-401 on the field) where REST answers 401. */
async function graphqlTokenRefused(response: Response): Promise<boolean> {
  const answer = (await response
    .clone()
    .json()
    .catch(() => null)) as GraphqlAnswer<unknown> | null;
  return answer?.errors?.some((error) => error.extensions?.code === 'KER-ATH-401') ?? false;
}

/** Signs the admin in; returns the Cookie header value (`Authorization=…`) the platform set. */
export async function signIn(baseUrl: string, credentials: AdminCredentials, fetchImpl: FetchLike = fetch): Promise<string> {
  const response = await fetchImpl(`${baseUrl}${LOGIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: requestEnvelope('platform.authentication.useridPwd', { userName: credentials.userName, password: credentials.password, appId: 'admin' }),
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    // The first call of a run: say which address failed rather than fetch's bare "fetch failed".
    throw new Error(`cannot reach the platform at ${baseUrl}: ${(error.cause as Error | undefined)?.message ?? error.message}`);
  });
  const envelope = await envelopeOf(response, 'sign-in');
  const cookie = /(?:^|[,;\s])(Authorization=[^;,\s]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const token = (envelope.response as { token?: string } | null | undefined)?.token;
  if (cookie) return cookie;
  if (token) return `Authorization=${token}`;
  throw new Error(`sign-in failed: ${firstError(envelope) ?? `HTTP ${response.status}`}`);
}

/**
 * The REGISTRATION certificate packets are sealed for: the centre and
 * machine's own key when one exists, else the application's default key.
 */
export async function registrationCertificate(
  baseUrl: string,
  cookie: string,
  centreId: string,
  machineId: string,
  fetchImpl: FetchLike = fetch,
): Promise<string> {
  let last = '';
  for (const query of [`&referenceId=${encodeURIComponent(`${centreId}_${machineId}`)}`, '']) {
    const response = await fetchImpl(`${baseUrl}/v1/keymanager/getCertificate?applicationId=REGISTRATION${query}`, { headers: { cookie } });
    const envelope = await envelopeOf(response, 'getCertificate');
    const certificate = (envelope.response as { certificate?: string } | null | undefined)?.certificate;
    if (certificate) return certificate;
    last = firstError(envelope) ?? `HTTP ${response.status}`;
  }
  throw new Error(`no REGISTRATION certificate: ${last}`);
}

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
export interface PacketTrack {
  registrationId: string;
  status: string;
  uploadedAt?: number;
  /** when it reached an end: a final status, or (a duplicate) manual adjudication */
  finalAt?: number;
  /** why it failed before the pipeline (sync or upload), code and message, never personal data */
  problem?: string;
  /** planned as a copy of an earlier resident's biometrics */
  duplicate?: boolean;
  /** a duplicate seen at MANUAL_ADJUDICATION (its status stays PROCESSING): its end for the run */
  adjudication?: boolean;
}

export interface SimulationSummary {
  count: number;
  duplicates: number;
  synced: number;
  uploaded: number;
  /** packets per last known status (SYNC_FAILED and UPLOAD_FAILED for those that never reached the pipeline) */
  statuses: Record<string, number>;
  final: number;
  processed: number;
  /** duplicates waiting for an adjudicator, the end a de-duplication gives them */
  adjudication: number;
  /** those per status (PROCESSING, as the pipeline leaves them) */
  adjudicationStatuses: Record<string, number>;
  timedOut: boolean;
  /** from the first upload to the last end (a final status, or a duplicate in adjudication) */
  seconds: number | null;
  /** packets at an end per second */
  packetsPerSecond: number | null;
  /** the first few sync and upload failures */
  problems: string[];
  /** every duplicate in adjudication and every other packet PROCESSED */
  ok: boolean;
}

const isFinal = (status: string) => (FINAL_STATUSES as readonly string[]).includes(status);
/** Where the run stops following a packet. */
const hasEnded = (track: PacketTrack) => isFinal(track.status) || track.adjudication === true;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

const tally = (tracks: readonly PacketTrack[]) => {
  const counts: Record<string, number> = {};
  for (const track of tracks) counts[track.status] = (counts[track.status] ?? 0) + 1;
  return counts;
};

/** The summary of a run: counts per status and throughput from the first upload to the last end. */
export function summarise(tracks: readonly PacketTrack[], duplicates: number, timedOut: boolean): SimulationSummary {
  const statuses = tally(tracks);
  const adjudicationStatuses = tally(tracks.filter((track) => track.adjudication));
  const adjudication = Object.values(adjudicationStatuses).reduce((sum, n) => sum + n, 0);
  // Loops, not Math.min(...spread): a run may hold more packets than a call takes arguments.
  let firstUpload = Infinity;
  let lastEnd = -Infinity;
  let uploaded = 0;
  for (const track of tracks) {
    if (track.uploadedAt !== undefined) {
      uploaded++;
      firstUpload = Math.min(firstUpload, track.uploadedAt);
    }
    if (track.finalAt !== undefined) lastEnd = Math.max(lastEnd, track.finalAt);
  }
  const final = tracks.filter((track) => isFinal(track.status)).length;
  const seconds = uploaded && lastEnd > -Infinity ? (lastEnd - firstUpload) / 1000 : null;
  const processed = statuses.PROCESSED ?? 0;
  return {
    count: tracks.length,
    duplicates,
    synced: tracks.filter((track) => track.status !== SYNC_FAILED).length,
    uploaded,
    statuses,
    final,
    processed,
    adjudication,
    adjudicationStatuses,
    timedOut,
    seconds: seconds === null ? null : round(seconds, 3),
    packetsPerSecond: seconds ? round(tracks.filter(hasEnded).length / seconds) : null,
    problems: tracks.flatMap((track) => (track.problem ? [`${track.registrationId}: ${track.problem}`] : [])).slice(0, 20),
    ok: tracks.length > 0 && tracks.every((track) => (track.duplicate ? track.adjudication === true : track.status === 'PROCESSED')),
  };
}

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

const REGISTRATION_STAGE = 'query($rid: ID) { registration(registrationId: $rid) { stage status } }';

/** Runs `work` over `items` with at most `concurrency` at a time. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

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
      const zip = buildPacketZip({
        registrationId,
        centerId: options.centreId,
        machineId: options.machineId,
        creationDate: now,
        officerId: options.officerId ?? 'sample-officer',
        supervisorId: options.supervisorId ?? 'sample-supervisor',
        identity: resident.identity,
        cbeff: resident.cbeff,
        documents: resident.documents,
      });
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

  /** RID -> why it failed; a RID not in the map was synced. */
  const syncBatch = async (records: SyncRecord[]): Promise<Map<string, string>> => {
    const failures = new Map<string, string>();
    try {
      const response = await call(SYNC_PATH, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'Center-Machine-RefId': `${options.centreId}_${options.machineId}`,
          timestamp: new Date(clock()).toISOString(),
        },
        body: syncRequestBody(records, certificate, new Date(clock())),
      });
      const envelope = await envelopeOf(response, 'sync');
      const succeeded = new Set(
        ((envelope.response as { registrationId: string; status: string }[] | null) ?? [])
          .filter((item) => item.status === 'SUCCESS')
          .map((item) => item.registrationId),
      );
      const whole = firstError({ errors: envelope.errors?.filter((error) => !error.registrationId) }) ?? `HTTP ${response.status}, RID not in the answer`;
      for (const { registrationId } of records) {
        if (succeeded.has(registrationId)) continue;
        const own = envelope.errors?.find((error) => error.registrationId === registrationId);
        failures.set(registrationId, own ? `${own.errorCode}: ${own.message}` : whole);
      }
    } catch (error) {
      for (const { registrationId } of records) failures.set(registrationId, (error as Error).message);
    }
    return failures;
  };

  /** undefined when the receiver accepted the packet, else why not. */
  const upload = async (registrationId: string, sealed: Buffer): Promise<string | undefined> => {
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(sealed)], { type: 'application/octet-stream' }), `${registrationId}.zip`);
    try {
      const response = await call(UPLOAD_PATH, { method: 'POST', body: form });
      const envelope = await envelopeOf(response, 'upload');
      if (envelope.errors?.length) return firstError(envelope);
      return response.ok && envelope.response ? undefined : `HTTP ${response.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  };

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
  return summarise(tracks, plan.size, run.timedOut);
}
