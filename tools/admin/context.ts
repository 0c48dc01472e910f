import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PlatformConfig } from '../../lib/config.js';
import type { Database } from '../../lib/db/client.js';
import type { JobQueue } from '../../lib/jobs/queue.js';
import type { Logger } from '../../lib/log.js';
import { CommandRefusal, type AdminContext } from './command.js';
import { migrationStatus } from './migrations.js';

export interface OpenedContext {
  context: AdminContext;
  close(): Promise<void>;
}

/** The embedded database's folder, as `npm start` opens it. */
export const pgliteFolder = (config: PlatformConfig) => path.join(config.dataDir, 'pglite');

/** Whether the embedded database has been made (opening an absent one would make an empty one). */
export const pgliteExists = (config: PlatformConfig) => existsSync(path.join(pgliteFolder(config), 'PG_VERSION'));

/**
 * Opens the platform's database as it is, never migrating it (an operator's
 * tool does not change the schema under a running platform). The embedded one
 * is refused while another process has it open (lib/db/data-lock.ts).
 */
export async function openPlatformDatabase(config: PlatformConfig): Promise<Database> {
  const { openDatabase } = await import('../../lib/db/client.js');
  const { DataFolderInUse } = await import('../../lib/db/data-lock.js');
  if (!config.databaseUrl && !pgliteExists(config)) {
    throw new CommandRefusal(`there is no embedded database in ${pgliteFolder(config)} yet: start the platform once, or set DATABASE_URL`);
  }
  let database: Database;
  try {
    database = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl, migrate: false, poolSize: 4 } : { dataDir: pgliteFolder(config), migrate: false },
    );
  } catch (error) {
    if (error instanceof DataFolderInUse) throw new CommandRefusal(error.message);
    throw error;
  }
  await reachable(database, config).catch(async (error: unknown) => {
    await database.close().catch(() => undefined);
    throw error;
  });
  return database;
}

/** A first query: PostgreSQL's pool connects lazily, so an unreachable server shows here, named without the driver's words. */
async function reachable(database: Database, config: PlatformConfig): Promise<void> {
  try {
    await database.ping();
  } catch {
    const { redactUrl } = await import('../../lib/db/client.js');
    throw new CommandRefusal(`cannot reach the database at ${redactUrl(config.databaseUrl ?? '')}: is it running, and is DATABASE_URL right?`);
  }
}

/** The master key `npm start` would use; never a new one (secrets written under a new key would open nowhere else). */
async function masterKeyOf(config: PlatformConfig, logger: Logger) {
  const { MasterKey } = await import('../../lib/master-key.js');
  if (!config.masterKey && !existsSync(path.join(config.dataDir, 'master-key'))) {
    throw new CommandRefusal(`PLATFORM_MASTER_KEY is not set and ${config.dataDir} holds no development key: set it as the platform has it`);
  }
  return MasterKey.load(config.masterKey, config.dataDir, logger);
}

/**
 * The platform has started on this database: its token signing key (the
 * first row a start writes) and bootstrap accounts exist. Otherwise the
 * command would make the key itself, under whatever master key it was given,
 * and the platform could not open it.
 */
async function startedBefore(database: Database): Promise<void> {
  const { TokenStorage } = await import('../../lib/tokens/storage.js');
  if (!(await new TokenStorage(database.prisma).signingKeys()).length) {
    throw new CommandRefusal('the platform has never started on this database: start it once (npm start), which makes its keys and the admin account');
  }
}

/**
 * The platform's dependencies as `npm start` builds them (every component's
 * services, the job handlers), but no job runner and no listener: a command
 * changes rows through the services, and the platform's own runners do the
 * work that follows.
 */
export async function openAdminContext(config: PlatformConfig, logger: Logger, actor: string): Promise<OpenedContext> {
  const database = await openPlatformDatabase(config);
  let runCloseTasks: (() => Promise<void>) | undefined;
  const close = async () => {
    await runCloseTasks?.();
    await database.close();
  };
  try {
    const { pending, failed } = await migrationStatus(database);
    if (failed.length) throw new CommandRefusal(`the migration ${failed[0]} failed on this database: resolve it before using the platform`);
    if (pending.length) throw new CommandRefusal(`the database lacks ${pending.length} migration(s) (${pending[0]}…): run npm run db:migrate first`);
    await startedBefore(database);
    const masterKey = await masterKeyOf(config, logger);
    const { createDeps } = await import('../../gateway/deps.js');
    const dependencies = await createDeps({ config, database, masterKey, logger }).catch((error: unknown) => {
      // The token signing key is the first secret opened: another key than the platform's fails its authentication tag.
      if (error instanceof Error && /unable to authenticate data/i.test(error.message)) {
        throw new CommandRefusal("the master key does not open this platform's keys: set PLATFORM_MASTER_KEY as the platform has it");
      }
      throw error;
    });
    runCloseTasks = dependencies.runCloseTasks;
    const context: AdminContext = {
      deps: dependencies.deps,
      database,
      jobQueue: dependencies.jobQueue,
      config,
      clock: dependencies.deps.clock,
      actor,
    };
    return { context, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** An admin context over a platform already open in this process (tests, and any tool that has one). */
export function contextOver(deps: AdminContext['deps'], database: Database, actor = 'admin'): AdminContext {
  return { deps, database, jobQueue: deps.jobs as JobQueue, config: deps.config, clock: deps.clock, actor };
}
