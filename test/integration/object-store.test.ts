// The object store's contract, run against files in a temporary folder and against
// s3rver: the same answers from both, failures as ObjectStoreError, no credentials in them.
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { openObjectStore, ObjectStoreError, type ObjectStore } from '../../lib/object-store/index.js';
import { parseS3Url, S3ObjectStore } from '../../lib/object-store/s3.js';
import { S3RVER_KEY, S3RVER_SECRET, startS3, type TestS3 } from '../support/s3.js';

const temporaryFolders: string[] = [];
function temporaryFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'object-store-'));
  temporaryFolders.push(folder);
  return folder;
}

const servers: TestS3[] = [];
const directClients: S3Client[] = [];
const s3Stores: S3ObjectStore[] = [];
async function s3Server(): Promise<TestS3> {
  const server = await startS3();
  servers.push(server);
  return server;
}
function s3Store(url: string): ObjectStore {
  const store = openObjectStore({ url, dataDir: '/nonexistent' });
  s3Stores.push(store as S3ObjectStore);
  return store;
}

afterAll(async () => {
  for (const store of s3Stores) store.close();
  for (const client of directClients) client.destroy();
  for (const server of servers) await server.stop();
  for (const folder of temporaryFolders) {
    chmodSync(folder, 0o700);
    rmSync(folder, { recursive: true, force: true });
  }
});

/** The error a promise rejects with (fails the test if it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<ObjectStoreError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ObjectStoreError);
  return error as ObjectStoreError;
}

/** One store under test, with a way around it to see what it really stored. */
interface Subject {
  store: ObjectStore;
  /** the bytes the backend holds for a key, read without the store */
  stored(key: string): Promise<Buffer | null>;
  /** a store of the same kind whose backend cannot be reached or written */
  broken(): ObjectStore;
  /** whatever lies outside the store that a traversing key could reach */
  outside(): string[];
}

