import { defineConfig } from 'vitest/config';

// The REST suites run twice: on embedded PGlite and on the local PostgreSQL
// server (test/support/platform.ts reads PLATFORM_TEST_DB).
export default defineConfig({
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
