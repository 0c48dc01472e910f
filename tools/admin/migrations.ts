import { createHash } from 'node:crypto';
import type { Database } from '../../lib/db/client.js';
import { migrationList } from '../../lib/db/migrate.js';

export interface MigrationStatus {
  /** the migrations of the folder, oldest first, with when each was applied (null: pending) */
  migrations: { name: string; appliedAt: Date | null }[];
  pending: string[];
  /** started and neither finished nor rolled back: `prisma migrate deploy` refuses to go on */
  failed: string[];
  /** applied, but the file has changed since */
  modified: string[];
  /** applied to the database, but absent from the folder (a newer platform's, or a removed one) */
  unknown: string[];
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * The migrations folder against the database's record of them (Prisma's
 * `_prisma_migrations`), read only: nothing is applied.
 */
export async function migrationStatus(database: Pick<Database, 'prisma'>): Promise<MigrationStatus> {
  const [table] = await database.prisma.$queryRaw<{ name: string | null }[]>`SELECT to_regclass('public._prisma_migrations')::text AS name`;
  const rows = table?.name
    ? await database.prisma.$queryRaw<AppliedRow[]>`SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at`
    : [];
  const folder = migrationList().migrationDirectories.map((directory) => ({
    name: directory.path,
    sql: directory.migrationFile.content.tag === 'ok' ? directory.migrationFile.content.value : '',
  }));
  const live = rows.filter((row) => row.rolled_back_at === null);
  const applied = new Map(live.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row]));
  const migrations = folder.map(({ name }) => ({ name, appliedAt: applied.get(name)?.finished_at ?? null }));
  const names = new Set(folder.map((migration) => migration.name));
  return {
    migrations,
    pending: migrations.filter((migration) => !migration.appliedAt).map((migration) => migration.name),
    failed: live.filter((row) => row.finished_at === null).map((row) => row.migration_name),
    // Prisma's checksum is the SHA-256 of the file as it was applied.
    modified: folder
      .filter(({ name, sql }) => applied.has(name) && applied.get(name)!.checksum !== createHash('sha256').update(sql).digest('hex'))
      .map(({ name }) => name),
    unknown: [...applied.keys()].filter((name) => !names.has(name)),
  };
}
