import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64Any, decryptRegistration } from '../../lib/crypto/envelope.js';
import { bdbDigests, parseCbeff } from '../../lib/packet/cbeff.js';
import { readPacketZip } from '../../lib/packet/format.js';
import type { FetchLike } from '../../tools/registration/client.js';
import { duplicatePlan, simulate, type SimulationOptions } from '../../tools/registration/simulator.js';
import { summarise, type PacketTrack } from '../../tools/registration/summary.js';
import { parseSimulateArgs } from '../../scripts/simulate.js';
import { selfSignedKey } from '../support/certificates.js';

describe('npm run simulate arguments', () => {
  it('reads every option, with the documented defaults', () => {
    expect(parseSimulateArgs(['--count', '50'])).toEqual({
      count: 50,
      centreId: '10001',
      machineId: '10001',
      base: 'http://localhost:8080',
      concurrency: 8,
      duplicates: 0,
      timeoutSeconds: 600,
      json: false,
      start: false,
      abis: false,
      prereg: false,
    });
    expect(
      parseSimulateArgs([
        '--count=3',
        '--centre',
        '10002',
        '--machine',
        '10003',
        '--base',
        'https://id.example.org/',
        '--concurrency',
        '2',
        '--duplicates',
        '0.25',
        '--timeout',
        '30',
        '--certificate',
        'cert.pem',
        '--json',
        '--start',
        '--abis',
        '--prereg',
      ]),
    ).toEqual({
      count: 3,
      centreId: '10002',
      machineId: '10003',
      base: 'https://id.example.org',
      concurrency: 2,
      duplicates: 0.25,
      timeoutSeconds: 30,
      certificate: 'cert.pem',
      json: true,
      start: true,
      abis: true,
      prereg: true,
    });
    expect(parseSimulateArgs(['--abis', '--count', '6', '--start', '--duplicates', '0.34'])).toMatchObject({
      count: 6,
      duplicates: 0.34,
      start: true,
      abis: true,
    });
  });

  it('refuses what it cannot use, naming the option', () => {
    const refused = (argv: string[], message: RegExp) => expect(() => parseSimulateArgs(argv)).toThrow(message);
    refused([], /--count is required/);
    for (const count of ['0', '1.5', 'many', '', '100000']) refused(['--count', count], /--count must be a whole number from 1 to 99999/);
    refused(['--count', '5', '--duplicates', '1'], /--duplicates must be a share/);
    refused(['--count', '5', '--duplicates=-0.1'], /--duplicates must be a share/);
    refused(['--count', '5', '--concurrency', '0'], /--concurrency must be/);
    refused(['--count', '5', '--timeout', '0'], /--timeout must be/);
    refused(['--count', '5', '--centre', '1000001'], /--centre must be 1 to 5 digits/);
    refused(['--count', '5', '--base', 'localhost:8080'], /--base must be an http\(s\) URL/);
    refused(['--count', '5', '--colour', 'blue'], /Unknown option '--colour'[\s\S]*usage: npm run simulate/);
    refused(['--count', '5', 'extra'], /positional/);
    // the simulator sets up only a platform it starts for the mock ABIS
    refused(['--count', '5', '--abis'], /--abis needs --start[\s\S]*usage: npm run simulate/);
    refused(['--count', '5', '--abis', '--base', 'http://localhost:8080'], /--abis needs --start/);
    refused(['--count', '5', '--start', '--abis=yes'], /--abis' does not take an argument/);
  });
});

describe('the summary', () => {
  it('counts packets per status and the throughput from the first upload to the last final status', () => {
    const tracks: PacketTrack[] = [
      { registrationId: 'a', status: 'PROCESSED', uploadedAt: 1_000, finalAt: 6_000 },
      { registrationId: 'b', status: 'PROCESSED', uploadedAt: 2_000, finalAt: 11_000 },
      { registrationId: 'c', status: 'REJECTED', uploadedAt: 3_000, finalAt: 9_000 },
      { registrationId: 'd', status: 'PROCESSING', uploadedAt: 4_000 },
      { registrationId: 'e', status: 'SYNC_FAILED', problem: 'sync RPR-RGS-015: invalid' },
      { registrationId: 'f', status: 'UPLOAD_FAILED', problem: 'upload RPR-PKR-009: hash' },
    ];
    expect(summarise(tracks, 1, true)).toEqual({
      count: 6,
      duplicates: 1,
      synced: 5,
      uploaded: 4,
      statuses: { PROCESSED: 2, REJECTED: 1, PROCESSING: 1, SYNC_FAILED: 1, UPLOAD_FAILED: 1 },
      final: 3,
      processed: 2,
      adjudication: 0,
      adjudicationStatuses: {},
      timedOut: true,
      // 3 final statuses over 10 s (1 000 ms to 11 000 ms)
      seconds: 10,
      packetsPerSecond: 0.3,
      problems: ['e: sync RPR-RGS-015: invalid', 'f: upload RPR-PKR-009: hash'],
      ok: false,
    });
    const done = summarise([{ registrationId: 'a', status: 'PROCESSED', uploadedAt: 0, finalAt: 1_500 }], 0, false);
    expect(done).toMatchObject({ final: 1, seconds: 1.5, packetsPerSecond: 0.67, ok: true });
    // nothing final yet: no throughput rather than a division by zero
    expect(summarise([{ registrationId: 'a', status: 'PROCESSING', uploadedAt: 0 }], 0, true)).toMatchObject({
      seconds: null,
      packetsPerSecond: null,
      ok: false,
    });
  });

  it('counts duplicates in manual adjudication as ended, and is ok only when every duplicate is there and every other packet PROCESSED', () => {
    const tracks: PacketTrack[] = [
      { registrationId: 'a', status: 'PROCESSED', uploadedAt: 1_000, finalAt: 3_000 },
      { registrationId: 'b', status: 'PROCESSED', uploadedAt: 2_000, finalAt: 4_000 },
      { registrationId: 'c', status: 'PROCESSING', uploadedAt: 5_000, finalAt: 9_000, duplicate: true, adjudication: true },
      { registrationId: 'd', status: 'PROCESSING', uploadedAt: 6_000, finalAt: 11_000, duplicate: true, adjudication: true },
    ];
    expect(summarise(tracks, 2, false)).toMatchObject({
      statuses: { PROCESSED: 2, PROCESSING: 2 },
      final: 2,
      processed: 2,
      adjudication: 2,
      adjudicationStatuses: { PROCESSING: 2 },
      // 4 ended over 10 s (1 000 ms to 11 000 ms)
      seconds: 10,
      packetsPerSecond: 0.4,
      ok: true,
    });
    // a duplicate the de-duplication let through, or one still on its way, is not what the run expects
    const through = tracks.map((track) => (track.registrationId === 'd' ? { ...track, status: 'PROCESSED', adjudication: undefined } : track));
    expect(summarise(through, 2, false)).toMatchObject({ processed: 3, adjudication: 1, ok: false });
    const waiting = tracks.map((track) => (track.registrationId === 'd' ? { ...track, adjudication: undefined, finalAt: undefined } : track));
    expect(summarise(waiting, 2, true)).toMatchObject({ adjudication: 1, adjudicationStatuses: { PROCESSING: 1 }, ok: false });
    // only a planned duplicate counts: another packet held for adjudication is not PROCESSED
    expect(summarise([{ registrationId: 'e', status: 'PROCESSING', uploadedAt: 0, adjudication: true }], 0, false).ok).toBe(false);
  });

  it('spreads the duplicate share over the run, each copying an earlier resident that is not a copy', () => {
    const plan = duplicatePlan(100, 0.1);
    expect(plan.size).toBe(10);
    for (const [index, original] of plan) {
      expect(original).toBeLessThan(index);
      expect(plan.has(original)).toBe(false);
    }
    expect(duplicatePlan(100, 0).size).toBe(0);
    expect(duplicatePlan(1, 0.5).size).toBe(0);
  });
});

describe('the flow against a tiny fake platform', () => {
  interface FakeRegistration {
    polls: number;
    /** the fake's de-duplication: the biometrics of a packet uploaded before */
    heldFor?: string;
  }
  interface FakeRules {
    /** the status a search answers, at the `polls`-th poll of the RID (from 1) */
    status(rid: string, registration: FakeRegistration): string;
    /** the stage the portal graph answers */
    stage(rid: string, registration: FakeRegistration): string;
    /** answers the first GraphQL call KER-ATH-401, as an expired token */
    expireOnce?: boolean;
  }

  /** The platform's REST and GraphQL calls the simulator makes, checked, with the rules' answers. */
  async function fakePlatform(rules: FakeRules) {
    const { certificatePem: certificate, lookup } = await selfSignedKey('REGISTRATION');
    const state = {
      now: 0,
      signIns: 0,
      batches: [] as number[],
      synced: new Map<string, { packetHashValue: string; packetSize: number }>(),
      registrations: new Map<string, FakeRegistration>(),
      /** for each held packet: whether the one it copies was PROCESSED when it arrived */
      originalsDecided: [] as boolean[],
      stageQueries: 0,
    };
    const biometricsOwner = new Map<string, string>();
    let expire = rules.expireOnce ?? false;
    const json = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { headers });
    const fake: FetchLike = async (url, init = {}) => {
      state.now += 100;
      const { pathname, searchParams } = new URL(url);
      const cookie = (init.headers as Record<string, string> | undefined)?.cookie;
      if (pathname.endsWith('/useridPwd')) {
        state.signIns++;
        return json({ response: { token: 'jwt' } }, { 'set-cookie': 'Authorization=Platform-Tokenjwt; Path=/; HttpOnly' });
      }
      expect(cookie).toBe('Authorization=Platform-Tokenjwt');
      if (pathname.endsWith('/getCertificate'))
        // no key of the centre and machine: the default REGISTRATION key
        return json(searchParams.has('referenceId') ? { response: null, errors: [{ errorCode: 'KER-KMS-012' }] } : { response: { certificate } });
      if (pathname.endsWith('/registrationstatus/sync')) {
        expect((init.headers as Record<string, string>)['Center-Machine-RefId']).toBe('10001_10001');
        const request = JSON.parse((await decryptRegistration(decodeBase64Any(JSON.parse(init.body as string) as string), lookup)).toString());
        state.batches.push(request.request.length);
        for (const record of request.request) state.synced.set(record.registrationId, record);
        return json({ response: request.request.map((record: any) => ({ registrationId: record.registrationId, status: 'SUCCESS' })), errors: [] });
      }
      if (pathname.endsWith('/registrationpackets')) {
        const file = (init.body as FormData).get('file') as File;
        const rid = file.name.replace(/\.zip$/, '');
        const bytes = Buffer.from(await file.arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex').toUpperCase()).toBe(state.synced.get(rid)!.packetHashValue);
        expect(bytes.length).toBe(state.synced.get(rid)!.packetSize);
        const packet = await readPacketZip(await decryptRegistration(bytes, lookup), { maxUncompressedBytes: 16 * 1024 * 1024 });
        const biometrics = bdbDigests(parseCbeff(packet.cbeff!)).join();
        const heldFor = biometricsOwner.get(biometrics);
        if (heldFor) state.originalsDecided.push(rules.status(heldFor, state.registrations.get(heldFor)!) === 'PROCESSED');
        else biometricsOwner.set(biometrics, rid);
        state.registrations.set(rid, { polls: 0, ...(heldFor ? { heldFor } : {}) });
        return json({ response: { status: 'Packet is in PACKET_RECEIVED status' }, errors: null });
      }
      if (pathname.endsWith('/registrationstatus/search')) {
        const request = JSON.parse(init.body as string);
        expect(request.id).toBe('platform.registration.status');
        return json({
          response: request.request.map(({ registrationId }: { registrationId: string }) => {
            const registration = state.registrations.get(registrationId)!;
            registration.polls++;
            return { registrationId, statusCode: rules.status(registrationId, registration) };
          }),
          errors: [],
        });
      }
      if (pathname === '/graphql') {
        const { query, variables } = JSON.parse(init.body as string);
        expect(query).toMatch(/registration\(registrationId: \$rid\) \{ stage status \}/);
        if (expire) {
          expire = false;
          return json({
            errors: [{ message: 'Authentication Failed: invalid or expired token', extensions: { code: 'KER-ATH-401' } }],
            data: { registration: null },
          });
        }
        state.stageQueries++;
        const registration = state.registrations.get(variables.rid)!;
        return json({ data: { registration: { stage: rules.stage(variables.rid, registration), status: rules.status(variables.rid, registration) } } });
      }
      throw new Error(`unexpected call ${pathname}`);
    };
    return { state, fake };
  }

  const run = (state: { now: number }, fake: FetchLike, options: Pick<SimulationOptions, 'count' | 'concurrency' | 'duplicates'>, lines: string[]) =>
    simulate(
      'http://platform.test/',
      {
        ...options,
        centreId: '10001',
        machineId: '10001',
        timeoutSeconds: 60,
        credentials: { userName: 'admin', password: 'secret' },
        bdbBytes: 64,
        pollIntervalMs: 0,
        clock: () => state.now,
        sleep: () => new Promise((resolve) => setImmediate(resolve)),
        log: (line) => lines.push(line),
      },
      fake,
    );

  it('syncs in batches of 20, uploads each packet under its RID, polls to final statuses and sums up', async () => {
    // each packet is PROCESSING at its first poll and PROCESSED at its second; the 23rd RID synced is REJECTED
    const { state, fake } = await fakePlatform({
      status: (rid, { polls }) => (polls < 2 ? 'PROCESSING' : rid === [...state.synced.keys()][22] ? 'REJECTED' : 'PROCESSED'),
      stage: () => 'BIOGRAPHIC_VERIFICATION',
    });
    const lines: string[] = [];
    const summary = await run(state, fake, { count: 45, concurrency: 3, duplicates: 0.1 }, lines);
    expect(state.batches.sort((a, b) => a - b)).toEqual([5, 20, 20]);
    expect(state.synced.size).toBe(45);
    expect([...state.synced.keys()].every((rid) => /^1000110001\d{19}$/.test(rid))).toBe(true);
    expect(summary).toMatchObject({
      count: 45,
      duplicates: 4,
      synced: 45,
      uploaded: 45,
      statuses: { PROCESSED: 44, REJECTED: 1 },
      final: 45,
      processed: 44,
      adjudication: 0,
      timedOut: false,
      problems: [],
      ok: false,
    });
    expect(summary.seconds).toBeGreaterThan(0);
    expect(summary.packetsPerSecond).toBe(Math.round((45 / summary.seconds!) * 100) / 100);
    expect(lines[0]).toBe('registering 45 residents (4 duplicates) at centre 10001, machine 10001');
    expect(lines.some((line) => line.startsWith('synced 45/45, uploaded 45/45'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^statuses: (PROCESSED 44, REJECTED 1|REJECTED 1, PROCESSED 44) /);
  });

  it('uploads a duplicate once its original is decided and ends it in manual adjudication, asking the graph for its stage', async () => {
    // a held packet stays PROCESSING and reaches MANUAL_ADJUDICATION at its second poll; the rest are PROCESSED then
    const { state, fake } = await fakePlatform({
      status: (_, { polls, heldFor }) => (polls < 2 || heldFor ? 'PROCESSING' : 'PROCESSED'),
      stage: (_, { polls, heldFor }) => (heldFor && polls >= 2 ? 'MANUAL_ADJUDICATION' : 'BIOGRAPHIC_VERIFICATION'),
      expireOnce: true,
    });
    const lines: string[] = [];
    const summary = await run(state, fake, { count: 6, concurrency: 2, duplicates: 0.34 }, lines);
    expect(summary).toMatchObject({
      count: 6,
      duplicates: 2,
      uploaded: 6,
      statuses: { PROCESSED: 4, PROCESSING: 2 },
      final: 4,
      processed: 4,
      adjudication: 2,
      adjudicationStatuses: { PROCESSING: 2 },
      timedOut: false,
      ok: true,
    });
    // both copies arrived after resident 1 was PROCESSED, so neither raced it through de-duplication
    expect(state.originalsDecided).toEqual([true, true]);
    // the expired token: signed in again, and the stage asked again
    expect(state.signIns).toBe(2);
    expect(state.stageQueries).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toMatch(/^statuses: PROCESSED 4, PROCESSING 2 \(2 in adjudication\) /);
  });
});
