import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BiometricEntry, Modality, ReferenceStore, StoredReference } from './protocol.js';

/**
 * The mock ABIS's references: referenceId -> the hex SHA-256 of each usable
 * BDB with its modality. In memory; with a state file, every change is
 * written to it (a temporary file renamed over it) and it is read on start.
 * Ids compare case-insensitively; a reference keeps the spelling it was
 * inserted with. The replies sent (by requestId) are kept in the same file,
 * so a redelivered request is answered the same way after a restart.
 */

interface StateFile {
  version: 1;
  references: StoredReference[];
  replies?: Record<string, string>;
}

const MODALITIES: readonly Modality[] = ['FIR', 'IIR', 'FID'];

export interface MemoryStoreOptions {
  /** JSON file to load from and persist to */
  stateFile?: string;
  /** how many replies are kept for repeated requestIds; default 10000 */
  maxReplies?: number;
}

export class MemoryStore implements ReferenceStore {
  private readonly references = new Map<string, StoredReference>();
  private readonly replies = new Map<string, string>();
  private readonly stateFile: string | undefined;
  private readonly maxReplies: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.stateFile = options.stateFile;
    this.maxReplies = options.maxReplies ?? 10_000;
    if (this.stateFile) this.load(this.stateFile);
  }

  get(referenceId: string): StoredReference | undefined {
    return this.references.get(referenceId.toLowerCase());
  }

  insert(referenceId: string, entries: BiometricEntry[]): void {
    this.references.set(referenceId.toLowerCase(), { referenceId, entries: entries.map((entry) => ({ ...entry, digest: entry.digest.toLowerCase() })) });
    this.persist();
  }

  delete(referenceId: string): boolean {
    const deleted = this.references.delete(referenceId.toLowerCase());
    if (deleted) this.persist();
    return deleted;
  }

  count(): number {
    return this.references.size;
  }

  all(): Iterable<StoredReference> {
    return this.references.values();
  }

  /** The reply body sent for this requestId, if any. */
  reply(requestId: string): string | undefined {
    return this.replies.get(requestId);
  }

  /** Remembers the reply body sent for a requestId (oldest forgotten past maxReplies). */
  rememberReply(requestId: string, body: string): void {
    this.replies.delete(requestId);
    this.replies.set(requestId, body);
    while (this.replies.size > this.maxReplies) this.replies.delete(this.replies.keys().next().value!);
    this.persist();
  }

  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const state = JSON.parse(text) as Partial<StateFile>;
    if (!Array.isArray(state.references)) throw new Error(`${file} is not a mock ABIS state file`);
    for (const reference of state.references) {
      if (typeof reference?.referenceId !== 'string' || !Array.isArray(reference.entries)) throw new Error(`${file}: a malformed reference`);
      const entries = reference.entries.filter(
        (entry): entry is BiometricEntry => typeof entry?.digest === 'string' && (MODALITIES as readonly string[]).includes(entry.modality),
      );
      this.references.set(reference.referenceId.toLowerCase(), { referenceId: reference.referenceId, entries });
    }
    for (const [requestId, body] of Object.entries(state.replies ?? {})) if (typeof body === 'string') this.replies.set(requestId, body);
  }

  private persist(): void {
    if (!this.stateFile) return;
    const state: StateFile = { version: 1, references: [...this.references.values()], replies: Object.fromEntries(this.replies) };
    mkdirSync(dirname(this.stateFile), { recursive: true });
    const temporary = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state, null, 1), { mode: 0o600 });
    renameSync(temporary, this.stateFile);
  }
}
