import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { checkKey, checkLimit, checkPrefix, DEFAULT_LIST_LIMIT, ObjectStoreError, type ObjectStore, SEGMENT } from './common.js';

/** The code of a file system error, if it has one. */
function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Objects as files under `<dataDir>/objects/<key>` (folders 0700, files 0600).
 * `put` writes a temporary file beside the target (its name holds a `~`, which
 * no key may) and renames it over the target after fsync: a reader sees the
 * old object or the new one, never a part. Unlike S3, a key cannot be both an
 * object and the folder of longer keys (`a` and `a/b`): the second put fails.
 */
export class FileObjectStore implements ObjectStore {
  readonly kind = 'files';
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(path.resolve(dataDir), 'objects');
  }

  put(key: string, data: Buffer): Promise<void> {
    return this.write(key, (file) => file.writeFile(data));
  }

  putFile(key: string, filePath: string): Promise<void> {
    // Written chunk by chunk as the file is read: never whole in memory.
    return this.write(key, (file) => file.writeFile(createReadStream(filePath)));
  }

  /** Fills a temporary file beside the target, fsyncs it, renames it over the target: whole or not at all. */
  private async write(key: string, fill: (file: FileHandle) => Promise<void>): Promise<void> {
    checkKey(key);
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    const temporary = path.join(folder, `${path.basename(target)}~${randomBytes(8).toString('hex')}.tmp`);
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const file = await open(temporary, 'wx', 0o600);
      try {
        await fill(file);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, target);
      await syncFolder(folder);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw this.failure('put', key, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    checkKey(key);
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      // EISDIR: the key is only the folder of longer keys.
      if (codeOf(error) === 'EISDIR' || (await this.absent(error))) return null;
      throw this.failure('get', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if (codeOf(error) === 'EISDIR' || (await this.absent(error))) return;
      throw this.failure('delete', key, error);
    }
  }

  async list(prefix: string, limit = DEFAULT_LIST_LIMIT): Promise<string[]> {
    checkPrefix(prefix);
    checkLimit(limit);
    const cut = prefix.lastIndexOf('/') + 1;
    const keys: string[] = [];
    try {
      await this.walk(prefix.slice(0, cut), prefix.slice(cut), keys, limit);
    } catch (error) {
      throw this.failure('list', prefix, error);
    }
    return keys;
  }

  /**
   * Appends the keys under the folder `folderKey` (`''` or `a/b/`) whose next
   * segment starts with `start`, in S3's order (byte order of whole keys: a
   * folder `x` sorts as `x/`), until `limit`.
   */
  private async walk(folderKey: string, start: string, keys: string[], limit: number): Promise<void> {
    let entries;
    try {
      entries = await readdir(path.join(this.root, ...folderKey.split('/').filter(Boolean)), { withFileTypes: true });
    } catch (error) {
      if (await this.absent(error)) return;
      throw error;
    }
    const found = entries
      .filter((entry) => entry.name.startsWith(start) && SEGMENT.test(entry.name) && (entry.isFile() || entry.isDirectory()))
      .map((entry) => ({ name: entry.name, folder: entry.isDirectory(), order: entry.isDirectory() ? `${entry.name}/` : entry.name }))
      .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    for (const entry of found) {
      if (keys.length >= limit) return;
      if (entry.folder) await this.walk(`${folderKey}${entry.name}/`, '', keys, limit);
      else keys.push(`${folderKey}${entry.name}`);
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  /**
   * Whether a failed read means "no such object": ENOENT, or ENOTDIR when a
   * shorter key is a file, but not when the store's own folder is unusable
   * (the data dir is a file, say).
   */
  private async absent(error: unknown): Promise<boolean> {
    const code = codeOf(error);
    if (code === 'ENOENT') return true;
    if (code !== 'ENOTDIR') return false;
    try {
      return (await stat(this.root)).isDirectory();
    } catch (rootError) {
      return codeOf(rootError) === 'ENOENT';
    }
  }

  private failure(operation: string, key: string, error: unknown): ObjectStoreError {
    const detail = error instanceof Error ? error.message : String(error);
    return new ObjectStoreError(`object store (files) ${operation} ${JSON.stringify(key)} failed: ${detail}`, { cause: error });
  }
}

/** Makes a rename durable; file systems that cannot fsync a folder are let be. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'ENOTSUP', 'EPERM', 'EISDIR'].includes(codeOf(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}
