import { constants, createCipheriv, createHash, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCbeff } from '../../lib/packet/cbeff.js';
import { decodeShareBody, decryptShare, readBiometrics } from '../../tools/mock-abis/datashare.js';
import { Expectations, parseExpectations } from '../../tools/mock-abis/expectations.js';
import { messageTypeOf } from '../../tools/mock-abis/queue.js';
import { handleRequest, isValidTime, type BiometricEntry, type FetchResult, type ProtocolContext } from '../../tools/mock-abis/protocol.js';
import { MemoryStore } from '../../tools/mock-abis/store.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const A = sha('finger-a');
const B = sha('finger-b');
const C = sha('iris-c');
const NOW = new Date('2026-01-02T03:04:05.678Z');

function context(shares: Record<string, FetchResult> = {}, extra: Partial<ProtocolContext> = {}): ProtocolContext & { store: MemoryStore } {
  return {
    store: new MemoryStore(),
    fetchBiometrics: (url) => Promise.resolve(shares[url] ?? { failureReason: '7' }),
    now: () => NOW,
    sleep: () => Promise.resolve(),
    ...extra,
  } as ProtocolContext & { store: MemoryStore };
}

const request = (op: string, fields: Record<string, unknown> = {}) => ({
  id: `platform.abis.${op}`,
  version: '1.1',
  requestId: '6a4f1d2e-3b5c-4d6e-8f90-a1b2c3d4e5f6',
  requesttime: '2026-01-02T03:04:00.000Z',
  ...fields,
});

async function send(ctx: ProtocolContext, body: unknown) {
  return handleRequest(typeof body === 'string' ? body : JSON.stringify(body), ctx);
}

const fir = (digest: string): BiometricEntry => ({ digest, modality: 'FIR' });

describe('mock ABIS validation order (id 14, version 13, requestId 6, requesttime 9, format 15, referenceId 5, referenceURL 8, 10, 7/17, 16/11, 4)', () => {
  it('reports the first failing check, step by step', async () => {
    const ctx = context({ 'http://share/bad-cbeff': { failureReason: '16' }, 'http://share/empty': { failureReason: '11' } });
    await ctx.store.insert('EXISTING', [fir(A)]);
    const steps: [Record<string, unknown>, string][] = [
      [{ id: 'platform.abis.nope', version: 'x', requestId: '', requesttime: 'bad', extra: 1 }, '14'],
      [{ id: 'platform.abis.insert', version: '1.0', requestId: '', requesttime: 'bad', extra: 1 }, '13'],
      [{ id: 'platform.abis.insert', version: '1.1', requestId: '', requesttime: 'bad', extra: 1 }, '6'],
      [{ id: 'platform.abis.insert', version: '1.1', requestId: 'r', extra: 1 }, '9'],
      [{ id: 'platform.abis.insert', version: '1.1', requestId: 'r', requesttime: '', extra: 1 }, '9'],
      [{ id: 'platform.abis.insert', version: '1.1', requestId: 'r', requesttime: '2026-01-02 03:04:00', extra: 1 }, '15'],
      [{ ...request('insert'), requesttime: '2026-02-30T03:04:00.000Z', extra: 1 }, '15'],
      [{ ...request('insert'), extra: 1 }, '5'],
      [{ ...request('insert'), referenceId: 'r1', extra: 1 }, '8'],
      [{ ...request('insert'), referenceId: 'existing', referenceURL: 'http://share/x', extra: 1 }, '10'],
      [{ ...request('insert'), referenceId: 'r1', referenceURL: 'http://share/missing', extra: 1 }, '7'],
      [{ ...request('insert'), referenceId: 'r1', referenceURL: 'http://share/bad-cbeff', extra: 1 }, '16'],
      [{ ...request('insert'), referenceId: 'r1', referenceURL: 'http://share/empty', extra: 1 }, '11'],
    ];
    for (const [body, reason] of steps) {
      const reply = await send(ctx, body);
      expect({ body, reply: reply.failureReason }).toEqual({ body, reply: reason });
      expect(reply.returnValue).toBe('2');
    }
    const expired = await send(
      context({ 'http://share/old': { failureReason: '17' } }),
      request('insert', { referenceId: 'r', referenceURL: 'http://share/old' }),
    );
    expect(expired.failureReason).toBe('17');
    const unknown = await send(
      context({ 'http://share/ok': { entries: [fir(A)] } }),
      request('insert', { referenceId: 'r', referenceURL: 'http://share/ok', extra: 1 }),
    );
    expect(unknown.failureReason).toBe('4');
  });

  it('answers what is not a JSON object with 4 and null echoes', async () => {
    for (const body of ['not json', '[1,2]', 'null', '']) {
      expect(await send(context(), body)).toEqual({
        id: null,
        requestId: null,
        responsetime: '2026-01-02T03:04:05.678Z',
        returnValue: '2',
        failureReason: '4',
      });
    }
  });

  it('echoes id and requestId and sets responsetime; failureReason only on failure', async () => {
    const ctx = context({ 'http://share/ok': { entries: [fir(A)] } });
    const ok = await send(ctx, request('insert', { referenceId: 'r1', referenceURL: 'http://share/ok' }));
    expect(ok).toEqual({ id: 'platform.abis.insert', requestId: request('x').requestId, responsetime: '2026-01-02T03:04:05.678Z', returnValue: '1' });
    const again = await send(ctx, { ...request('insert', { referenceId: 'R1', referenceUrl: 'http://share/ok' }), id: 'mosip.abis.insert' });
    expect(again).toMatchObject({ id: 'mosip.abis.insert', returnValue: '2', failureReason: '10' });
  });

  it('accepts the time format exactly', () => {
    expect(isValidTime('2026-01-02T03:04:05.678Z')).toBe(true);
    for (const bad of [
      '2026-01-02T03:04:05Z',
      '2026-01-02T03:04:05.678+00:00',
      '2026-13-02T03:04:05.678Z',
      '2026-01-02T03:04:05.678',
      ' 2026-01-02T03:04:05.678Z',
    ]) {
      expect(isValidTime(bad)).toBe(false);
    }
  });
});

