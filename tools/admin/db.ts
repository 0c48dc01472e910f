import type { AdminCommand } from './command.js';
import { when } from './io.js';

export const dbStatus: AdminCommand = {
  path: ['db', 'status'],
  summary: 'the migrations applied to the database and those pending; applies nothing',
  options: ['--all                list every migration, not only the pending ones'],
  parse: { all: { type: 'boolean' } },
  needsPlatform: false,
  async run(args, io) {
    const { loadConfig } = await import('../../lib/config.js');
    const { openPlatformDatabase, pgliteExists, pgliteFolder } = await import('./context.js');
    const { migrationStatus } = await import('./migrations.js');
    const { migrationList } = await import('../../lib/db/migrate.js');
    const config = loadConfig();
    if (!config.databaseUrl && !pgliteExists(config)) {
      // Opening an absent embedded database would make one: it is reported as it is instead.
      const pending = migrationList().migrationDirectories.map((directory) => directory.path);
      io.out(
        `there is no embedded database in ${pgliteFolder(config)} yet: all ${pending.length} migrations pending (npm start or npm run db:migrate applies them)`,
      );
      return { database: `pglite:${pgliteFolder(config)}`, exists: false, applied: [], pending, failed: [], modified: [], unknown: [] };
    }
    const database = await openPlatformDatabase(config);
    try {
      const status = await migrationStatus(database);
      const applied = status.migrations.filter((migration) => migration.appliedAt);
      io.out(`${database.description}: ${applied.length} migration(s) applied, ${status.pending.length} pending`);
      for (const migration of status.migrations) {
        if (migration.appliedAt && args.values.all === true) io.out(`  applied  ${when(migration.appliedAt)}  ${migration.name}`);
        if (!migration.appliedAt) io.out(`  pending  ${migration.name}`);
      }
      for (const name of status.failed) io.out(`  FAILED   ${name} (started, never finished: resolve it before the next migration)`);
      for (const name of status.modified) io.out(`  CHANGED  ${name} (its file differs from what was applied)`);
      for (const name of status.unknown) io.out(`  UNKNOWN  ${name} (applied, but not in this platform's migrations folder)`);
      if (status.pending.length) io.out('npm run db:migrate (or npm start) applies the pending ones');
      return {
        database: database.description,
        exists: true,
        applied: applied.map((migration) => ({ name: migration.name, appliedAt: migration.appliedAt })),
        pending: status.pending,
        failed: status.failed,
        modified: status.modified,
        unknown: status.unknown,
      };
    } finally {
      await database.close();
    }
  },
};
