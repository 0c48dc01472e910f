import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to the spool: where, what it holds, and who sent it. */
export interface StagedUpload {
  /** random, unguessable: the handle a route passes to its operation */
  id: string;
  /** the subject (user or client) whose request sent it: only it may claim the upload */
  owner: string;
  /** the file name the client gave */
  filename: string;
  /** bytes received (at most `maxBytes + 1`) */
  size: number;
  /** uppercase hex SHA-256 of the bytes received */
  sha256: string;
  /** more than `maxBytes` were sent: the rest was dropped unread */
  truncated: boolean;
  path: string;
}

/** A spool file untouched this long belongs to no request any more. */
const ABANDONED_AFTER_MS = 3_600_000;

/** An upload cut off at this many bytes is refused by whoever claims it. */
export const truncatedSize = (maxBytes: number) => maxBytes + 1;

/**
 * Large uploads (registration packets) go to files under `<dataDir>/spool`
 * as they arrive, hashed and counted on the way, never held whole in memory;
 * the REST edge stages them and the operation it runs claims them by id in
 * the same process. Files are 0600 and carry only what the client sent
 * (a packet is encrypted); they are removed when released, and at start-up
 * whatever a crash left behind is swept.
 */
export class UploadSpool {
  private readonly staged = new Map<string, StagedUpload>();
  private readonly dir: string;
  private ready: Promise<void> | undefined;

  constructor(
    dataDir: string,
    readonly maxBytes: number,
  ) {
    this.dir = path.join(path.resolve(dataDir), 'spool');
  }

  /**
   * Removes files a crashed process left (their ids died with it): those older than an hour, so
   * that another instance sharing the data folder keeps the uploads it is receiving.
   */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const before = Date.now() - ABANDONED_AFTER_MS;
      for (const name of await readdir(this.dir)) {
        const file = path.join(this.dir, name);
        const modified = await stat(file).then(
          (info) => info.mtimeMs,
          () => Infinity,
        );
        if (!this.staged.has(name) && modified < before) await rm(file, { force: true });
      }
    })();
    return this.ready;
  }

  /**
   * Writes a stream to the spool, at most `maxBytes + 1` bytes: beyond them
   * the rest is read and dropped (so the client gets an answer, not a reset)
   * and the upload is marked truncated.
   */
  async stage(source: Readable, owner: string, filename: string): Promise<StagedUpload> {
    await this.prepare();
    const id = randomBytes(18).toString('base64url');
    const file = path.join(this.dir, id);
    const hash = createHash('sha256');
    const limit = truncatedSize(this.maxBytes);
    let size = 0;
    let truncated = false;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        const room = limit - size;
        if (room <= 0) {
          truncated = true;
          return done();
        }
        const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
        if (kept.length < chunk.length) truncated = true;
        size += kept.length;
        hash.update(kept);
        done(null, kept);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(file, { mode: 0o600, flags: 'wx' }));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    const upload: StagedUpload = { id, owner, filename, size, sha256: hash.digest('hex').toUpperCase(), truncated, path: file };
    this.staged.set(id, upload);
    return upload;
  }

  /** The upload staged under this id for this owner, or undefined (unknown, released, or someone else's). */
  claim(id: string, owner: string): StagedUpload | undefined {
    const upload = this.staged.get(id);
    return upload && upload.owner === owner ? upload : undefined;
  }

  open(upload: StagedUpload): ReadStream {
    return createReadStream(upload.path);
  }

  /** Forgets the upload and removes its file; released twice is fine. */
  async release(id: string): Promise<void> {
    const upload = this.staged.get(id);
    this.staged.delete(id);
    if (upload) await rm(upload.path, { force: true });
  }

  /** Stages bytes already in memory (a GraphQL caller's base64 packet) the same way, so one path checks both doors. */
  stageBuffer(content: Buffer, owner: string, filename: string): Promise<StagedUpload> {
    return this.stage(Readable.from([content]), owner, filename);
  }
}