describe('mock ABIS operations', () => {
  async function seeded() {
    const ctx = context({
      'http://share/1': { entries: [fir(A), fir(B), { digest: C, modality: 'IIR' }] },
      'http://share/2': { entries: [fir(A.toUpperCase()), { digest: C, modality: 'IIR' }] },
      'http://share/3': { entries: [fir(B)] },
      'http://share/4': { entries: [fir(sha('other'))] },
    });
    for (const n of ['1', '2', '3', '4']) {
      const reply = await send(ctx, request('insert', { requestId: `req-${n}`, referenceId: `Ref-${n}`, referenceURL: `http://share/${n}` }));
      expect(reply.returnValue).toBe('1');
    }
    return ctx;
  }

  it('identify: every other reference sharing a digest, probe excluded case-insensitively', async () => {
    const ctx = await seeded();
    const reply = await send(ctx, request('identify', { referenceId: 'REF-1', referenceURL: '', flags: { maxResults: '30', targetFPIR: '30' } }));
    expect(reply.returnValue).toBe('1');
    const list = reply.candidateList as { count: string; candidates: any[] };
    expect(list.count).toBe('2');
    expect(list.candidates.map((each) => each.referenceId).sort()).toEqual(['Ref-2', 'Ref-3']);
    const two = list.candidates.find((each) => each.referenceId === 'Ref-2');
    expect(two.analytics).toEqual({ confidence: '67', internalScore: '67' });
    expect(two.modalities.map((each: any) => each.biometricType).sort()).toEqual(['FIR', 'IIR']);
    const three = list.candidates.find((each) => each.referenceId === 'Ref-3');
    expect(three.modalities).toEqual([{ biometricType: 'FIR', analytics: { confidence: '50', internalScore: '50' } }]);
  });

  it('identify: gallery restricts, maxResults limits, no match is count "0"', async () => {
    const ctx = await seeded();
    const gallery = await send(
      ctx,
      request('identify', { referenceId: 'ref-1', gallery: { referenceIds: [{ referenceId: 'REF-3' }, { referenceId: 'ref-4' }] } }),
    );
    expect((gallery.candidateList as any).candidates.map((each: any) => each.referenceId)).toEqual(['Ref-3']);
    const limited = await send(ctx, request('identify', { referenceId: 'ref-1', flags: { maxResults: 1 } }));
    expect((limited.candidateList as any).count).toBe('1');
    expect((limited.candidateList as any).candidates[0].referenceId).toBe('Ref-2'); // best score first
    const none = await send(ctx, request('identify', { referenceId: 'ref-4' }));
    expect(none.candidateList).toEqual({ count: '0', candidates: [] });
  });

  it('identify: by URL when there is no referenceId; 12 for an unknown one; 5 with neither', async () => {
    const ctx = await seeded();
    const byUrl = await send(ctx, request('identify', { referenceURL: 'http://share/3' }));
    expect((byUrl.candidateList as any).candidates.map((each: any) => each.referenceId).sort()).toEqual(['Ref-1', 'Ref-3']);
    expect((await send(ctx, request('identify', { referenceId: 'nope' }))).failureReason).toBe('12');
    expect((await send(ctx, request('identify', { referenceURL: '' }))).failureReason).toBe('5');
    expect((await send(ctx, request('identify', { referenceURL: 'http://share/missing' }))).failureReason).toBe('7');
    expect((await send(ctx, request('identify', { referenceId: 'ref-1', gallery: { referenceIds: 'x' } }))).failureReason).toBe('4');
  });

  it('delete, ping, pendingJobs, referenceCount', async () => {
    const ctx = await seeded();
    ctx.pendingJobs = () => 3;
    expect(await send(ctx, request('referenceCount'))).toMatchObject({ returnValue: '1', count: '4' });
    expect(await send(ctx, request('delete', { referenceId: 'REF-2' }))).toMatchObject({ returnValue: '1' });
    expect(await send(ctx, request('delete', { referenceId: 'REF-2' }))).toMatchObject({ returnValue: '2', failureReason: '12' });
    expect(await send(ctx, request('delete'))).toMatchObject({ returnValue: '2', failureReason: '5' });
    expect(await send(ctx, request('referenceCount'))).toMatchObject({ count: '3' });
    const ping = await send(ctx, request('ping'));
    expect(ping).toEqual({ id: 'platform.abis.ping', requestId: request('x').requestId, responsetime: '2026-01-02T03:04:05.678Z', returnValue: '1' });
    expect(await send(ctx, request('pendingJobs'))).toMatchObject({ returnValue: '1', jobscount: '3' });
    expect(await send(ctx, request('ping', { referenceId: 'x' }))).toMatchObject({ returnValue: '2', failureReason: '4' });
    // re-insert after delete works
    expect(await send(ctx, request('insert', { referenceId: 'ref-2', referenceURL: 'http://share/2' }))).toMatchObject({ returnValue: '1' });
  });

  it('expectations force a failure, a delay, or duplicates', async () => {
    const delays: number[] = [];
    const expectations = new Expectations(
      parseExpectations([
        { digest: B, action: 'insert', failureReason: '3' },
        { id: A, actionToInterfere: 'Identify', forcedResponse: 'Duplicate', gallery: { referenceIds: [{ referenceId: 'forced-1' }] }, delayInExecution: 2 },
      ]),
    );
    const ctx = context(
      { 'http://share/b': { entries: [fir(B)] }, 'http://share/a': { entries: [fir(A)] } },
      { expectation: (op, entries) => expectations.match(op, entries), sleep: (ms) => (delays.push(ms), Promise.resolve()) },
    );
    expect(await send(ctx, request('insert', { referenceId: 'b', referenceURL: 'http://share/b' }))).toMatchObject({ failureReason: '3' });
    expect(ctx.store.count()).toBe(0);
    expect(await send(ctx, request('insert', { referenceId: 'a', referenceURL: 'http://share/a' }))).toMatchObject({ returnValue: '1' });
    const identify = await send(ctx, request('identify', { referenceId: 'a' }));
    expect((identify.candidateList as any).candidates.map((each: any) => each.referenceId)).toEqual(['forced-1']);
    expect(delays).toEqual([2000]);
    expect(() => parseExpectations([{ digest: 'xyz' }])).toThrow();
  });
});

