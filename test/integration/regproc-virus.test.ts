// The packet receiver's virus scan against a real clamd (scripts/clamd.sh: offline, the platform's EICAR
// test signatures): an infected upload is refused with RPR-PKR-010 and changes nothing; a clean one is
// received with its VIRUS_SCAN transaction; /health shows the scanner UP.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { buildPacketZip, makeRid, sealPacket, syncRecordOf, syncRequestBody } from '../../lib/packet/format.js';
import { sampleResident } from '../../lib/packet/sample-resident.js';
import { expectRejected } from '../support/assertions.js';
import { type TestPlatform, useTestPlatform } from '../support/platform.js';

const CLAMD_URL = process.env.CLAMD_URL || 'tcp://127.0.0.1:3310';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Two halves, so that this file is no signature hit itself.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANT' + 'IVIRUS-TEST-FILE!$H+H*', 'latin1');
const BASE = '/registrationprocessor/v1';

let t: TestPlatform;
let admin: Record<string, string>;
let certificate: string;

beforeAll(async () => {
  await promisify(execFile)('bash', ['scripts/clamd.sh', 'start'], { cwd: ROOT, timeout: 300_000 });
}, 300_000);
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', CLAMD_URL, JOBS_RUN: 'false' }, (platform, cookie) => {
  t = platform;
  admin = cookie;
});
beforeAll(async () => {
  certificate = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: admin })).json.response.certificate;
});

const upload = async (rid: string, bytes: Buffer) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), `${rid}.zip`);
  const response = await fetch(`${t.baseUrl}${BASE}/packetreceiver/registrationpackets`, { method: 'POST', body: form, headers: admin });
  return { status: response.status, json: await response.json() };
};

const sync = (rid: string, bytes: Buffer) =>
  t.request('POST', `${BASE}/registrationstatus/sync`, {
    raw: syncRequestBody([syncRecordOf(rid, bytes)], certificate, t.clock.now()),
    headers: { ...admin, 'Center-Machine-RefId': '10001_10001', timestamp: t.clock.now().toISOString() },
  });

it('refuses an infected packet with RPR-PKR-010, receives a clean one after a scan, and reports the scanner in /health', async () => {
  const infectedRid = makeRid('10001', '10001', 1, t.clock.now());
  const infected = Buffer.concat([Buffer.from('PK'), EICAR]);
  await sync(infectedRid, infected);
  await expectRejected(t, () => upload(infectedRid, infected), 'RPR-PKR-010', /Virus was found/);

  const cleanRid = makeRid('10001', '10001', 2, t.clock.now());
  const resident = sampleResident('virus-clean');
  const sealed = sealPacket(
    buildPacketZip({
      registrationId: cleanRid,
      centerId: '10001',
      machineId: '10001',
      creationDate: t.clock.now(),
      officerId: 'sample-officer',
      supervisorId: 'sample-supervisor',
      identity: resident.identity,
      cbeff: resident.cbeff,
      documents: resident.documents,
    }),
    certificate,
  );
  await sync(cleanRid, sealed);
  expect((await upload(cleanRid, sealed)).json.errors).toBeNull();
  const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${cleanRid}`, { headers: admin });
  expect(json.response.map((row: { transactionTypeCode: string }) => row.transactionTypeCode)).toEqual(['VIRUS_SCAN', 'PACKET_RECEIVER']);

  const health = (await t.request('GET', '/health')).json;
  expect(health.components.virusScanner.status).toBe('UP');
});
