import { createRequire } from 'node:module';
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
    testTimeout: 30000,
    hookTimeout: 60000,
    ...test,
    env: { LOG_LEVEL: 'silent', APOLLO_TELEMETRY_DISABLED: '1', ...test.env },
  },
});

/** Migrates one template database per kind, once per run, for the projects that need a database. */
const withTemplates = { globalSetup: ['test/support/global-setup.ts'] };

// `unit` needs nothing; `integration` needs PostgreSQL, ActiveMQ and a JDK; the REST
// suites run twice, on embedded PGlite and on the local PostgreSQL server
// (test/support/platform.ts reads PLATFORM_TEST_DB).
export default defineConfig({
  test: {
    projects: [
      project('unit', ['test/unit/**/*.test.ts']),
      project('integration', ['test/integration/**/*.test.ts'], withTemplates),
      project('pglite', ['test/rest/**/*.test.ts'], { ...withTemplates, env: { PLATFORM_TEST_DB: 'pglite' } }),
      project('postgres', ['test/rest/**/*.test.ts'], { ...withTemplates, env: { PLATFORM_TEST_DB: 'postgres' } }),
    ],
  },
});
