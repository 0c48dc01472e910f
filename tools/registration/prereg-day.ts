import { generateKeyPairSync, randomInt, constants, createDecipheriv, privateDecrypt, type KeyObject } from 'node:crypto';
import { readZip } from '../../lib/packet/zip.js';
import { envelopeOf, firstError, graphqlData, graphqlRequest, GRAPHQL_PATH, type SessionCall, type FetchLike } from './client.js';
import type { SampleResident } from './sample-resident.js';

/**
 * The pre-registration half of a simulated day (`npm run simulate -- --prereg`):
 * residents apply and book online (each signs in by OTP, read from the outbox
 * as the development platform keeps it), then the centre syncs its day's ids
 * and fetches each application for its machine, as MOSIP's registration
 * client does, decrypting with the machine's own key.
 */

const PREREG = '/preregistration/v1';
const envelope = (id: string, request: unknown) =>
  JSON.stringify({ id: `platform.pre-registration.${id}`, version: '1.0', requesttime: new Date().toISOString(), request });
const json = (body: string, cookie?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  body,
});

/** A booked applicant: their application and where they come. */
export interface Booked {
  index: number;
  preRegistrationId: string;
  /** the applicant's own session, to follow their application to its end */
  cookie: string;
}

/** A call's `response`, or an error naming its first refusal. */
async function answerOf<T>(response: Response, what: string): Promise<T> {
  const answer = await envelopeOf(response, what);
  if (answer.errors?.length) throw new Error(`${what}: ${firstError(answer)}`);
  return answer.response as T;
}

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
  return { index, preRegistrationId: created.preRegistrationId, cookie };
}

/** The machine's key pair: its public half registered for the machine (as a registration client does at its first start). */
export async function machineKey(admin: SessionCall, machineName: string): Promise<KeyObject> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const response = await admin(
    '/v1/syncdata/tpm/publickey',
    json(
      JSON.stringify({
        id: 'platform.syncdata.tpm.publickey',
        version: '1.0',
        requesttime: new Date().toISOString(),
        request: { machineName, publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') },
      }),
    ),
  );
  await answerOf(response, 'machine key');
  return privateKey;
}

/** The ids booked at the centre from today for `days` days (POST /sync, as the centre's staff). */
export async function syncedIds(admin: SessionCall, centreId: string, days: number): Promise<string[]> {
  const from = new Date();
  const to = new Date(from.getTime() + days * 86_400_000);
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const answer = await answerOf<{ preRegistrationIds: Record<string, string> | null }>(
    await admin(`${PREREG}/sync`, json(envelope('datasync', { registrationCenterId: centreId, fromDate: day(from), toDate: day(to) }))),
    'sync',
  );
  return Object.keys(answer.preRegistrationIds ?? {});
}

/** MOSIP's client format: RSA-OAEP-SHA256(key) | IV 12 | AAD 32 | AES-256-GCM with its tag. */
function openForMachine(privateKey: KeyObject, sealed: Buffer): Buffer {
  const key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, sealed.subarray(0, 256));
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(256, 268));
  decipher.setAAD(sealed.subarray(268, 300));
  const body = sealed.subarray(300);
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
}

/** One application as the centre's machine fetches it (GET /sync/{id}/{machine}): the identity the resident gave. */
export async function fetchedIdentity(
  admin: SessionCall,
  preRegistrationId: string,
  machineId: string,
  privateKey: KeyObject,
): Promise<Record<string, unknown>> {
  const answer = await answerOf<{ 'zip-bytes': string }>(await admin(`${PREREG}/sync/${preRegistrationId}/${machineId}`, { method: 'GET' }), 'fetch');
  const zip = openForMachine(privateKey, Buffer.from(answer['zip-bytes'], 'base64'));
  const entry = (await readZip(zip, { maxUncompressedBytes: 64 * 1024 * 1024 })).find((file) => file.name === 'ID.json');
  if (!entry) throw new Error(`the application ${preRegistrationId} came without ID.json`);
  return (JSON.parse(entry.data.toString('utf8')) as { identity: Record<string, unknown> }).identity;
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
