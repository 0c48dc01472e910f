import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Tx } from '../db/lock.js';
import { MasterKey, markerPurpose } from '../master-key.js';

/** One value wrapped by the master key, where it is kept. */
export interface SealedValue {
  /** the row's key in its table */
  id: string;
  /** what it was wrapped for (MasterKey.wrap's purpose) */
  purpose: string;
  sealed: string;
}

/** One column of values wrapped by the master key, as a rewrap reads and rewrites it; its owner's storage makes it. */
export interface SealedColumn {
  name: string;
  list(): Promise<SealedValue[]>;
  put(id: string, sealed: string): Promise<void>;
}

/** A sealed column over the database, or over the rewrap's transaction. */
export type SealedColumnOf = (db: PrismaClient | Tx) => SealedColumn;

/**
 * The platform markers sealed by the master key (value `mk1.…`): the start's
 * check value and the derivation root. A marker is sealed for the purpose
 * `platform/<name>` (markerPurpose), so a rewrap knows each one's.
 */
export const sealedMarkers: SealedColumnOf = (db) => ({
  name: 'platform markers',
  list: async () =>
    (await db.platformMarker.findMany({ orderBy: { name: 'asc' } }))
      .filter((row) => MasterKey.isWrapped(row.value))
      .map((row) => ({ id: row.name, purpose: markerPurpose(row.name), sealed: row.value })),
  put: async (name, sealed) => {
    await db.platformMarker.upsert({ where: { name }, create: { name, value: sealed }, update: { value: sealed } });
  },
});

/** How long a rewrap's transaction may run: every wrapped value of the platform is read, rewritten and read again. */
const REWRAP_MS = 10 * 60_000;

/** Where a rewrap runs: one transaction over every sealed column, held under an advisory lock (two rewraps never interleave). */
export class MasterKeyStorage {
  constructor(private readonly prisma: PrismaClient) {}

  /** The columns, the markers last, outside any transaction (a check reads them). */
  columns(of: readonly SealedColumnOf[]): SealedColumn[] {
    return [...of, sealedMarkers].map((column) => column(this.prisma));
  }

  /** Runs `work` over the columns (the markers last, and apart) as one transaction sees them: committed when it returns, rolled back when it throws. */
  inTransaction<T>(of: readonly SealedColumnOf[], work: (columns: SealedColumn[], markers: SealedColumn) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext('platform_master_key_rewrap'))) AS lock`;
        const markers = sealedMarkers(tx);
        return work([...of.map((column) => column(tx)), markers], markers);
      },
      { timeout: REWRAP_MS, maxWait: 60_000 },
    );
  }
}
