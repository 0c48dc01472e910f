// An S3 protocol server for tests: s3rver on a free port, its data in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The part of s3rver 3.7 (CommonJS, no types) the tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: { address: string; port: number; directory: string; silent: boolean; configureBuckets: { name: string }[] }) => S3rverInstance;

const require = createRequire(import.meta.url);

/**
 * s3rver 3.7 seals its ListObjectsV2 continuation tokens with single DES, which
 * OpenSSL 3 (Node ≥ 17) no longer has by default: every truncated V2 listing
 * answers 500 InternalError ("digital envelope routines::unsupported"). Triple
 * DES with the key three times over is single DES, and is still there; s3rver
 * alone asks for 'des', and it both seals and opens its own tokens.
 */
function letS3rverUseDes(): void {
  const crypto = require('node:crypto') as typeof import('node:crypto') & { s3rverDes?: true };
  if (crypto.s3rverDes) return;
  const { createCipheriv, createDecipheriv } = crypto;
  const tripled = (key: Buffer) => Buffer.concat([key, key, key]);
  crypto.createCipheriv = ((algorithm: string, key: Buffer, iv: Buffer) =>
    algorithm === 'des' ? createCipheriv('des-ede3-cbc', tripled(key), iv) : createCipheriv(algorithm, key, iv)) as typeof createCipheriv;
  crypto.createDecipheriv = ((algorithm: string, key: Buffer, iv: Buffer) =>
    algorithm === 'des' ? createDecipheriv('des-ede3-cbc', tripled(key), iv) : createDecipheriv(algorithm, key, iv)) as typeof createDecipheriv;
  crypto.s3rverDes = true;
}

letS3rverUseDes();
const S3rver = require('s3rver') as S3rverClass;

/** s3rver's built-in account. */
export const S3RVER_KEY = 'S3RVER';
export const S3RVER_SECRET = 'S3RVER';

export interface TestS3 {
  /** `s3://S3RVER:S3RVER@127.0.0.1:<port>/<bucket>` */
  url: string;
  endpoint: string;
  bucket: string;
  /** s3rver's data folder: `<directory>/<bucket>/<key folders>/<name>._S3rver_object` */
  directory: string;
  /** every request the server received, as it arrived */
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  stop(): Promise<void>;
}

export async function startS3(bucket = 'objects'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const requests: TestS3['requests'] = [];
  server.httpServer?.prependListener('request', (request) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
  });
  let stopped = false;
  return {
    url: `s3://${S3RVER_KEY}:${S3RVER_SECRET}@127.0.0.1:${port}/${bucket}`,
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    requests,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Clients keep connections alive; close would wait for them.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