const kinds: Record<'files' | 's3', () => Promise<Subject>> = {
  files: () => {
    const folder = temporaryFolder();
    const dataDir = path.join(folder, 'data');
    return Promise.resolve({
      store: openObjectStore({ dataDir }),
      stored: (key) => Promise.resolve(existsSync(path.join(dataDir, 'objects', key)) ? readFileSync(path.join(dataDir, 'objects', key)) : null),
      broken: () => {
        const file = path.join(temporaryFolder(), 'not-a-folder');
        writeFileSync(file, '');
        return openObjectStore({ dataDir: path.join(file, 'data') });
      },
      outside: () => [...readdirSync(folder), ...(existsSync(dataDir) ? readdirSync(dataDir) : [])],
    });
  },
  s3: async () => {
    const server = await s3Server();
    const direct = new S3Client({
      endpoint: server.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_SECRET },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    directClients.push(direct);
    return {
      store: s3Store(server.url),
      stored: async (key) => {
        const file = path.join(server.directory, server.bucket, `${key}._S3rver_object`);
        if (!existsSync(file)) return null;
        const head = await direct.send(new HeadObjectCommand({ Bucket: server.bucket, Key: key }));
        const answer = await direct.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
        const bytes = Buffer.from(await answer.Body!.transformToByteArray());
        // The server's own copy on disk is the same bytes (no aws-chunked framing stored with them).
        expect(readFileSync(file).equals(bytes)).toBe(true);
        expect(head.ContentLength).toBe(bytes.length);
        return bytes;
      },
      broken: () => s3Store(server.url.replace(/:\d+\//, ':1/')),
      outside: () => readdirSync(server.directory).concat(readdirSync(path.join(server.directory, server.bucket))),
    };
  },
};

describe.each(['files', 's3'] as const)('object store: %s', (kind) => {
  let subject: Subject;
  let store: ObjectStore;
  beforeAll(async () => {
    subject = await kinds[kind]();
    store = subject.store;
  });

  it('says which kind it is', () => {
    expect(store.kind).toBe(kind);
  });

  it('gives back binary data byte for byte: all 256 byte values, and 5 MB', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const large = randomBytes(5 * 1024 * 1024);
    await store.put('roundtrip/every-byte', everyByte);
    await store.put('roundtrip/large.bin', large);
    await store.put('roundtrip/empty', Buffer.alloc(0));

    expect((await store.get('roundtrip/every-byte'))!.equals(everyByte)).toBe(true);
    expect((await store.get('roundtrip/large.bin'))!.equals(large)).toBe(true);
    expect((await store.get('roundtrip/empty'))!.length).toBe(0);
    // What the backend really holds, read around the store.
    expect((await subject.stored('roundtrip/every-byte'))!.equals(everyByte)).toBe(true);
    expect((await subject.stored('roundtrip/large.bin'))!.equals(large)).toBe(true);
  });

  it('overwrites an object whole', async () => {
    await store.put('overwrite/doc', Buffer.from('the first, longer version'));
    await store.put('overwrite/doc', Buffer.from('second'));
    expect((await store.get('overwrite/doc'))!.toString()).toBe('second');
    expect((await subject.stored('overwrite/doc'))!.toString()).toBe('second');
  });

  // S3 makes one PUT atomic on its side; s3rver truncates its file in place, so only the files store is raced here.
  // (defined for the files store only, not skipped for the other)
  if (kind === 'files')
    it('never shows a reader part of an object while it is overwritten', async () => {
      const first = Buffer.alloc(2 * 1024 * 1024, 1);
      const second = Buffer.alloc(3 * 1024 * 1024, 2);
      await store.put('atomic/doc', first);
      let writing = true;
      const writer = (async () => {
        try {
          for (let i = 0; i < 6; i++) await store.put('atomic/doc', i % 2 ? first : second);
        } finally {
          writing = false;
        }
      })();
      const lengths = new Set<number>();
      try {
        while (writing) {
          const read = (await store.get('atomic/doc'))!;
          lengths.add(read.length);
          expect(read.equals(first) || read.equals(second)).toBe(true);
        }
      } finally {
        await writer;
      }
      expect(lengths.size).toBeGreaterThan(0);
      expect(await store.list('atomic/')).toEqual(['atomic/doc']);
    });

  it('answers null for a missing key', async () => {
    expect(await store.get('missing/nothing-here')).toBeNull();
    await store.put('missing/file', Buffer.from('x'));
    expect(await store.get('missing/file/below')).toBeNull();
    expect(await store.get('missing')).toBeNull();
  });

  it('deletes, and deleting a missing key is fine', async () => {
    await store.put('delete/doc', Buffer.from('bye'));
    await store.delete('delete/doc');
    expect(await store.get('delete/doc')).toBeNull();
    expect(await subject.stored('delete/doc')).toBeNull();
    await store.delete('delete/doc');
    await store.delete('delete/never/was');
    expect(await store.list('delete/')).toEqual([]);
  });

  it('lists the keys under a prefix, in byte order, bounded by the limit', async () => {
    const keys = ['docs/1/b', 'docs/1/a', 'docs/10/a', 'docs/1.x', 'docs/2/x/y', 'docs-other', 'other/docs/1'];
    for (const key of keys) await store.put(key, Buffer.from(key));
    expect(await store.list('docs/')).toEqual(['docs/1.x', 'docs/1/a', 'docs/1/b', 'docs/10/a', 'docs/2/x/y']);
    expect(await store.list('docs/1')).toEqual(['docs/1.x', 'docs/1/a', 'docs/1/b', 'docs/10/a']);
    expect(await store.list('docs/1/')).toEqual(['docs/1/a', 'docs/1/b']);
    expect(await store.list('docs')).toEqual(['docs-other', 'docs/1.x', 'docs/1/a', 'docs/1/b', 'docs/10/a', 'docs/2/x/y']);
    // S3 lists in byte order; s3rver walks its folders instead, so only the bound is common ground.
    const bounded = await store.list('docs/', 2);
    expect(bounded).toHaveLength(2);
    expect(keys).toEqual(expect.arrayContaining(bounded));
    if (kind === 'files') expect(bounded).toEqual(['docs/1.x', 'docs/1/a']);
    expect(await store.list('docs/nothing/')).toEqual([]);
    expect(await store.list('nothing')).toEqual([]);
    expect(await store.list('')).toEqual(expect.arrayContaining(keys));
    await failureOf(store.list('docs/', 0));
  });

  it('lists past one page of 1000 keys, and stops at 1000 by default', async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((key) => store.put(key, Buffer.from(key))));
    expect(await store.list('many/', 5000)).toEqual(keys);
    expect(await store.list('many/')).toHaveLength(1000);
    expect(await store.list('many/', 1003)).toHaveLength(1003);
  });

  it('refuses bad keys before touching the store', async () => {
    const before = await store.list('');
    const outside = subject.outside();
    const broken = subject.broken();
    const badKeys = ['../x', '/abs', 'a//b', '', 'a/../b', 'a/./b', '..', 'a/', 'a\\b', 'a b', 'dossier/é', 'a~b', 'x'.repeat(1025)];
    for (const target of [store, broken]) {
      for (const key of badKeys) {
        for (const attempt of [() => target.put(key, Buffer.from('evil')), () => target.get(key), () => target.delete(key)]) {
          // The key is refused, not the (unreachable) backend: nothing was tried.
          expect((await failureOf(attempt())).message).toMatch(/^invalid object key/);
        }
      }
      for (const prefix of ['../', '/abs', 'a//', '../x', 'a/../'])
        expect((await failureOf(target.list(prefix))).message).toMatch(/^invalid object key prefix/);
    }
    expect(await store.list('')).toEqual(before);
    expect(subject.outside()).toEqual(outside);
  });

  it('fails with ObjectStoreError when the backend cannot be used, quickly', async () => {
    const broken = subject.broken();
    const started = Date.now();
    for (const attempt of [() => broken.put('a/b', Buffer.from('x')), () => broken.get('a/b'), () => broken.delete('a/b'), () => broken.list('a/')]) {
      const error = await failureOf(attempt());
      expect(error.message).toMatch(new RegExp(`^object store \\(${kind}`));
      expect(error.cause).toBeDefined();
    }
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

describe('object store: files on disk', () => {
  it('keeps objects under <dataDir>/objects, folders 0700, files 0600, no temporary file left', async () => {
    const dataDir = temporaryFolder();
    const store = openObjectStore({ dataDir });
    await store.put('documents/1234/photo.jpg', Buffer.from('jpeg'));
    await store.put('documents/1234/photo.jpg', Buffer.from('jpeg, again'));
    const file = path.join(dataDir, 'objects', 'documents', '1234', 'photo.jpg');
    expect(readFileSync(file, 'utf8')).toBe('jpeg, again');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'objects')).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.dirname(file))).toEqual(['photo.jpg']);
  });

  it('lists nothing, and leaves out temporary files, before and after writes', async () => {
    const dataDir = temporaryFolder();
    const store = openObjectStore({ dataDir: path.join(dataDir, 'not-yet') });
    expect(await store.list('')).toEqual([]);
    expect(await store.get('a')).toBeNull();
    await store.put('a/b', Buffer.from('x'));
    writeFileSync(path.join(dataDir, 'not-yet', 'objects', 'a', 'c~0123.tmp'), 'half');
    expect(await store.list('')).toEqual(['a/b']);
  });

  it('fails with ObjectStoreError, and writes nothing, when its folder is read-only', async () => {
    const folder = temporaryFolder();
    let dataDir: string;
    if (process.getuid?.() === 0) {
      // root writes through mode 0500: a regular file where a folder must be makes mkdir fail instead.
      dataDir = path.join(folder, 'file', 'data');
      writeFileSync(path.join(folder, 'file'), '');
    } else {
      dataDir = path.join(folder, 'data');
      mkdirSync(dataDir, { mode: 0o500 });
      chmodSync(dataDir, 0o500);
    }
    const store = openObjectStore({ dataDir });
    const error = await failureOf(store.put('documents/1/a', Buffer.from('x')));
    expect(error.message).toMatch(/^object store \(files\) put "documents\/1\/a" failed: (ENOTDIR|EACCES)/);
    expect(existsSync(path.join(dataDir, 'objects'))).toBe(false);
  });
});

