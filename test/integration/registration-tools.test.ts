// The operators' tools as a newcomer runs them: `npm run packet` builds a valid encrypted packet and its
// sync body from the sample country's example files; `npm run simulate -- --start` starts a platform
// on the embedded database, registers residents and follows them to PROCESSED, in one command (with
// `--abis`, over ActiveMQ and the mock ABIS, duplicates to manual adjudication).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { decodeBase64Any, decryptRegistration } from '../../lib/crypto/envelope.js';
import { packetProblems, readPacketZip } from '../../lib/packet/format.js';
import { selfSignedKey } from '../support/certificates.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), 'platform-tools-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('npm run packet builds a packet that decrypts with the REGISTRATION key, has no problems, and its sync body', async () => {
  const { certificatePem: certificate, lookup } = await selfSignedKey('REGISTRATION');
  writeFileSync(path.join(folder, 'cert.pem'), certificate);
  const sample = (name: string) => path.join('subgraphs/regproc/sample', name);
  await run(
    'npm',
    [
      'run',
      'packet',
      '--',
      sample('identity.json'),
      sample('proof-of-address.pdf'),
      '--cbeff',
      sample('individualBiometrics_bio_CBEFF.xml'),
      '--certificate',
      path.join(folder, 'cert.pem'),
      '--out',
      folder,
    ],
    { cwd: ROOT, timeout: 120_000 },
  );
  const packetFile = readdirSync(folder).find((name) => /^\d{29}\.zip$/.test(name))!;
  const rid = packetFile.slice(0, 29);
  const sealed = readFileSync(path.join(folder, packetFile));
  const zip = await decryptRegistration(sealed, lookup);
  const packet = await readPacketZip(zip, { maxUncompressedBytes: 64 * 1024 * 1024 });
  expect(packetProblems(packet)).toEqual([]);
  expect(packet.meta.registrationId).toBe(rid);
  expect(packet.cbeff).not.toBeNull();

  const body = JSON.parse(readFileSync(path.join(folder, `${rid}.sync.json`), 'utf8')) as string;
  const sync = JSON.parse((await decryptRegistration(decodeBase64Any(body), lookup)).toString('utf8')) as {
    id: string;
    request: { registrationId: string; packetHashValue: string; packetSize: number }[];
  };
  expect(sync.id).toBe('platform.registration.sync');
  expect(sync.request[0]).toMatchObject({
    registrationId: rid,
    packetHashValue: createHash('sha256').update(sealed).digest('hex').toUpperCase(),
    packetSize: sealed.length,
  });
});

it('npm run simulate -- --start --prereg: residents book online, the centre fetches their applications, packets consume them, all on the embedded database', async () => {
  const { stdout } = await run('npm', ['run', '--silent', 'simulate', '--', '--start', '--prereg', '--count', '3', '--json'], {
    cwd: ROOT,
    timeout: 240_000,
  });
  const summary = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { ok: boolean; processed: number; statuses: Record<string, number> };
  expect(summary).toMatchObject({
    ok: true,
    processed: 3,
    statuses: { PROCESSED: 3 },
    preRegistration: { booked: 3, synced: 3, fetched: 3, consumed: 3, processed: 3 },
  });
}, 240_000);

it('npm run simulate -- --start --abis sends the duplicates to manual adjudication through the mock ABIS, the rest to PROCESSED', async () => {
  // 6 residents at a share of 0.34: residents 2 and 5 copy resident 1's biometrics (duplicatePlan).
  // execFile rejects on any exit code but 0.
  const { stdout } = await run('npm', ['run', '--silent', 'simulate', '--', '--start', '--abis', '--count', '6', '--duplicates', '0.34', '--json'], {
    cwd: ROOT,
    timeout: 300_000,
  });
  const summary = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>;
  expect(summary).toMatchObject({
    ok: true,
    count: 6,
    duplicates: 2,
    processed: 4,
    statuses: { PROCESSED: 4, PROCESSING: 2 },
    adjudication: 2,
    adjudicationStatuses: { PROCESSING: 2 },
    timedOut: false,
  });
}, 300_000);
