// The mock ABIS's stored references, as its protocol (protocol.ts) and identify (identify.ts) read them.

/** The biometric types an ABIS reports per matched modality. */
export type Modality = 'FIR' | 'IIR' | 'FID';

/** One captured biometric of a reference: hex SHA-256 of its decoded BDB, and its type. */
export interface BiometricEntry {
  digest: string;
  modality: Modality;
}

/** What identify finds for one stored reference. */
export interface StoredReference {
  /** as inserted (the store compares ids case-insensitively) */
  referenceId: string;
  entries: BiometricEntry[];
}

/** Where the references live; the in-memory store of store.ts implements it. */
export interface ReferenceStore {
  get(referenceId: string): StoredReference | undefined;
  insert(referenceId: string, entries: BiometricEntry[]): void | Promise<void>;
  delete(referenceId: string): boolean | Promise<boolean>;
  count(): number;
  all(): Iterable<StoredReference>;
}
