import { execFile } from 'node:child_process';
import { constants, createCipheriv, createHash, publicEncrypt, randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCbeff } from '../../lib/packet/cbeff.js';
import { StompConnection, type StompMessage } from '../../lib/queue/stomp.js';
import { startMockAbis, type MockAbis } from '../../tools/mock-abis/index.js';
import { waitFor } from '../support/wait.js';

// Runs against a real ActiveMQ; scripts/activemq.sh starts one when STOMP_URL is local.
const STOMP_URL = process.env.STOMP_URL || 'stomp://127.0.0.1:61613';
const broker = new URL(STOMP_URL);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN = randomUUID();
const REQUEST_QUEUE = `/queue/test-platform-to-abis-${RUN}`;
const RESPONSE_QUEUE = `/queue/test-abis-to-platform-${RUN}`;
const CLIENT_ID = 'mock-abis-client';
const SECRET_KEY = randomUUID();
const TOKEN = `Platform-Token${randomBytes(16).toString('hex')}`;
const SPLITTER = Buffer.from('#KEY_SPLITTER#', 'ascii');

let abis: MockAbis;
let platform: StompConnection;
let server: http.Server;
let base: string;
let keysDir: string;
const authCalls: any[] = [];
const shares = new Map<string, { status: number; type: string; body: string }>();
const replies = new Map<string, { body: string; json: any; headers: Record<string, string> }[]>();

// ---------------------------------------------------------------- the data share, encrypted as ABIS.md (c) says

function sealFor(certificatePem: string) {
  const certificate = new X509Certificate(certificatePem);
  const thumbprint = createHash('sha256').update(certificate.raw).digest();
  const wrap = (key: Buffer) => publicEncrypt({ key: certificate.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key);
  return {
    /** VER_R2 | thumbprint | RSA-OAEP(key) | splitter | AAD(32) | AES-GCM(IV = AAD[0..12], AAD)+tag, URL-safe base64 with padding */
    verR2(data: Buffer): string {
      const key = randomBytes(32);
      const aad = randomBytes(32);
      const cipher = createCipheriv('aes-256-gcm', key, aad.subarray(0, 12));
      cipher.setAAD(aad);
      const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
      const envelope = Buffer.concat([Buffer.from('VER_R2', 'ascii'), thumbprint, wrap(key), SPLITTER, aad, sealed]);
      expect(envelope.subarray(294, 308)).toEqual(SPLITTER);
      const text = envelope.toString('base64url');
      return text + '='.repeat((4 - (text.length % 4)) % 4);
    },
    /** thumbprint | RSA-OAEP(key) | splitter | AES-GCM(IV 16 bytes)+tag | IV, standard base64 */
    legacy(data: Buffer): string {
      const key = randomBytes(32);
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
      return Buffer.concat([thumbprint, wrap(key), SPLITTER, sealed, iv]).toString('base64');
    },
  };
}

const fingers = (seed: string) =>
  buildCbeff([
    { type: 'Finger', subtype: 'Left IndexFinger', bdb: Buffer.from(`${seed}-left-index`) },
    { type: 'Finger', subtype: 'Right Thumb', bdb: Buffer.from(`${seed}-right-thumb`) },
    { type: 'Iris', subtype: 'Left', bdb: Buffer.from(`${seed}-left-iris`) },
    { type: 'Face', bdb: null, exception: true },
  ]);

/** A share URL serving this body (as the platform's data share does), or an error envelope. */
function share(body: string, status = 200, type = 'application/octet-stream'): string {
  const key = `partner-default-abispolicy-default-abis${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(4).toString('hex')}`;
  shares.set(key, { status, type, body });
  return `${base}/v1/datashare/get/policy-default-abis/partner-default-abis/${key}`;
}

function startServer(): Promise<void> {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/v1/authmanager/authenticate/clientidsecretkey') {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        authCalls.push(json);
        const ok = json.request?.clientId === CLIENT_ID && json.request?.secretKey === SECRET_KEY && json.request?.appId === 'registrationprocessor';
        res.setHeader('content-type', 'application/json');
        if (ok) res.setHeader('set-cookie', [`Authorization=${TOKEN}; Max-Age=3600; Path=/; HttpOnly`]);
        res.end(
          JSON.stringify(
            ok
              ? { response: { status: 'Success', message: 'Clientid and Token combination had been validated successfully' }, errors: null }
              : { response: null, errors: [{ errorCode: '500', message: 'invalid' }] },
          ),
        );
        return;
      }
      const match = /^\/v1\/datashare\/get\/[^/]+\/[^/]+\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        if (req.headers.cookie !== `Authorization=${TOKEN}`) {
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end(JSON.stringify({ response: null, errors: [{ errorCode: 'KER-ATH-401', message: 'Authentication Failed' }] }));
          return;
        }
        const found = shares.get(match[1]!);
        const envelope = (errorCode: string, message: string) =>
          JSON.stringify({
            id: 'platform.datashare.get',
            version: '1.0',
            responsetime: new Date().toISOString(),
            response: null,
            errors: [{ errorCode, message }],
          });
        if (!found) res.writeHead(200, { 'content-type': 'application/json' }).end(envelope('DAT-SER-006', 'Data share not found'));
        else res.writeHead(found.status, { 'content-type': found.type }).end(found.body);
        return;
      }
      res.writeHead(404).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

