import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64Any, decryptRegistration } from '../../lib/crypto/envelope.js';
import { duplicatePlan, simulate, summarise, type FetchLike, type PacketTrack } from '../../lib/packet/simulator.js';
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
  it('syncs in batches of 20, uploads each packet under its RID, polls to final statuses and sums up', async () => {
    const { certificatePem: certificate, lookup } = await selfSignedKey('REGISTRATION');

    let now = 0;
    const synced = new Map<string, { packetHashValue: string; packetSize: number }>();
    const polls = new Map<string, number>();
    const batches: number[] = [];
    const json = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { headers });
    const fake: FetchLike = async (url, init = {}) => {
      now += 100;
      const { pathname, searchParams } = new URL(url);
      const cookie = (init.headers as Record<string, string> | undefined)?.cookie;
      if (pathname.endsWith('/useridPwd')) return json({ response: { token: 'jwt' } }, { 'set-cookie': 'Authorization=Platform-Tokenjwt; Path=/; HttpOnly' });
      expect(cookie).toBe('Authorization=Platform-Tokenjwt');
      if (pathname.endsWith('/getCertificate'))
        // no key of the centre and machine: the default REGISTRATION key
        return json(searchParams.has('referenceId') ? { response: null, errors: [{ errorCode: 'KER-KMS-012' }] } : { response: { certificate } });
      if (pathname.endsWith('/registrationstatus/sync')) {
        expect((init.headers as Record<string, string>)['Center-Machine-RefId']).toBe('10001_10001');
        const request = JSON.parse((await decryptRegistration(decodeBase64Any(JSON.parse(init.body as string) as string), lookup)).toString());
        batches.push(request.request.length);
        for (const record of request.request) synced.set(record.registrationId, record);
        return json({ response: request.request.map((record: any) => ({ registrationId: record.registrationId, status: 'SUCCESS' })), errors: [] });
      }
      if (pathname.endsWith('/registrationpackets')) {
        const file = (init.body as FormData).get('file') as File;
        const rid = file.name.replace(/\.zip$/, '');
        const bytes = Buffer.from(await file.arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex').toUpperCase()).toBe(synced.get(rid)!.packetHashValue);
        expect(bytes.length).toBe(synced.get(rid)!.packetSize);
        polls.set(rid, 0);
        return json({ response: { status: 'Packet is in PACKET_RECEIVED status' }, errors: null });
      }
      if (pathname.endsWith('/registrationstatus/search')) {
        const request = JSON.parse(init.body as string);
        expect(request.id).toBe('platform.registration.status');
        // each packet is PROCESSING at its first poll and PROCESSED at its second; the 23rd RID synced is REJECTED
        const rejected = [...synced.keys()][22];
        return json({
          response: request.request.map(({ registrationId }: { registrationId: string }) => {
            const seen = (polls.get(registrationId) ?? 0) + 1;
            polls.set(registrationId, seen);
            return { registrationId, statusCode: seen < 2 ? 'PROCESSING' : registrationId === rejected ? 'REJECTED' : 'PROCESSED' };
          }),
          errors: [],
        });
      }
      throw new Error(`unexpected call ${pathname}`);
    };

    const lines: string[] = [];
    const summary = await simulate(
      'http://platform.test/',
      {
        count: 45,
        centreId: '10001',
        machineId: '10001',
        concurrency: 3,
        duplicates: 0.1,
        timeoutSeconds: 60,
        credentials: { userName: 'admin', password: 'secret' },
        bdbBytes: 64,
        pollIntervalMs: 0,
        clock: () => now,
        sleep: () => new Promise((resolve) => setImmediate(resolve)),
        log: (line) => lines.push(line),
      },
      fake,
    );
    expect(batches.sort((a, b) => a - b)).toEqual([5, 20, 20]);
    expect(synced.size).toBe(45);
    expect([...synced.keys()].every((rid) => /^1000110001\d{19}$/.test(rid))).toBe(true);
    expect(summary).toMatchObject({
      count: 45,
      duplicates: 4,
      synced: 45,
      uploaded: 45,
      statuses: { PROCESSED: 44, REJECTED: 1 },
      final: 45,
      processed: 44,
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
});
