// Database tooling without Prisma's native engine (it cannot be downloaded here):
//   tsx scripts/db.ts migrate        apply pending migrations (DATABASE_URL, or PGlite in PLATFORM_DATA_DIR)
//   tsx scripts/db.ts create <name>  write a new migration from the schema folder
//   tsx scripts/db.ts diff           print what the migrations lack against the schema; exit 1 if anything
//   tsx scripts/db.ts generate       prisma generate, with no engine download
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openPGlite, PGliteMigrationAdapter } from '../lib/db/pglite.js';
import { loadConfig } from '../lib/config.js';
import { createMigration, diffMigrationsToSchema } from '../lib/db/migrate.js';

const [command, name] = process.argv.slice(2);

/** Diffs run against a throw-away PGlite: its shadow database is another in-memory instance. */
const scratchAdapter = async () => new PGliteMigrationAdapter(await openPGlite());

switch (command) {
  case 'generate': {
    // `prisma generate` needs no engine; pointing the variable at any existing file stops the download attempt.
    const require = createRequire(import.meta.url);
    const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
    const result = spawnSync(process.execPath, [cli, 'generate'], {
      stdio: 'inherit',
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.resolve('package.json'),
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
      },
    });
    process.exit(result.status ?? 1);
    break;
  }
  case 'migrate': {
    // Imported here: `generate` must run before the generated client exists.
    const { openDatabase } = await import('../lib/db/client.js');
    const config = loadConfig();
    const started = Date.now();
    const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'pglite') });
    console.log(`${database.description} is migrated (${Date.now() - started} ms)`);
    await database.close();
    break;
  }
  case 'create': {
    if (!name) throw new Error('usage: npm run db:migrate:create -- <name>');
    const dir = await createMigration(await scratchAdapter(), name);
    console.log(dir ? `wrote ${dir}/migration.sql` : 'the migrations already match the schema: nothing to write');
    break;
  }
  case 'diff': {
    const sql = await diffMigrationsToSchema(await scratchAdapter());
    if (sql) {
      console.log(sql);
      process.exit(1);
    }
    console.log('the migrations match the schema');
    break;
  }
  default:
    console.error('usage: tsx scripts/db.ts generate | migrate | create <name> | diff');
    process.exit(2);
}
