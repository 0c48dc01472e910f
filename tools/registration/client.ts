import { readFileSync } from 'node:fs';
import path from 'node:path';
import { syncRequestBody, type SyncRecord } from '../../lib/packet/write.js';

/**
 * The platform's public REST and GraphQL as the development tools call them
 * (the simulator, `npm run packet`, the mock ABIS's set-up): the admin's
 * sign-in, envelopes, GraphQL payloads and the REGISTRATION certificate.
 */

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export const SYNC_PATH = '/registrationprocessor/v1/registrationstatus/sync';
export const UPLOAD_PATH = '/registrationprocessor/v1/packetreceiver/registrationpackets';
export const SEARCH_PATH = '/registrationprocessor/v1/registrationstatus/search';
export const GRAPHQL_PATH = '/graphql';
const LOGIN_PATH = '/v1/authmanager/authenticate/internal/useridPwd';
/** MOSIP's client syncs up to 20 RIDs a call; the platform accepts 100 (search too). */
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

export const requestEnvelope = (id: string, request: unknown) =>
  JSON.stringify({ id, version: '1.0', requesttime: new Date().toISOString(), metadata: {}, request });

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
export async function graphqlTokenRefused(response: Response): Promise<boolean> {
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

/** A call with the tool's session (it signs in again when the token expired). */
export type SessionCall = (pathname: string, init: RequestInit) => Promise<Response>;

/** Syncs RIDs for a centre and machine in one call: RID -> why it failed; a RID not in the map was synced. */
export async function syncRecords(call: SessionCall, refId: string, certificate: string, records: SyncRecord[], now: Date): Promise<Map<string, string>> {
  const failures = new Map<string, string>();
  try {
    const response = await call(SYNC_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Center-Machine-RefId': refId, timestamp: now.toISOString() },
      body: syncRequestBody(records, certificate, now),
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
}

/** Uploads a sealed packet: undefined when the receiver accepted it, else why not. */
export async function uploadPacket(call: SessionCall, registrationId: string, sealed: Buffer): Promise<string | undefined> {
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
}
