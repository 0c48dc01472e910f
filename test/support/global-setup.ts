// Runs once per `vitest run` for the projects that need a database: migrates
// one template per kind, so no test file compiles Prisma's schema engine again.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPGlite } from '../../lib/db/pglite.js';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../../lib/db/migrate.js';
import { TEST_POSTGRES_URL, withAdminClient } from './postgres.js';
import { PrismaPg } from '@prisma/adapter-pg';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a tarball of a migrated PGlite data folder (PGlite's dumpDataDir) */
    pgliteTemplate: string;
    /** a migrated PostgreSQL database that per-file databases are created from */
    postgresTemplate: string;
  }
}

interface Templates {
  pgliteTemplate: string;
  postgresTemplate: string;
  remove(): Promise<void>;
}

/**
 * Vitest runs a global setup once per project, each in the same main process:
 * the templates are made by the first and shared through globalThis.
 */
const shared = globalThis as { platformTemplates?: Promise<Templates> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const first = !shared.platformTemplates;
  shared.platformTemplates ??= createTemplates();
  const templates = await shared.platformTemplates;
  project.provide('pgliteTemplate', templates.pgliteTemplate);
  project.provide('postgresTemplate', templates.postgresTemplate);
  return first ? () => templates.remove() : () => Promise.resolve();
}

async function createTemplates(): Promise<Templates> {
  const dir = mkdtempSync(path.join(tmpdir(), 'platform-templates-'));
  const pglite = await openPGlite();
  await applyMigrations(new PrismaPGlite(pglite));
  const tarball = path.join(dir, 'pglite.tar');
  writeFileSync(tarball, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await pglite.close();

  const template = `platform_template_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${template}"`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${template}`;
  const adapter = new PrismaPg({ connectionString: url.toString(), max: 2 });
  await applyMigrations(adapter);
  // A template must have no open connections when it is copied.
  await withAdminClient((client) => client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [template]));

  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    await withAdminClient(async (client) => {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [template]);
      await client.query(`DROP DATABASE IF EXISTS "${template}"`);
    });
  };
  return { pgliteTemplate: tarball, postgresTemplate: template, remove };
}
