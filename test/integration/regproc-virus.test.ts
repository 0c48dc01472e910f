// The packet receiver's virus scan against a real clamd (scripts/clamd.sh: offline, the platform's EICAR
// test signatures): an infected upload is refused with RPR-PKR-010 and changes nothing; a clean one is
// received with its VIRUS_SCAN transaction; /health shows the scanner UP.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { makeRid } from '../../lib/packet/format.js';
import { syncRecordOf } from '../../lib/packet/write.js';
import { expectRejected } from '../support/assertions.js';
import { type TestPlatform, useTestPlatform } from '../support/platform.js';
import { REGPROC as BASE, registrationClient, type RegistrationClient } from '../support/regproc.js';

const CLAMD_URL = process.env.CLAMD_URL || 'tcp://127.0.0.1:3310';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Two halves, so that this file is no signature hit itself.
const EICAR = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANT' + 'IVIRUS-TEST-FILE!$H+H*', 'latin1');

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;

beforeAll(async () => {
  await promisify(execFile)('bash', ['scripts/clamd.sh', 'start'], { cwd: ROOT, timeout: 300_000 });
}, 300_000);
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', CLAMD_URL, JOBS_RUN: 'false' }, (platform, cookie) => {
  t = platform;
  admin = cookie;
});
beforeAll(async () => {
  client = await registrationClient(t, admin);
});

it('refuses an infected packet with RPR-PKR-010, receives a clean one after a scan, and reports the scanner in /health', async () => {
  // Sequence 0: the client's own RIDs count from 1.
  const infectedRid = makeRid('10001', '10001', 0, t.clock.now());
  const infected = Buffer.concat([Buffer.from('PK'), EICAR]);
  await client.sync([syncRecordOf(infectedRid, infected)]);
  await expectRejected(t, () => client.upload(`${infectedRid}.zip`, infected), 'RPR-PKR-010', /Virus was found/);

  const clean = client.build('virus-clean');
  await client.submit(clean);
  const { json } = await t.request('GET', `${BASE}/registrationtransaction/search/eng/${clean.rid}`, { headers: admin });
  expect(json.response.map((row: { transactionTypeCode: string }) => row.transactionTypeCode)).toEqual(['VIRUS_SCAN', 'PACKET_RECEIVER']);

  const health = (await t.request('GET', '/health')).json;
  expect(health.components.virusScanner.status).toBe('UP');
});
