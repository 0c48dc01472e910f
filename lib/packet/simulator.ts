import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { buildPacketZip, makeRid, sealPacket, syncRecordOf, syncRequestBody, type SyncRecord } from './format.js';
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
const LOGIN_PATH = '/v1/authmanager/authenticate/internal/useridPwd';
/** MOSIP's client syncs up to 20 RIDs a call; the platform accepts 100 (search too). */
export const SYNC_BATCH = 20;
const SEARCH_BATCH = 100;
export const FINAL_STATUSES = ['PROCESSED', 'REJECTED', 'FAILED', 'REPROCESS_FAILED'] as const;
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

interface Envelope {
  response?: unknown;
  errors?: { errorCode?: string; message?: string; registrationId?: string | null }[] | null;
}

async function envelopeOf(response: Response, what: string): Promise<Envelope> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`${what}: HTTP ${response.status}, not a JSON answer`);
  }
}

const firstError = (envelope: Envelope) => {
  const error = envelope.errors?.[0];
  return error ? `${error.errorCode ?? 'error'}: ${error.message ?? ''}` : undefined;
};

const requestEnvelope = (id: string, request: unknown) => JSON.stringify({ id, version: '1.0', requesttime: new Date().toISOString(), metadata: {}, request });

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
  finalAt?: number;
  /** why it failed before the pipeline (sync or upload), code and message, never personal data */
  problem?: string;
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
  timedOut: boolean;
  /** from the first upload to the last final status */
  seconds: number | null;
  packetsPerSecond: number | null;
  /** the first few sync and upload failures */
  problems: string[];
  ok: boolean;
}

const isFinal = (status: string) => (FINAL_STATUSES as readonly string[]).includes(status);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The summary of a run: counts per status and throughput from the first upload to the last final status. */
export function summarise(tracks: readonly PacketTrack[], duplicates: number, timedOut: boolean): SimulationSummary {
  const statuses: Record<string, number> = {};
  for (const track of tracks) statuses[track.status] = (statuses[track.status] ?? 0) + 1;
  // Loops, not Math.min(...spread): a run may hold more packets than a call takes arguments.
  let firstUpload = Infinity;
  let lastFinal = -Infinity;
  let uploaded = 0;
  for (const track of tracks) {
    if (track.uploadedAt !== undefined) {
      uploaded++;
      firstUpload = Math.min(firstUpload, track.uploadedAt);
    }
    if (track.finalAt !== undefined) lastFinal = Math.max(lastFinal, track.finalAt);
  }
  const final = tracks.filter((track) => isFinal(track.status)).length;
  const seconds = uploaded && lastFinal > -Infinity ? (lastFinal - firstUpload) / 1000 : null;
  const processed = statuses.PROCESSED ?? 0;
  return {
    count: tracks.length,
    duplicates,
    synced: tracks.filter((track) => track.status !== SYNC_FAILED).length,
    uploaded,
    statuses,
    final,
    processed,
    timedOut,
    seconds: seconds === null ? null : round(seconds, 3),
    packetsPerSecond: seconds ? round(final / seconds) : null,
    problems: tracks.flatMap((track) => (track.problem ? [`${track.registrationId}: ${track.problem}`] : [])).slice(0, 20),
    ok: tracks.length > 0 && processed === tracks.length,
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
    if (response.status !== 401 || !credentials) return response;
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
  const counters = { synced: 0, uploaded: 0 };

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
      const track: PacketTrack = { registrationId, status: 'UPLOAD_PENDING' };
      tracks.push(track);
      return { track, sealed, record: syncRecordOf(registrationId, sealed, { supervisorComment: 'simulated registration' }) };
    });
    const outcome = await syncBatch(packets.map((packet) => packet.record));
    for (const packet of packets) {
      const failure = outcome.get(packet.track.registrationId);
      if (failure) Object.assign(packet.track, { status: SYNC_FAILED, problem: `sync ${failure}` });
      else counters.synced++;
    }
    for (const packet of packets) {
      if (packet.track.status === SYNC_FAILED) continue;
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
  /** Polls the uploaded, not yet final packets until all are final or the timeout has passed since the last upload. */
  const poll = async () => {
    let last = '';
    for (;;) {
      const pending = tracks.filter((track) => track.uploadedAt !== undefined && !isFinal(track.status));
      if (run.uploadsDoneAt !== undefined && !pending.length) return;
      if (run.uploadsDoneAt !== undefined && clock() - run.uploadsDoneAt > options.timeoutSeconds * 1000) {
        run.timedOut = true;
        return;
      }
      for (let at = 0; at < pending.length; at += SEARCH_BATCH) await searchStatuses(pending.slice(at, at + SEARCH_BATCH));
      const line = Object.entries(summarise(tracks, plan.size, false).statuses)
        .map(([status, n]) => `${status} ${n}`)
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
