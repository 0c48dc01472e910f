import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * What every project shares. Vite would load graphql's ESM build for our code
 * while the Apollo packages require its CommonJS build: two copies that reject
 * each other's schemas, hence the alias.
 */
const project = (name: string, include: string[], test: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration => ({
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    name,
    include,
    // A bound against a hung test, not a speed check: generous, since CI shares two cores with other work.
    testTimeout: 60000,
    hookTimeout: 120000,
    ...test,
    env: { LOG_LEVEL: 'silent', APOLLO_TELEMETRY_DISABLED: '1', ...test.env },
  },
});

/**
 * Files of a worker share its loaded modules instead of loading the whole
 * platform again for each (a third of the suite's time went to imports).
 * Each file still starts its own platforms over its own database; what a
 * module keeps across files is only what a platform does not own (test
 * support's per-test hooks live in setup files, run before every file). The
 * integration files start processes, register tracing and change process
 * state: each keeps a fresh module graph.
 */
const shareModules = { isolate: false };

/** Migrates one template database per kind, once per run, for the projects that need a database. */
const withTemplates = { globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/each-file.ts'] };

/**
 * The REST files that also run on embedded PGlite: one per component (its
 * widest), and every file whose behaviour is embedded-specific (the sample
 * country a fresh embedded start loads, PGlite's data folder at rest, its
 * in-process LISTEN, trigram search, races on its one connection). The whole
 * REST suite runs on PostgreSQL.
 */
export const PGLITE_SMOKE = [
  'auth', // logins, tokens, sessions
  'edge', // revocation through PGlite's in-process LISTEN
  'gateway', // health and the database's kind
  'otp',
  'keys',
  'license',
  'notify-at-rest', // the outbox sealed in PGlite's data folder
  'masterdata-sample', // the sample country a fresh embedded start loads
  'masterdata-holidays', // pg_trgm search on PGlite
  'syncdata',
  'partner-validation', // the whole partner life cycle
  'partner-certificates', // racing uploads under an advisory lock on one connection
  'idrepo',
  'sample-identity', // the spec's identity on a fresh embedded start
  'sample-admin', // the bootstrap admin's partner management on a fresh embedded start
  'regproc-sync', // an encrypted sync decrypted with the REGISTRATION keys
  'regproc-pipeline', // a packet through every stage to an identity, on the embedded database as in `npm start`
  'regproc-at-rest', // nothing of a processed packet in clear in PGlite's data folder
  'abis-datashare', // a registration's CBEFF encrypted for the ABIS partner
  'prereg-booking-race', // the last place of a slot raced on one connection
  'node', // global ids refetched through each entity's owner
].map((name) => `test/rest/${name}.test.ts`);

// `unit` needs nothing; `integration` needs PostgreSQL, ActiveMQ and a JDK; the REST suite
// runs whole on the local PostgreSQL server and in part (PGLITE_SMOKE) on embedded PGlite
// (test/support/platform.ts reads PLATFORM_TEST_DB). Test files are mostly waiting on the
// database and on HTTP: one worker per core, and at least two, keep the cores busy.
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      project('unit', ['test/unit/**/*.test.ts'], shareModules),
      project('integration', ['test/integration/**/*.test.ts'], withTemplates),
      project('postgres', ['test/rest/**/*.test.ts'], { ...withTemplates, ...shareModules, env: { PLATFORM_TEST_DB: 'postgres' } }),
      project('pglite', PGLITE_SMOKE, { ...withTemplates, ...shareModules, env: { PLATFORM_TEST_DB: 'pglite' } }),
      // Faults of the machine's servers (PostgreSQL restarted): only when asked for (`npm run test:faults`, CI's last step),
      // never beside other files, which the restart would fail.
      ...(process.env.PLATFORM_TEST_FAULTS === 'true'
        ? [project('faults', ['test/faults/**/*.test.ts'], { ...withTemplates, env: { PLATFORM_TEST_DB: 'postgres' } })]
        : []),
    ],
  },
});