describe('object store: S3', () => {
  it('sends plain uploads: no SDK checksum, no aws-chunked trailer, the Content-MD5', async () => {
    const server = await s3Server();
    const store = s3Store(server.url);
    const data = randomBytes(64 * 1024);
    await store.put('plain/doc', data);
    const puts = server.requests.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(1);
    const { headers } = puts[0]!;
    expect(
      Object.keys(headers).filter((name) => name.startsWith('x-amz-checksum') || name.startsWith('x-amz-sdk-checksum') || name === 'x-amz-trailer'),
    ).toEqual([]);
    expect(headers['content-encoding'] ?? '').not.toContain('aws-chunked');
    expect(headers['x-amz-content-sha256']).not.toMatch(/^STREAMING/);
    expect(headers['content-length']).toBe(String(data.length));
    expect(headers['content-md5']).toBe(createHash('md5').update(data).digest('base64'));
  });

  it('fails with ObjectStoreError within seconds once the server is stopped, naming no credential', async () => {
    const server = await startS3();
    servers.push(server);
    const store = s3Store(server.url);
    await store.put('up/doc', Buffer.from('x'));
    expect((await store.get('up/doc'))!.toString()).toBe('x');
    await server.stop();

    const started = Date.now();
    for (const attempt of [() => store.put('up/doc', Buffer.from('y')), () => store.get('up/doc'), () => store.delete('up/doc'), () => store.list('up/')]) {
      const error = await failureOf(attempt());
      expect(error.message).toMatch(/^object store \(s3 http:\/\/127\.0\.0\.1:\d+, bucket objects\)/);
      expect(error.message).not.toContain(S3RVER_SECRET);
      expect(error.message).not.toContain(server.url);
    }
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('fails with ObjectStoreError on wrong credentials, and shows neither key nor secret', async () => {
    const server = await s3Server();
    const key = 'AKIAWRONGKEY1234';
    const secret = 'wr0ng/Secret+Value=';
    const url = `s3://${key}:${encodeURIComponent(secret)}@${server.endpoint.replace('http://', '')}/${server.bucket}`;
    const store = s3Store(url);
    for (const attempt of [() => store.put('a/b', Buffer.from('x')), () => store.get('a/b'), () => store.delete('a/b'), () => store.list('a/')]) {
      const error = await failureOf(attempt());
      expect(error.message).toMatch(/\(HTTP 403\)/);
      for (const text of [error.message, error.stack ?? '', inspect(error, { depth: 10, showHidden: true }), JSON.stringify(error)]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(encodeURIComponent(secret));
        expect(text).not.toContain(key);
      }
    }
  });

  it('fails with ObjectStoreError when the bucket does not exist (not null)', async () => {
    const server = await s3Server();
    const store = s3Store(server.url.replace(/\/objects$/, '/no-such-bucket'));
    expect((await failureOf(store.get('a/b'))).message).toMatch(/NoSuchBucket/);
    await failureOf(store.put('a/b', Buffer.from('x')));
    await failureOf(store.list(''));
  });

  it('reads OBJECT_STORE_URL: endpoint, TLS, region, URL-encoded credentials', () => {
    expect(parseS3Url('s3://S3RVER:S3RVER@127.0.0.1:4568/objects')).toEqual({
      endpoint: 'http://127.0.0.1:4568',
      bucket: 'objects',
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    expect(parseS3Url('s3s://AKIA1:a%2Fb%2Bc%3D@s3.example.org/packets?region=eu-west-3')).toEqual({
      endpoint: 'https://s3.example.org',
      bucket: 'packets',
      region: 'eu-west-3',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'a/b+c=',
    });
    const secret = 'Sup3rSecretValue';
    for (const bad of [
      `http://key:${secret}@host/bucket`,
      `s3://key:${secret}@host/`,
      `s3://key:${secret}@host/bucket/more`,
      `s3://key:${secret}@host/bucket?endpoint=x`,
      `s3://host/bucket`,
      `s3://key:${secret}%@host/bucket`,
      `s3://key:${secret}@/bucket`,
    ]) {
      let error: unknown;
      try {
        openObjectStore({ url: bad, dataDir: '/nonexistent' });
      } catch (caught) {
        error = caught;
      }
      expect(error, bad).toBeInstanceOf(ObjectStoreError);
      expect((error as Error).message).toMatch(/^OBJECT_STORE_URL: /);
      expect((error as Error).message).not.toContain(secret);
    }
  });
});

describe('object store: configuration', () => {
  it('OBJECT_STORE_URL is an s3:// or s3s:// URL, unset by default', () => {
    expect(loadConfig({}).objectStoreUrl).toBeUndefined();
    expect(loadConfig({ OBJECT_STORE_URL: 's3s://k:s@host/bucket' }).objectStoreUrl).toBe('s3s://k:s@host/bucket');
    expect(() => loadConfig({ OBJECT_STORE_URL: 'https://host/bucket' })).toThrow(/OBJECT_STORE_URL/);
  });
});
