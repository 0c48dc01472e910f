import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCHEMA_DIR = path.join(ROOT, 'prisma', 'schema');
export const MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');
const LOCKFILE = 'migration_lock.toml';

interface SchemaEngine {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}
interface EngineModule {
  SchemaEngine: { new: (options: unknown, log: (message: string) => void, adapter: unknown) => Promise<SchemaEngine> };
}

let engineModule: Promise<EngineModule> | undefined;

/**
 * Prisma's schema engine as WebAssembly: the native binary cannot be
 * downloaded on these machines. Instantiated once per process.
 */
function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const bindingsFile = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bindings = (await import(pathToFileURL(bindingsFile).href)) as EngineModule & { __wbg_set_wasm(exports: unknown): void };
    const dir = path.dirname(bindingsFile);
    const { instance } = await WebAssembly.instantiate(readFileSync(path.join(dir, 'schema_engine_bg.wasm')), {
      './schema_engine_bg.js': withUnrefTimers(bindings as unknown as WebAssembly.ModuleImports),
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bindings;
  })();
  return engineModule;
}

/**
 * The engine arms 10 s timers (connection and lock timeouts) that outlive a
 * finished migration; unref'd, they no longer keep a stopping process alive.
 */
function withUnrefTimers(imports: WebAssembly.ModuleImports): WebAssembly.ModuleImports {
  const patched: WebAssembly.ModuleImports = { ...imports };
  for (const [name, value] of Object.entries(imports)) {
    if (name.startsWith('__wbg_setTimeout_') && typeof value === 'function') {
      patched[name] = (...args: unknown[]) => {
        const timer = (value as (...a: unknown[]) => unknown)(...args);
        (timer as { unref?: () => void } | undefined)?.unref?.();
        return timer;
      };
    }
  }
  return patched;
}

/** Every .prisma file of the schema folder, as the engine wants them. */
export function schemaFiles(): { path: string; content: string }[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.prisma'))
    .sort()
    .map((file) => ({ path: path.join(SCHEMA_DIR, file), content: readFileSync(path.join(SCHEMA_DIR, file), 'utf8') }));
}

/** The migrations folder in the engine's shape (what `prisma migrate` reads from disk). */
export function migrationList() {
  const directories = existsSync(MIGRATIONS_DIR)
    ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  const lockPath = path.join(MIGRATIONS_DIR, LOCKFILE);
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: directories.map((name) => {
      const file = path.join(MIGRATIONS_DIR, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: existsSync(file) ? { tag: 'ok', value: readFileSync(file, 'utf8') } : { tag: 'error', value: 'missing migration.sql' },
        },
      };
    }),
  };
}

const NO_FILTER = { externalTables: [], externalEnums: [] };

/**
 * Runs one engine over the adapter. The connections the engine opens are
 * disposed afterwards: it never releases them itself, and one left holding
 * Prisma's advisory lock makes the next migration wait for its 10 s timeout.
 */
async function withEngine<T>(adapter: SqlMigrationAwareDriverAdapterFactory, run: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const opened: { dispose(): Promise<void> }[] = [];
  const track = async <A extends { dispose(): Promise<void> }>(connection: Promise<A>) => {
    const adapterConnection = await connection;
    opened.push(adapterConnection);
    return adapterConnection;
  };
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    connect: () => track(adapter.connect()),
    connectToShadowDb: () => track(adapter.connectToShadowDb()),
  };
  const engine = await SchemaEngine.new(
    { datamodels: schemaFiles().map((file) => [file.path, file.content]) },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(tracking),
  );
  try {
    return await run(engine);
  } catch (error) {
    throw new Error(`schema engine: ${describe(error)}`);
  } finally {
    engine.free();
    await Promise.all(opened.map((connection) => connection.dispose()));
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) return JSON.stringify(error);
  return String(error);
}

/** Applies pending migrations exactly as `prisma migrate deploy` does; returns the names applied. */
export async function applyMigrations(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  return withEngine(adapter, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList: migrationList(), filters: NO_FILTER });
    return appliedMigrationNames;
  });
}

/** The SQL that would take the migrations folder to the Prisma schema; '' when they agree. Uses the adapter's shadow database. */
export async function diffMigrationsToSchema(adapter: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  return withEngine(adapter, async (engine) => {
    const migrations = migrationList();
    const result = await engine.diff({
      from: migrations.migrationDirectories.length ? { tag: 'migrations', ...migrations } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: schemaFiles() },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    });
    return result.exitCode === 2 ? (result.stdout ?? '').trim() : '';
  });
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql from the diff; null when there is nothing to migrate. */
export async function createMigration(adapter: SqlMigrationAwareDriverAdapterFactory, name: string): Promise<string | null> {
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error('a migration name is letters, digits and underscores');
  const sql = await diffMigrationsToSchema(adapter);
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql + '\n');
  const lock = path.join(MIGRATIONS_DIR, LOCKFILE);
  if (!existsSync(lock)) {
    writeFileSync(lock, '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n');
  }
  return dir;
}
