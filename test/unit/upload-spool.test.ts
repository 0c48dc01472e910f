// The upload spool: a stream written to disk as it arrives, hashed and counted, cut off beyond the
// limit; claimed only by its owner; removed when released; files a crashed process left swept at start.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { UploadSpool } from '../../lib/uploads/spool.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'spool-test-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const chunks = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)));

it('writes the stream to a 0600 file with its size and uppercase SHA-256, for its owner only, until released', async () => {
  const spool = new UploadSpool(dataDir, 1000);
  const upload = await spool.stage(chunks('hello ', 'world'), 'officer-1', 'a.zip');
  expect(upload).toMatchObject({ owner: 'officer-1', filename: 'a.zip', size: 11, truncated: false });
  expect(upload.sha256).toBe(createHash('sha256').update('hello world').digest('hex').toUpperCase());
  expect(readFileSync(upload.path, 'utf8')).toBe('hello world');
  expect(statSync(upload.path).mode & 0o777).toBe(0o600);
  expect(spool.claim(upload.id, 'officer-2')).toBeUndefined();
  expect(spool.claim(upload.id, 'officer-1')).toBe(upload);
  await spool.release(upload.id);
  expect(existsSync(upload.path)).toBe(false);
  expect(spool.claim(upload.id, 'officer-1')).toBeUndefined();
});

it('keeps at most one byte beyond the limit and marks the upload truncated, reading the rest', async () => {
  const spool = new UploadSpool(dataDir, 4);
  const source = chunks('abc', 'def', 'ghi');
  const upload = await spool.stage(source, 'x', 'big.zip');
  expect(upload).toMatchObject({ size: 5, truncated: true });
  expect(readFileSync(upload.path, 'utf8')).toBe('abcde');
  expect(source.readableEnded).toBe(true);
});

it('sweeps the files a crashed process left an hour ago, not the recent ones of another instance', async () => {
  const folder = path.join(dataDir, 'spool');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'old'), 'x');
  const twoHoursAgo = new Date(Date.now() - 7_200_000);
  utimesSync(path.join(folder, 'old'), twoHoursAgo, twoHoursAgo);
  writeFileSync(path.join(folder, 'recent'), 'y');
  await new UploadSpool(dataDir, 10).stage(chunks('z'), 'x', 'z.zip');
  expect(existsSync(path.join(folder, 'old'))).toBe(false);
  expect(existsSync(path.join(folder, 'recent'))).toBe(true);
});