describe('mock ABIS data share decoding', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const thumbprint = randomBytes(32);
  const cbeff = buildCbeff([
    { type: 'Finger', subtype: 'Left IndexFinger', bdb: Buffer.from('finger') },
    { type: 'Iris', subtype: 'Left', bdb: Buffer.from('iris') },
    { type: 'Face', bdb: null, exception: true },
  ]);
  const wrap = (key: Buffer) => publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key);
  const splitter = Buffer.from('#KEY_SPLITTER#');

  function verR2(data: Buffer, thumb = thumbprint): string {
    const key = randomBytes(32);
    const aad = randomBytes(32);
    const cipher = createCipheriv('aes-256-gcm', key, aad.subarray(0, 12));
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
    const text = Buffer.concat([Buffer.from('VER_R2'), thumb, wrap(key), splitter, aad, sealed]).toString('base64url');
    return text + '='.repeat((4 - (text.length % 4)) % 4); // java.util.Base64.getUrlEncoder() pads
  }

  function legacy(data: Buffer, ivLength: number): Buffer {
    const key = randomBytes(32);
    const iv = randomBytes(ivLength);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
    return Buffer.concat([thumbprint, wrap(key), splitter, sealed, iv]);
  }

  it('decrypts VER_R2 (URL-safe base64) and LEGACY (standard base64, IV 16 or 32)', () => {
    expect(decryptShare(decodeShareBody(Buffer.from(verR2(cbeff))), privateKey, thumbprint)).toEqual(cbeff);
    for (const ivLength of [16, 32]) {
      const text = legacy(cbeff, ivLength).toString('base64');
      expect(decryptShare(decodeShareBody(Buffer.from(text)), privateKey, thumbprint)).toEqual(cbeff);
    }
    expect(() => decryptShare(decodeShareBody(Buffer.from(verR2(cbeff, randomBytes(32)))), privateKey, thumbprint)).toThrow(/another certificate/);
  });

  it('reads the usable biometrics: 16 unparsable, 11 none', () => {
    const read = readBiometrics(cbeff);
    expect(read).toEqual({
      entries: [
        { digest: createHash('sha256').update('finger').digest('hex'), modality: 'FIR' },
        { digest: createHash('sha256').update('iris').digest('hex'), modality: 'IIR' },
      ],
    });
    expect(readBiometrics(Buffer.from('<not xml'))).toEqual({ failureReason: '16' });
    expect(readBiometrics(buildCbeff([{ type: 'Face', bdb: null, exception: true }]))).toEqual({ failureReason: '11' });
  });

  it('tells text from bytes deliveries', () => {
    expect(messageTypeOf({})).toBe('text');
    expect(messageTypeOf({ 'content-length': '12' })).toBe('bytes');
    expect(messageTypeOf({ 'content-length': '12', 'amq-msg-type': 'text' })).toBe('text');
  });
});

describe('mock ABIS store', () => {
  it('persists references and replies to the state file and reads them back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-abis-state-'));
    try {
      const file = join(dir, 'nested', 'state.json');
      const store = new MemoryStore({ stateFile: file, maxReplies: 2 });
      store.insert('Ref-A', [fir(A.toUpperCase()), { digest: C, modality: 'IIR' }]);
      store.insert('ref-b', [fir(B)]);
      store.delete('REF-B');
      for (const id of ['q1', 'q2', 'q3']) store.rememberReply(id, `{"requestId":"${id}"}`);
      const again = new MemoryStore({ stateFile: file });
      expect(again.count()).toBe(1);
      expect(again.get('ref-a')).toEqual({ referenceId: 'Ref-A', entries: [fir(A), { digest: C, modality: 'IIR' }] });
      expect(again.reply('q1')).toBeUndefined(); // the oldest reply forgotten past maxReplies
      expect(again.reply('q3')).toBe('{"requestId":"q3"}');
      expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
