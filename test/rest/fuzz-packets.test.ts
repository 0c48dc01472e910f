// Mutated registration packets (fast-check, fixed seed): the zip's bytes flipped or cut, the CBEFF
// XML broken or hostile (entities, truncation, flipped bytes), the identity and the metadata given
// hostile values. Each is synced with its true hash and uploaded as a client would: every answer
// is the spec's envelope, a refused sync or upload changes nothing, and an accepted packet ends
// REJECTED (or PROCESSED, when a mutation left it valid) with its reason recorded: never stuck,
// never FAILED as if the platform had broken. FUZZ_RUNS packets (`npm run test:fuzz`: 200).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRid } from '../../lib/packet/format.js';
import { buildPacketZip, sealPacket, syncRecordOf, syncRequestBody, type PacketInput } from '../../lib/packet/write.js';
import { packetInputOf, sampleResident } from '../../tools/registration/sample-resident.js';
import { hostileValue } from '../support/hostile.js';
import { type TestPlatform, useTestPlatform } from '../support/platform.js';
import { REGPROC, registrationClient, type RegistrationClient } from '../support/regproc.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const SEED = Number(process.env.FUZZ_SEED ?? 20261206);
const PLACE = { centre: '10001', machine: '10001' };

let t: TestPlatform;
let admin: Record<string, string>;
let client: RegistrationClient;
let certificate: string;
useTestPlatform({ PLATFORM_SAMPLE_DATA: 'true', PLATFORM_THROTTLE_ACCOUNT: '0', PLATFORM_THROTTLE_ADDRESS: '0' }, (platform, adminCookie) => {
  t = platform;
  admin = adminCookie;
});

beforeAll(async () => {
  client = await registrationClient(t, admin, PLACE);
  certificate = (await t.request('GET', '/v1/keymanager/getCertificate?applicationId=REGISTRATION', { headers: admin })).json.response.certificate;
});

/** XML that has broken CBEFF readers: entity expansion, external entities, truncation, wrong roots. */
const HOSTILE_XML = [
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]><BIR>&lol4;</BIR>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><BIR><BDB>&xxe;</BDB></BIR>',
  '<BIR><BIR><BIR><BIR>',
  `<BIR>${'<BIR>'.repeat(5_000)}${'</BIR>'.repeat(5_000)}</BIR>`,
  '<notCbeff/>',
  '',
  '\u0000\u0000',
];

/** A field of the identity, the metadata or the makers that a mutation replaces. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', '\u0000', '../x', "' OR 1=1 --", 'x'.repeat(5_000), 'UPDATE', 'DEACTIVATED', '99999'),
);

type Mutation = { what: string; zipOf: (input: PacketInput) => Buffer };

const flip = (bytes: Buffer, flips: readonly (readonly [number, number])[]) => {
  const copy = Buffer.from(bytes);
  for (const [at, value] of flips) copy[at % copy.length] = value;
  return copy;
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => ({
    what: `zip bytes flipped ${JSON.stringify(flips)}`,
    zipOf: (input: PacketInput) => flip(buildPacketZip(input), flips),
  })),
  fc.double({ min: 0, max: 1, noNaN: true }).map((share) => ({
    what: `zip cut at ${share.toFixed(3)}`,
    zipOf: (input: PacketInput) => {
      const zip = buildPacketZip(input);
      return zip.subarray(0, Math.floor(zip.length * share));
    },
  })),
  fc.constantFrom(...HOSTILE_XML.keys()).map((index) => ({
    what: `hostile CBEFF #${index}`,
    zipOf: (input: PacketInput) => buildPacketZip({ ...input, cbeff: Buffer.from(HOSTILE_XML[index]!) }),
  })),
  fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 6 }).map((flips) => ({
    what: `CBEFF bytes flipped ${JSON.stringify(flips)}`,
    zipOf: (input: PacketInput) => buildPacketZip({ ...input, cbeff: flip(input.cbeff!, flips) }),
  })),
  fc
    .dictionary(fc.constantFrom('fullName', 'dateOfBirth', 'gender', 'email', 'phone', 'UIN', 'IDSchemaVersion', 'addressLine1', '__proto__'), hostileValue, {
      minKeys: 1,
      maxKeys: 4,
    })
    .map((fields) => ({
      what: `identity fields ${Object.keys(fields).join(', ')}`,
      zipOf: (input: PacketInput) => buildPacketZip({ ...input, identity: { ...input.identity, ...fields } }),
    })),
  fc
    .record(
      {
        registrationType: hostileText,
        officerId: hostileText,
        supervisorId: hostileText,
        preRegistrationId: hostileText,
        centerId: hostileText,
        machineId: hostileText,
      },
      { requiredKeys: [] },
    )
    .filter((fields) => Object.keys(fields).length > 0)
    .map((fields) => ({
      what: `metadata ${Object.keys(fields).join(', ')}`,
      zipOf: (input: PacketInput) => buildPacketZip({ ...input, ...fields }),
    })),
);

let sequence = 50_000;

describe('mutated registration packets', () => {
  it('answers each with an envelope; a refusal changes nothing; an accepted one ends REJECTED or PROCESSED, never stuck', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async ({ what, zipOf }) => {
        const rid = makeRid(PLACE.centre, PLACE.machine, ++sequence, t.clock.now());
        // A new person each time: a packet a mutation left valid is no duplicate of an earlier one.
        const resident = sampleResident(`fuzzed-packet-${sequence}`);
        const input = packetInputOf(rid, PLACE, resident, t.clock.now());
        const sealed = sealPacket(zipOf(input), certificate);
        const before = await t.snapshot();
        const synced = await t.request('POST', `${REGPROC}/registrationstatus/sync`, {
          raw: syncRequestBody([syncRecordOf(rid, sealed)], certificate, t.clock.now()),
          headers: { ...admin, 'Center-Machine-RefId': `${PLACE.centre}_${PLACE.machine}`, timestamp: t.clock.now().toISOString() },
        });
        expect(synced.status, what).toBeLessThan(500);
        expect(synced.json.errors, what).toBeNull();
        const afterSync = await t.snapshot();
        const uploaded = await client.upload(`${rid}.zip`, sealed);
        expect(uploaded.status, what).toBeLessThan(500);
        expect('errors' in uploaded.json, what).toBe(true);
        if (uploaded.json.errors) {
          expect(uploaded.json.errors[0].errorCode, what).toMatch(/^RPR-PKR-\d{3}$/);
          expect(await t.snapshot(), what).toEqual(afterSync);
          return;
        }
        expect(afterSync).not.toEqual(before);
        const final = await client.settle(
          rid,
          (status) => status === 'REJECTED' || status === 'PROCESSED' || status === 'FAILED' || status === 'REPROCESS',
          60_000,
        );
        const { json } = await t.request('GET', `${REGPROC}/registrationtransaction/search/eng/${rid}`, { headers: admin });
        const transactions = json.response as { transactionTypeCode: string; statusCode: string; statusComment?: string }[];
        expect(['REJECTED', 'PROCESSED'], `${what}: ended ${final} ${JSON.stringify(transactions)}`).toContain(final);
        if (final === 'REJECTED') {
          const failed = transactions.filter((row) => row.statusCode !== 'SUCCESS');
          expect(failed.length, what).toBeGreaterThan(0);
          // The reason an operator reads names no source path and no driver's text.
          expect(JSON.stringify(failed), what).not.toMatch(/\/work\/|\.ts:\d+|node_modules|prisma/i);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 900_000);
});
