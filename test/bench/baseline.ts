// The baselines, in a process of their own: bare Express handlers doing only the
// work a platform call cannot avoid, with the platform's own keys.
//   GET  /validate  RS256 verification of the token (node:crypto, the platform's public key)
//   POST /encrypt   the VER_R2 work of /v1/cryptomanager/encrypt: AES-256-GCM and RSA-OAEP-256
//                   key wrapping for the same certificate, base64url out
// Usage: node --import tsx test/bench/baseline.ts <port> <token public key PEM file> <certificate PEM file>
import { createPublicKey, createVerify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express from 'express';
import { encodeBase64Url, encryptVerR2 } from '../../lib/crypto/envelope.js';

const [port = '0', tokenKeyFile = '', certificateFile = ''] = process.argv.slice(2);
const tokenKey = createPublicKey(readFileSync(tokenKeyFile, 'utf8'));
const certificate = new X509Certificate(readFileSync(certificateFile, 'utf8'));
const recipient = { certificate, publicKey: certificate.publicKey };

/** RS256 only: split, verify the signature, read the claims, check exp. */
function verifyRs256(token: string): Record<string, unknown> {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) throw new Error('malformed');
  const ok = createVerify('RSA-SHA256').update(`${header}.${payload}`).verify(tokenKey, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('bad signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) throw new Error('expired');
  return claims;
}

const app = express();
app.disable('x-powered-by');
app.get('/validate', (req, res) => {
  try {
    const token = /Authorization=Platform-Token([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const claims = verifyRs256(token);
    res.json({ response: { userId: claims.sub, role: (claims.roles as string[]).join(','), token }, errors: null });
  } catch {
    res.status(200).json({ response: null, errors: [{ errorCode: 'KER-ATH-401', message: 'invalid' }] });
  }
});
app.post('/encrypt', express.json(), (req, res) => {
  const data = (req.body as { request: { data: string } }).request.data;
  res.json({ response: { data: encodeBase64Url(encryptVerR2(recipient, Buffer.from(data, 'utf8'))) }, errors: null });
});
const server = app.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ listening: typeof address === 'object' && address ? address.port : port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
