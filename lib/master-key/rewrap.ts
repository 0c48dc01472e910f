import { DERIVATION_ROOT_MARKER, type MasterKey } from '../master-key.js';
import type { MasterKeyStorage, SealedColumn, SealedColumnOf, SealedValue } from './storage.js';

/** A bar on the command line (CommandIo.progress). */
export interface RewrapProgress {
  tick(count?: number): void;
  done(): void;
}

type ProgressOf = (label: string, total: number) => RewrapProgress;

export interface SealedCheck {
  /** values per column the key opened */
  opened: Record<string, number>;
  /** the values it did not open */
  failed: { column: string; id: string }[];
}

export interface RewrapReport {
  /** values rewritten per column */
  rewrapped: Record<string, number>;
  /** what the new key opened once the transaction had committed, read again */
  verified: SealedCheck;
}

const quiet: ProgressOf = () => ({ tick: () => undefined, done: () => undefined });

function opens(key: MasterKey, value: SealedValue): boolean {
  try {
    key.unwrap(value.sealed, value.purpose);
    return true;
  } catch {
    return false;
  }
}

async function listAll(columns: SealedColumn[]): Promise<{ column: SealedColumn; values: SealedValue[] }[]> {
  return Promise.all(columns.map(async (column) => ({ column, values: await column.list() })));
}

/**
 * Moves every value wrapped by the master key (the owners' sealed columns:
 * token signing keys, the key store's root and master keys, the platform
 * markers) under a new master key, in one transaction, and keeps the
 * derivation root (MasterKey.derive's HMAC keys) sealed under the new key
 * too, so that client secrets, OTPs and look-ups still match. Base keys are
 * wrapped under their master key and the components' data keys under the
 * key store's keys: they follow without being rewritten.
 */
export class MasterKeyRewrap {
  constructor(
    private readonly storage: MasterKeyStorage,
    /** every sealed column but the markers' (which the storage adds) */
    private readonly columns: readonly SealedColumnOf[],
  ) {}

  /** Whether `key` opens every wrapped value (a dry run of the rewrap; the check after it). */
  async check(key: MasterKey, progress: ProgressOf = quiet): Promise<SealedCheck> {
    const all = await listAll(this.storage.columns(this.columns));
    return this.checkValues(all, key, progress, 'check');
  }

  private checkValues(all: { column: SealedColumn; values: SealedValue[] }[], key: MasterKey, progress: ProgressOf, label: string): SealedCheck {
    const bar = progress(
      label,
      all.reduce((sum, { values }) => sum + values.length, 0),
    );
    const result: SealedCheck = { opened: {}, failed: [] };
    for (const { column, values } of all) {
      result.opened[column.name] = 0;
      for (const value of values) {
        if (opens(key, value)) result.opened[column.name]!++;
        else result.failed.push({ column: column.name, id: value.id });
        bar.tick();
      }
    }
    bar.done();
    return result;
  }

  /**
   * Rewrites every value under `to`, reads them all again in the same
   * transaction and commits only if `to` opens each; then checks once more
   * from outside. A value `from` does not open stops it before anything is
   * written.
   */
  async rewrap(from: MasterKey, to: MasterKey, progress: ProgressOf = quiet): Promise<RewrapReport> {
    if (from.sameAs(to)) throw new Error('the new master key is the one in use: nothing to rewrap');
    const rewrapped = await this.storage.inTransaction(this.columns, async (columns, markers) => {
      const all = await listAll(columns);
      const unreadable = this.checkValues(all, from, quiet, 'check').failed;
      if (unreadable.length)
        throw new Error(`the master key in use does not open ${unreadable.length} value(s), e.g. ${unreadable[0]!.column} ${unreadable[0]!.id}`);
      const bar = progress('rewrap', all.reduce((sum, { values }) => sum + values.length, 0) + 1);
      const counts: Record<string, number> = {};
      for (const { column, values } of all) {
        counts[column.name] = 0;
        for (const value of values) {
          await column.put(value.id, to.wrap(from.unwrap(value.sealed, value.purpose), value.purpose));
          counts[column.name]!++;
          bar.tick();
        }
      }
      // The root the HMAC keys come from: this key's own until now, or the one it opened at start (rewrapped above).
      if (!all.some(({ column, values }) => column === markers && values.some((value) => value.id === DERIVATION_ROOT_MARKER))) {
        await markers.put(DERIVATION_ROOT_MARKER, from.sealRootFor(to));
        counts[markers.name]!++;
      }
      bar.tick();
      bar.done();
      const failed = this.checkValues(await listAll(columns), to, quiet, 'verify').failed;
      if (failed.length) throw new Error(`the new master key does not open ${failed.length} rewritten value(s): nothing was changed`);
      return counts;
    });
    return { rewrapped, verified: await this.check(to, progress) };
  }
}
