// npx tsx test/bench/crypto.ts (npm run bench:crypto): the crypto module, the key service and the REST crypto
// manager against raw node:crypto doing the same operations inline, in the same run; the ratios are the figures.
//   (a) VER_R2 encrypt+decrypt of 1 KB: lib/crypto/envelope.ts (encryptVerR2/decryptVerR2, cached KeyObject lookup)
//       vs inline randomBytes + publicEncrypt (OAEP SHA-256) + AES-256-GCM + privateDecrypt + decipher;
//       also KeysService.encrypt+decrypt (key store, base64url) for reference
//   (b) KeysService.sign+validateSignature on a test platform database vs inline RS256 sign+verify of the same JWS input
//   (c) POST /v1/cryptomanager/encrypt with autocannon (same process) vs KeysService.encrypt in process, and vs bare
//       Express handlers calling KeysService.encrypt: without authentication (the HTTP floor on this machine) and
//       with the same token check as the platform (JWT + token row in the database), as test/bench/run.ts does
// Environment: BENCH_SECONDS (3) per case (cases compared with each other run interleaved), BENCH_CONNECTIONS (16) for (c), PLATFORM_TEST_DB=postgres for PostgreSQL.
import { constants, createCipheriv, createDecipheriv, createSign, createVerify, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { readCredentials } from '../../lib/credentials.js';
import { decryptVerR2, encryptVerR2, thumbprintOf } from '../../lib/crypto/envelope.js';
import { SIGNING_KEY } from '../../subgraphs/keys/service.js';
import { cookieHeader, envelopeOf, startTestPlatform } from '../support/platform.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const payload = Buffer.from('x'.repeat(1024));
const text = payload.toString('utf8');
/** The service as a registration processor calls it (REGISTRATION keys). */
const BENCH_CALLER = { subject: 'bench', roles: ['REGISTRATION_PROCESSOR'] };

interface Row { group: string; name: string; rate: number; microseconds: number; note?: string }
const rows: Row[] = [];
const ratios: [string, number][] = [];

function check(condition: unknown, what: string): void {
  if (!condition) throw new Error(`benchmark self-check failed: ${what}`);
}

/**
 * Runs the operations back to back for BENCH_SECONDS each, after a short warm-up, interleaved in rounds (the order
 * rotating) so that drift of a shared machine falls on all of them alike; ops/s per operation.
 */
async function measure(group: string, operations: [name: string, operation: () => unknown][]): Promise<number[]> {
  const rounds = 4;
  const totals = operations.map(() => ({ count: 0, nanoseconds: 0n }));
  for (const [, operation] of operations) {
    const warmUntil = Date.now() + Math.min(500, seconds * 200);
    while (Date.now() < warmUntil) await operation();
  }
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < operations.length; k++) {
      const index = (k + round) % operations.length;
      const operation = operations[index]![1];
      const started = process.hrtime.bigint();
      const until = started + BigInt(Math.round((seconds * 1e9) / rounds));
      let count = 0;
      while (process.hrtime.bigint() < until) {
        await operation();
        count++;
      }
      totals[index]!.count += count;
      totals[index]!.nanoseconds += process.hrtime.bigint() - started;
    }
  }
  return operations.map(([name], index) => {
    const rate = totals[index]!.count / (Number(totals[index]!.nanoseconds) / 1e9);
    rows.push({ group, name, rate, microseconds: 1e6 / rate });
    process.stderr.write(`  ${group} ${name}: ${rate.toFixed(0)} ops/s\n`);
    return rate;
  });
}

