// A registration client for tests: builds packets of sample residents as a client builds them,
// syncs and uploads them, and follows their status (test/rest/regproc-*.test.ts).
import { expect } from 'vitest';
import { makeRid } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody, type PacketInput, type SyncRecord } from '../../lib/packet/write.js';
import { packetInputOf, sampleResident, type SampleResident } from '../../tools/registration/sample-resident.js';
import { envelopeOf, type TestPlatform } from './platform.js';

export const REGPROC = '/registrationprocessor/v1';
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['PROCESSED', 'REJECTED', 'FAILED', 'REPROCESS_FAILED']);

/** The transactions (type:status) of a new registration that went through every stage without a hitch. */
export const PROCESSED_TRANSACTIONS: readonly string[] = [
  'PACKET_RECEIVER:SUCCESS',
  'UPLOAD_PACKET:SUCCESS',
  'VALIDATE_PACKET:SUCCESS',
  'CMD_VALIDATION:SUCCESS',
  'OPERATOR_VALIDATION:SUCCESS',
  'SUPERVISOR_VALIDATION:SUCCESS',
  'BIOGRAPHIC_VERIFICATION:SUCCESS',
  'UIN_GENERATOR:SUCCESS',
  'NOTIFICATION:SUCCESS',
];

export interface BuiltPacket {
  rid: string;
  sealed: Buffer;
  resident: SampleResident;
}

export interface RegistrationClient {
  /** a packet of the sample resident of `seed` (or of `resident`, when given); `packet` overrides what the packet says (its type, makers, identity…) */
  build(seed: string, options?: { duplicateOf?: SampleResident; bdbBytes?: number; resident?: SampleResident; packet?: Partial<PacketInput> }): BuiltPacket;
  sync(records: SyncRecord[]): Promise<void>;
  upload(fileName: string, bytes: Buffer): Promise<{ status: number; headers: Headers; json: any }>;
  /** sync then upload, both expected to succeed */
  submit(built: BuiltPacket, over?: Partial<SyncRecord>): Promise<void>;
  statusOf(rid: string): Promise<string | undefined>;
  /** polls the status until `until` holds (default: a final status) or the time is up; the last status */
  settle(rid: string, until?: (status: string | undefined) => boolean, timeoutMs?: number): Promise<string | undefined>;
  /** polls the stored stage until it is `stage` */
  reachStage(rid: string, stage: string): Promise<string | null | undefined>;
}

let sequence = 0;

/** A client at a centre and machine (10001 and 10001 of the sample country by default), acting with `headers` (the admin's cookie). */
export async function registrationClient(
  t: TestPlatform,
  headers: Record<string, string>,
  place: { centre: string; machine: string } = { centre: '10001', machine: '10001' },
): Promise<RegistrationClient> {
  const { json } = await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers });
  const certificate = json.response.certificate as string;
  const statusOf = async (rid: string): Promise<string | undefined> => {
    const found = await t.request('POST', `${REGPROC}/registrationstatus/search`, {
      body: { id: 'platform.registration.status', version: '1.0', requesttime: t.clock.now().toISOString(), request: [{ registrationId: rid }] },
      headers,
    });
    return found.json.response?.[0]?.statusCode;
  };
  const client: RegistrationClient = {
    build(seed, options = {}) {
      const rid = makeRid(place.centre, place.machine, ++sequence % 100_000, t.clock.now());
      const resident = options.resident ?? sampleResident(seed, options);
      const zip = buildPacketZip(packetInputOf(rid, place, resident, t.clock.now(), options.packet));
      return { rid, sealed: sealPacket(zip, certificate), resident };
    },
    async sync(records) {
      const answer = await t.request('POST', `${REGPROC}/registrationstatus/sync`, {
        raw: syncRequestBody(records, certificate, t.clock.now()),
        headers: { ...headers, 'Center-Machine-RefId': `${place.centre}_${place.machine}`, timestamp: t.clock.now().toISOString() },
      });
      expect(answer.json.errors, JSON.stringify(answer.json.errors)).toBeNull();
      expect(answer.json.response.map((item: { status: string }) => item.status)).toEqual(records.map(() => 'SUCCESS'));
    },
    async upload(fileName, bytes) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
      const response = await fetch(`${t.baseUrl}${REGPROC}/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers });
      return { status: response.status, headers: response.headers, json: await response.json() };
    },
    async submit(built, over = {}) {
      await client.sync([syncRecordOf(built.rid, built.sealed, over)]);
      const { json, headers: answered } = await client.upload(`${built.rid}.zip`, built.sealed);
      expect(json.errors, JSON.stringify(json.errors)).toBeNull();
      expect(json.response).toEqual({ status: 'Packet is in PACKET_RECEIVED status' });
      expect(answered.get('response-signature')).toBeTruthy();
    },
    statusOf,
    async settle(rid, until = (status) => FINAL_STATUSES.has(status ?? ''), timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const status = await statusOf(rid);
        if (until(status) || Date.now() > end) return status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async reachStage(rid, stage) {
      const stageOf = async () => (await t.platform.deps.prisma.registration.findUnique({ where: { rid } }))?.stage;
      for (let i = 0; i < 300 && (await stageOf()) !== stage; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return stageOf();
    },
  };
  return client;
}

/** An adjudicator's manual verification calls, as `headers` (the admin's cookie, who adjudicates as `admin`). */
export function adjudicator(t: TestPlatform, headers: Record<string, string>) {
  return {
    assign: () =>
      t.request('POST', `${REGPROC}/manualverification/assignment`, {
        body: envelopeOf({ userId: 'admin', matchType: 'all' }, { id: 'platform.manual.verification.assignment' }),
        headers,
      }),
    decide: (regId: string, statusCode: string) =>
      t.request('POST', `${REGPROC}/manualverification/decision`, {
        body: envelopeOf(
          { matchedRefType: 'RID', mvUsrId: 'admin', reasonCode: 'checked', regId, statusCode },
          { id: 'platform.manual.verification.decision' },
        ),
        headers,
      }),
  };
}
