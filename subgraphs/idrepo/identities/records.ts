import { randomUUID } from 'node:crypto';
import type { IdentityFile } from '../../../generated/prisma/client.js';
import { PlatformError } from '../../../lib/errors.js';
import type { ObjectStore } from '../../../lib/object-store/index.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import type { IdentityRow } from './storage.js';

/** A document (DEMO) or biometric record (BIO) of an identity, in clear. */
export interface PlainFile {
  category: string;
  kind: 'DEMO' | 'BIO';
  data: Buffer;
}

/** A file written to the object store, not yet recorded: its row, and how to take it back. */
export interface WrittenFile {
  row: Omit<IdentityFile, 'createdAt'>;
}

/** Where a value sits: the GCM additional data and HMAC binding of identity parts. */
export const contextOf = {
  identity: (identityId: string) => `identity/${identityId}`,
  uin: (identityId: string) => `uin/${identityId}`,
  file: (identityId: string, category: string) => `file/${identityId}/${category}`,
};

/** The stored columns of an identity's attributes: the JSON encrypted, and the HMAC its reads check. */
export function sealedIdentity(cipher: IdrepoCipher, identityId: string, identity: Record<string, unknown>) {
  const json = Buffer.from(JSON.stringify(identity), 'utf8');
  return { identityData: cipher.encrypt(json, contextOf.identity(identityId)), identityHash: cipher.hash(json, contextOf.identity(identityId)) };
}

/** The attributes of an identity in clear, checked against their HMAC. */
export async function openIdentity(cipher: IdrepoCipher, row: Pick<IdentityRow, 'id' | 'identityData' | 'identityHash'>): Promise<Record<string, unknown>> {
  const plain = await cipher.open(row.identityData, row.identityHash, contextOf.identity(row.id));
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}

/** The stored columns of an identity's UIN: its look-up HMAC and its ciphertext. */
export function sealedUin(cipher: IdrepoCipher, identityId: string, uin: string) {
  return { uinHash: cipher.lookup(uin), uinEncrypted: cipher.encrypt(Buffer.from(uin, 'utf8'), contextOf.uin(identityId)) };
}

/**
 * The encrypted files of identities in the object store. Writes are all or
 * nothing: a failure removes what was written before it; the caller removes
 * them too when its database write fails, and removes replaced files only
 * after its own commit.
 */
export class IdentityFiles {
  constructor(
    private readonly store: ObjectStore,
    private readonly cipher: IdrepoCipher,
  ) {}

  async write(identityId: string, files: readonly PlainFile[]): Promise<WrittenFile[]> {
    const written: WrittenFile[] = [];
    try {
      for (const file of files) {
        const id = randomUUID();
        const context = contextOf.file(identityId, file.category);
        const objectKey = `idrepo/${identityId}/${id}`;
        await this.store.put(objectKey, Buffer.from(this.cipher.encrypt(file.data, context), 'utf8'));
        written.push({ row: { id, identityId, category: file.category, kind: file.kind, objectKey, hash: this.cipher.hash(file.data, context) } });
      }
      return written;
    } catch (error) {
      await this.remove(written.map((file) => file.row.objectKey));
      throw storeFailure(error);
    }
  }

  /** Reads and checks files: a missing, tampered or swapped object is an error, never data. */
  async read(rows: readonly IdentityFile[]): Promise<{ category: string; value: string }[]> {
    return Promise.all(
      rows.map(async (row) => {
        let stored: Buffer | null;
        try {
          stored = await this.store.get(row.objectKey);
        } catch (error) {
          throw storeFailure(error);
        }
        if (!stored) throw idrepoErrors.store();
        const plain = await this.cipher.open(stored.toString('utf8'), row.hash, contextOf.file(row.identityId, row.category));
        return { category: row.category, value: plain.toString('base64') };
      }),
    );
  }

  /** Best effort: an object left behind is unreachable (no row names it) and holds only ciphertext. */
  async remove(objectKeys: readonly string[]): Promise<void> {
    await Promise.allSettled(objectKeys.map((key) => this.store.delete(key)));
  }
}

/** The store's own failures become IDR-IDS-004; the platform's coded errors pass as they are. */
function storeFailure(error: unknown): Error {
  return error instanceof PlatformError ? error : idrepoErrors.store();
}