const t = await startTestPlatform({ PLATFORM_THROTTLE_ADDRESS: '0' });
try {
  const service = t.platform.deps.services.keys;
  const auth = cookieHeader(await t.adminToken());
  process.stderr.write(`1 KB payload, RSA-2048, ${seconds} s per case, database ${t.platform.database.kind}\n`);

  // (a) the crypto module against the same primitives inline, with the same cached keys.
  const entry = await service.store.current('REGISTRATION', '');
  const recipient = service.store.recipient(entry);
  const privateKey = await service.store.privateKeyOf(entry);
  const thumbprint = thumbprintOf(recipient.certificate);
  const lookup = async (candidate: Buffer) => (candidate.equals(thumbprint) ? privateKey : undefined);
  const oaep = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' };
  const rawRoundTrip = () => {
    const key = randomBytes(32);
    const aad = randomBytes(32);
    const wrapped = publicEncrypt({ key: recipient.publicKey, ...oaep }, key);
    const cipher = createCipheriv('aes-256-gcm', key, aad.subarray(0, 12));
    cipher.setAAD(aad);
    const sealed = Buffer.concat([cipher.update(payload), cipher.final()]);
    const tag = cipher.getAuthTag();
    const opened = privateDecrypt({ key: privateKey, ...oaep }, wrapped);
    const decipher = createDecipheriv('aes-256-gcm', opened, aad.subarray(0, 12));
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]);
  };
  const moduleRoundTrip = () => decryptVerR2(encryptVerR2(recipient, payload), lookup);
  const serviceRoundTrip = async () => service.decrypt(BENCH_CALLER, { applicationId: 'REGISTRATION', data: (await service.encrypt(BENCH_CALLER, { applicationId: 'REGISTRATION', data: text })).data });
  check(rawRoundTrip().equals(payload), 'raw round trip');
  check((await moduleRoundTrip()).equals(payload), 'module round trip');
  check((await serviceRoundTrip()).data === text, 'service round trip');
  const [rawCrypto, moduleCrypto, serviceCrypto] = (await measure('(a)', [
    ['raw node:crypto encrypt+decrypt', rawRoundTrip], ['encryptVerR2+decryptVerR2', moduleRoundTrip], ['KeysService encrypt+decrypt', serviceRoundTrip],
  ])) as [number, number, number];
  ratios.push(['(a) encryptVerR2+decryptVerR2 / raw', moduleCrypto / rawCrypto], ['(a) KeysService encrypt+decrypt / raw', serviceCrypto / rawCrypto]);

  // (b) the signature service against RS256 over the very JWS input it builds.
  const signing = await service.store.current(SIGNING_KEY.applicationId, SIGNING_KEY.referenceId);
  const signingKey = await service.store.privateKeyOf(signing);
  const verifyKey = service.store.certificateOf(signing).publicKey;
  const sample = (await service.sign(text)).signature;
  const jwsInput = sample.slice(0, sample.lastIndexOf('.'));
  const rawSign = () => {
    const signature = createSign('RSA-SHA256').update(jwsInput).sign(signingKey);
    return createVerify('RSA-SHA256').update(jwsInput).verify(verifyKey, signature);
  };
  const serviceSign = async () => service.validateSignature((await service.sign(text)).signature, text);
  check(rawSign(), 'raw RS256 verify');
  check((await serviceSign()).status === 'success', 'service validateSignature');
  const [rawSigning, serviceSigning] = (await measure('(b)', [
    ['raw node:crypto RS256 sign+verify', rawSign], ['KeysService sign+validateSignature', serviceSign],
  ])) as [number, number];
  ratios.push(['(b) KeysService sign+validate / raw', serviceSigning / rawSigning]);

  // (c) the whole REST chain for encrypt against the function it ends in.
  const url = `${t.baseUrl}/v1/cryptomanager/encrypt`;
  const body = JSON.stringify(envelopeOf({ applicationId: 'REGISTRATION', data: text }));
  const headers = { 'content-type': 'application/json', ...auth };
  const answer = await (await fetch(url, { method: 'POST', headers, body })).json();
  check(answer.errors === null && (await service.decrypt(BENCH_CALLER, { applicationId: 'REGISTRATION', data: answer.response.data })).data === text, 'REST encrypt answers');
  const [inProcess] = (await measure('(c)', [['KeysService.encrypt in process', () => service.encrypt(BENCH_CALLER, { applicationId: 'REGISTRATION', data: text })]])) as [number];

  // The same function behind bare Express JSON handlers (no gateway): HTTP alone, then HTTP and the token check.
  const bare = express();
  bare.use(express.json({ limit: '1mb' }));
  const { tokens } = t.platform.deps;
  bare.post('/encrypt/:auth', async (req, res) => {
    if (req.params.auth === 'token') await tokens.verify(readCredentials({ cookie: req.headers.cookie, authorization: req.headers.authorization }));
    res.json({ response: await service.encrypt(BENCH_CALLER, { applicationId: req.body.request.applicationId, data: req.body.request.data }), errors: null });
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/encrypt`;
  const load = async (name: string, target: string) => {
    await autocannon({ url: target, method: 'POST', headers, body, connections, duration: 1 }); // warm-up
    const result = await autocannon({ url: target, method: 'POST', headers, body, connections, duration: Math.max(1, Math.round(seconds)) });
    if (result.non2xx || result.errors || result.timeouts) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    const rate = result.requests.average;
    rows.push({ group: '(c)', name, rate, microseconds: 1e6 / rate, note: `${connections} conn, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms` });
    process.stderr.write(`  (c) ${name}: ${rate.toFixed(0)} req/s\n`);
    return rate;
  };
  try {
    for (const mode of ['none', 'token']) {
      const bareAnswer = await (await fetch(`${bareUrl}/${mode}`, { method: 'POST', headers, body })).json();
      check((await service.decrypt(BENCH_CALLER, { applicationId: 'REGISTRATION', data: bareAnswer.response.data })).data === text, `bare Express encrypt (${mode}) answers`);
    }
    const bareRate = await load('bare Express + encrypt (autocannon)', `${bareUrl}/none`);
    const bareTokenRate = await load('bare Express + token check + encrypt (autocannon)', `${bareUrl}/token`);
    const rest = await load('REST /v1/cryptomanager/encrypt (autocannon)', url);
    ratios.push(
      ['(c) REST encrypt / in-process encrypt', rest / inProcess],
      ['(c) REST encrypt / bare Express encrypt', rest / bareRate],
      ['(c) REST encrypt / bare Express + token check', rest / bareTokenRate],
    );
  } finally {
    bareServer.close();
  }

  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\n1 KB payload, RSA-2048, ${seconds} s per case, database ${t.platform.database.kind}, node ${process.version}`);
  console.log(`     ${'case'.padEnd(width)}     ops/s    µs/op`);
  for (const r of rows) {
    console.log(`${r.group}  ${r.name.padEnd(width)} ${r.rate.toFixed(0).padStart(9)} ${r.microseconds.toFixed(0).padStart(8)}${r.note ? `   ${r.note}` : ''}`);
  }
  console.log('');
  for (const [name, ratio] of ratios) console.log(`${name.padEnd(width + 5)} ${ratio.toFixed(2).padStart(9)}`);
} finally {
  await t.close();
}
