import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// The REST suites run twice: on embedded PGlite and on the local PostgreSQL
// server (test/support/platform.ts reads PLATFORM_TEST_DB).
export default defineConfig({
  // Vite would load graphql's ESM build for our code while the Apollo packages
  // require its CommonJS build: two copies that reject each other's schemas.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    env: { LOG_LEVEL: 'silent', APOLLO_TELEMETRY_DISABLED: '1' },
    testTimeout: 30000,
    hookTimeout: 60000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'pglite', include: ['test/rest/**/*.test.ts'], env: { PLATFORM_TEST_DB: 'pglite' } } },
      { extends: true, test: { name: 'postgres', include: ['test/rest/**/*.test.ts'], env: { PLATFORM_TEST_DB: 'postgres' } } },
    ],
  },
});