// ---------------------------------------------------------------- the platform's side of the queue

/** The platform's consumer: keeps each reply by requestId, then ACKs it. */
function collect(message: StompMessage): void {
  const body = message.body.toString('utf8');
  const json = JSON.parse(body);
  const list = replies.get(json.requestId) ?? [];
  list.push({ body, json, headers: message.headers });
  replies.set(json.requestId, list);
  message.ack();
}

/** A TCP relay to the broker whose connections the test cuts, as a broker restart or a network fault would. */
async function relay(): Promise<{ url: string; accepted: () => number; dropAll: () => void; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(Number(broker.port || 61613), broker.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket
        .on('error', () => undefined)
        .on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `stomp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    dropAll,
    close: () => {
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const now = () => new Date().toISOString();
const request = (op: string, fields: Record<string, unknown> = {}) => ({
  id: `platform.abis.${op}`,
  version: '1.1',
  requestId: randomUUID(),
  requesttime: now(),
  ...fields,
});

/** Sends a request as the platform does (ABIS.md (a)) and waits for the `n`th reply with its requestId. */
async function call(body: Record<string, unknown>, options: { bytes?: boolean; n?: number } = {}) {
  const requestId = String(body.requestId);
  const text = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json;charset=utf-8',
    expires: String(Date.now() + 2700 * 1000),
    'correlation-id': requestId,
  };
  // A string is sent as a TextMessage (amq-msg-type:text, content-length, persistent:true, receipt); a Buffer as a BytesMessage.
  await platform.send(REQUEST_QUEUE, options.bytes ? Buffer.from(text, 'utf8') : text, headers);
  const n = options.n ?? 0;
  return waitFor(() => replies.get(requestId)?.[n], `reply ${n} to ${body.id as string} ${requestId}`, 30_000);
}

beforeAll(async () => {
  if (['127.0.0.1', 'localhost'].includes(broker.hostname)) {
    await promisify(execFile)('bash', ['scripts/activemq.sh', 'start'], {
      cwd: ROOT,
      env: { ...process.env, STOMP_PORT: broker.port || '61613' },
      timeout: 120_000,
    });
  }
  await startServer();
  keysDir = mkdtempSync(join(tmpdir(), 'mock-abis-keys-'));
  abis = await startMockAbis({
    stompUrl: STOMP_URL,
    requestQueue: REQUEST_QUEUE,
    responseQueue: RESPONSE_QUEUE,
    base,
    clientId: CLIENT_ID,
    secretKey: SECRET_KEY,
    keysDir,
    reconnectDelayMs: 100,
  });
  platform = new StompConnection({ url: STOMP_URL, reconnectDelayMs: 100, logger: pino({ level: 'silent' }) });
  await platform.connect();
  platform.subscribe(RESPONSE_QUEUE, collect);
}, 180_000);

afterAll(async () => {
  await platform?.close();
  await abis?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (keysDir) rmSync(keysDir, { recursive: true, force: true });
});

describe('mock ABIS over ActiveMQ', () => {
  const ref1 = randomUUID();
  const ref2 = randomUUID();
  const ref3 = randomUUID();

  it('prints its certificate and the upload command', () => {
    expect(abis.notice).toContain('-----BEGIN CERTIFICATE-----');
    expect(abis.notice).toContain('/v1/keymanager/uploadOtherDomainCertificate');
    expect(abis.notice).toContain('"applicationId":"PARTNER"');
    expect(abis.notice).toContain('"referenceId":"partner-default-abis"');
  });

  it('inserts a reference from a VER_R2 share, then refuses the same referenceId with 10', async () => {
    const seal = sealFor(abis.keys.certificatePem);
    const insert = request('insert', { referenceId: ref1, referenceURL: share(seal.verR2(fingers('alice'))) });
    const reply = await call(insert);
    expect(reply.json).toEqual({
      id: 'platform.abis.insert',
      requestId: insert.requestId,
      responsetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      returnValue: '1',
    });
    expect(authCalls.length).toBeGreaterThanOrEqual(1);
    expect(authCalls[0].request).toEqual({ appId: 'registrationprocessor', clientId: CLIENT_ID, secretKey: SECRET_KEY });
    // a text request gets a text reply: no content-length
    expect(reply.headers['content-length']).toBeUndefined();
    expect(reply.headers['correlation-id']).toBe(insert.requestId);

    const again = await call(request('insert', { referenceId: ref1.toUpperCase(), referenceURL: share(seal.verR2(fingers('alice'))) }));
    expect(again.json).toMatchObject({ returnValue: '2', failureReason: '10' });
  });

  it('identify of a second reference with the same BDBs (LEGACY share) finds the first', async () => {
    const seal = sealFor(abis.keys.certificatePem);
    expect((await call(request('insert', { referenceId: ref2, referenceURL: share(seal.legacy(fingers('alice'))) }))).json.returnValue).toBe('1');
    const identify = request('identify', { referenceId: ref2, referenceURL: '', flags: { maxResults: '30', targetFPIR: '30' } });
    const reply = await call(identify);
    expect(reply.json.returnValue).toBe('1');
    expect(reply.json.candidateList.count).toBe('1');
    const [candidate] = reply.json.candidateList.candidates;
    expect(candidate.referenceId.toLowerCase()).toBe(ref1.toLowerCase());
    expect(candidate.analytics).toEqual({ confidence: '100', internalScore: '100' });
    expect(candidate.modalities.map((each: any) => each.biometricType).sort()).toEqual(['FIR', 'IIR']);
  });

  it('identify of distinct BDBs: count "0"', async () => {
    const seal = sealFor(abis.keys.certificatePem);
    expect((await call(request('insert', { referenceId: ref3, referenceURL: share(seal.verR2(fingers('bob'))) }))).json.returnValue).toBe('1');
    const reply = await call(request('identify', { referenceId: ref3, referenceURL: '' }));
    expect(reply.json).toMatchObject({ returnValue: '1', candidateList: { count: '0', candidates: [] } });
  });

  it('delete, referenceCount, ping, pendingJobs', async () => {
    expect((await call(request('referenceCount'))).json).toMatchObject({ returnValue: '1', count: '3' });
    expect((await call(request('delete', { referenceId: ref3 }))).json).toMatchObject({ returnValue: '1' });
    expect((await call(request('delete', { referenceId: ref3 }))).json).toMatchObject({ returnValue: '2', failureReason: '12' });
    expect((await call(request('referenceCount'))).json).toMatchObject({ returnValue: '1', count: '2' });
    const ping = request('ping');
    expect((await call(ping)).json).toEqual({ id: 'platform.abis.ping', requestId: ping.requestId, responsetime: expect.any(String), returnValue: '1' });
    expect((await call(request('pendingJobs'))).json).toMatchObject({ returnValue: '1', jobscount: '0' });
  });

  it('a bad version -> 13, a missing requesttime -> 9, a malformed one -> 15', async () => {
    expect((await call(request('ping', { version: '1.0' }))).json).toMatchObject({ returnValue: '2', failureReason: '13' });
    expect((await call(request('ping', { requesttime: '' }))).json).toMatchObject({ returnValue: '2', failureReason: '9' });
    expect((await call(request('ping', { requesttime: '2026-01-01 10:00:00' }))).json).toMatchObject({ returnValue: '2', failureReason: '15' });
  });

  it('an expired share (DAT-SER-006) -> 17; an unknown one -> 7', async () => {
    const expired = JSON.stringify({
      id: 'platform.datashare.get',
      version: '1.0',
      responsetime: now(),
      response: null,
      errors: [{ errorCode: 'DAT-SER-006', message: 'Data share usage expired' }],
    });
    const reply = await call(request('insert', { referenceId: randomUUID(), referenceURL: share(expired, 200, 'application/json') }));
    expect(reply.json).toMatchObject({ returnValue: '2', failureReason: '17' });
    const unknown = await call(request('insert', { referenceId: randomUUID(), referenceURL: `${base}/v1/datashare/get/p/s/nothing-here` }));
    expect(unknown.json).toMatchObject({ returnValue: '2', failureReason: '7' });
  });

  it('a bytes request gets a bytes reply', async () => {
    const reply = await call(request('ping'), { bytes: true });
    expect(reply.json.returnValue).toBe('1');
    expect(String(reply.headers['content-length'])).toBe(String(Buffer.byteLength(reply.body)));
  });

  it('a repeated requestId gets the identical reply (an insert is not served twice)', async () => {
    const seal = sealFor(abis.keys.certificatePem);
    const insert = request('insert', { referenceId: randomUUID(), referenceURL: share(seal.verR2(fingers('carol'))) });
    const first = await call(insert);
    expect(first.json.returnValue).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 10)); // a later responsetime, were it served again
    const second = await call(insert, { n: 1 });
    expect(second.body).toBe(first.body);
  });

  it('reconnects after losing the broker and serves what was queued meanwhile', async () => {
    const link = await relay();
    const requestQueue = `${REQUEST_QUEUE}-relay`;
    const responseQueue = `${RESPONSE_QUEUE}-relay`;
    const second = await startMockAbis({ stompUrl: link.url, requestQueue, responseQueue, base, keysDir, reconnectDelayMs: 200, maxReconnectDelayMs: 400 });
    const unsubscribe = platform.subscribe(responseQueue, collect);
    try {
      link.dropAll();
      await waitFor(() => !second.connected, 'the mock ABIS to notice the cut');
      const ping = request('ping');
      await platform.send(requestQueue, JSON.stringify(ping), { 'content-type': 'application/json;charset=utf-8', 'correlation-id': ping.requestId });
      const reply = await waitFor(() => replies.get(ping.requestId)?.[0], 'the reply after the reconnect', 30_000);
      expect(reply.json).toMatchObject({ returnValue: '1', requestId: ping.requestId });
      expect(link.accepted()).toBeGreaterThanOrEqual(2);
    } finally {
      unsubscribe();
      await second.close();
      await link.close();
    }
  });
});
