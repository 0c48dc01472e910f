import { openPGlite, PGliteMigrationAdapter } from '../../lib/db/pglite.js';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../lib/db/client.js';
import { applyMigrations, diffMigrationsToSchema, migrationList } from '../../lib/db/migrate.js';
import { createTestDatabase } from '../support/postgres.js';

const migrationNames = migrationList().migrationDirectories.map((d) => d.path);

async function checkDatabase(database: Database) {
  const applied = await database.prisma.$queryRawUnsafe<{ migration_name: string; finished_at: Date | null }[]>(
    'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
  );
  expect(applied.map((row) => row.migration_name)).toEqual(migrationNames);
  expect(applied.every((row) => row.finished_at !== null)).toBe(true);
  // applying again changes nothing
  expect(await applyMigrations(database.adapter)).toEqual([]);
  // and the client works on the tables the migrations made
  await database.prisma.user.create({ data: { userId: 'migration-check', roles: ['INDIVIDUAL'], appIds: ['resident'] } });
  expect((await database.prisma.user.findUnique({ where: { userId: 'migration-check' } }))?.roles).toEqual(['INDIVIDUAL']);
}

describe('prisma/migrations', () => {
  it('has at least one migration', () => {
    expect(migrationNames.length).toBeGreaterThan(0);
  });

  it('produces exactly the Prisma schema: the diff from migrations to schema is empty', async () => {
    expect(await diffMigrationsToSchema(new PGliteMigrationAdapter(await openPGlite()))).toBe('');
  });

  it('migrates a fresh embedded PGlite database', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await checkDatabase(database);
    } finally {
      await database.close();
    }
  });

  it('migrates a fresh PostgreSQL database', async () => {
    const server = await createTestDatabase();
    const database = await openDatabase({ url: server.url });
    try {
      expect(database.description).not.toMatch(/:[^@/]*@/);
      await checkDatabase(database);
    } finally {
      await database.close();
      await server.drop();
    }
  });
});
