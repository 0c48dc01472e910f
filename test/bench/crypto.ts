// npm run bench:crypto: the crypto module and the signature service against raw node:crypto doing
// the same operations inline, in the same run (the ratio is the figure). BENCH_SECONDS (default 3) per case.
import { constants, createCipheriv, createDecipheriv, createSign, createVerify, privateDecrypt, publicEncrypt, randomBytes, X509Certificate } from 'node:crypto';
import { decryptVerR2, encryptVerR2, thumbprintOf } from '../../lib/crypto/envelope.js';
import { keysServiceOf } from '../../subgraphs/keys/index.js';
import { startTestPlatform } from '../support/platform.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const payload = Buffer.from('x'.repeat(1024));

async function measure(name: string, operation: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 50; i++) await operation(); // warm-up
  let count = 0;
  const started = process.hrtime.bigint();
  const until = started + BigInt(seconds * 1e9);
  while (process.hrtime.bigint() < until) {
    await operation();
    count++;
  }
  const rate = count / (Number(process.hrtime.bigint() - started) / 1e9);
  console.log(`${name.padEnd(52)} ${rate.toFixed(0).padStart(8)} ops/s`);
  return rate;
}

const t = await startTestPlatform();
const service = keysServiceOf(t.platform.deps);
const entry = await service.store.current('REGISTRATION', '');
const recipient = service.store.recipient(entry);
const privateKey = await service.store.privateKeyOf(entry);
const thumbprint = thumbprintOf(recipient.certificate);
const lookup = async (candidate: Buffer) => (candidate.equals(thumbprint) ? privateKey : undefined);

console.log(`1 KB payload, RSA-2048, ${seconds} s per case`);
const rawCrypto = await measure('raw node:crypto encrypt+decrypt', () => {
  const key = randomBytes(32);
  const aad = randomBytes(32);
  const wrapped = publicEncrypt({ key: recipient.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key);
  const cipher = createCipheriv('aes-256-gcm', key, aad.subarray(0, 12));
  cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(payload), cipher.final()]);
  const tag = cipher.getAuthTag();
  const opened = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrapped);
  const decipher = createDecipheriv('aes-256-gcm', opened, aad.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed), decipher.final()]);
});
const platformCrypto = await measure('lib/crypto encryptVerR2+decryptVerR2', async () => decryptVerR2(encryptVerR2(recipient, payload), lookup));
const serviceCrypto = await measure('KeysService encrypt+decrypt (key store, database)', async () => {
  const { data } = await service.encrypt({ applicationId: 'REGISTRATION', data: payload.toString() });
  return service.decrypt({ applicationId: 'REGISTRATION', data });
});

const signing = await service.store.current('KERNEL', 'SIGN');
const signingKey = await service.store.privateKeyOf(signing);
const signingCert = new X509Certificate(signing.certificate);
const jwsInput = `${Buffer.from(JSON.stringify({ alg: 'RS256' })).toString('base64url')}.${payload.toString('base64url')}`;
const rawSign = await measure('raw node:crypto RS256 sign+verify', () => {
  const signature = createSign('RSA-SHA256').update(jwsInput).sign(signingKey);
  return createVerify('RSA-SHA256').update(jwsInput).verify(signingCert.publicKey, signature);
});
const serviceSign = await measure('KeysService sign+validateSignature (database)', async () => {
  const { signature } = await service.sign(payload.toString());
  return service.validateSignature(signature, payload.toString());
});

console.log(`ratio crypto module / raw:         ${(platformCrypto / rawCrypto).toFixed(2)}`);
console.log(`ratio crypto service / raw:        ${(serviceCrypto / rawCrypto).toFixed(2)}`);
console.log(`ratio signature service / raw:     ${(serviceSign / rawSign).toFixed(2)}`);
await t.close();
