// A 50 MB packet upload is streamed to disk and to the object store, never held whole in memory:
// the platform (its own process, as `npm start` runs it) grows by less than 40 MB of resident memory.
// A later stage decrypts a packet in memory; JOBS_RUN=false keeps this process to the receiver.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeRid } from '../../lib/packet/format.js';
import { startPlatformProcess, type PlatformProcess } from '../support/platform-process.js';

let platform: PlatformProcess;

beforeAll(async () => {
  // The receiver alone: the stages (which decrypt a packet in memory) run elsewhere.
  platform = await startPlatformProcess('upload-memory', { JOBS_RUN: 'false' });
}, 180_000);

afterAll(() => platform?.stop());

async function receive(sequence: number, bytes: Buffer): Promise<string> {
  const rid = makeRid('10001', '10001', sequence, new Date());
  await platform.submit(rid, bytes);
  return rid;
}

it('receives a 50 MB packet with less than 40 MB of resident memory growth, and stores it whole', async () => {
  // The first large uploads after start grow V8's heap and the allocator to their working size for
  // streaming (about 19 MB on an idle machine; under load garbage is collected later, and a second
  // upload was once measured at 34 MB): two are not what is measured. A packet held whole would
  // add at least its own 50 MB (and a base64 copy for the operation), which the bound stays below.
  for (const sequence of [1, 2]) await receive(sequence, randomBytes(50 * 1024 * 1024));
  const before = platform.rss();
  const large = randomBytes(50 * 1024 * 1024);
  const rid = await receive(3, large);
  expect(platform.rss() - before).toBeLessThan(40 * 1024 * 1024);
  const stored = path.join(platform.dataDir, 'objects', 'regproc', 'packets', `${String(rid)}.zip`);
  expect(statSync(stored).size).toBe(large.length);
  expect(createHash('sha256').update(readFileSync(stored)).digest('hex')).toBe(createHash('sha256').update(large).digest('hex'));
}, 180_000);
