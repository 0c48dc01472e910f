import { defineConfig } from 'prisma/config';

// The native schema engine cannot be downloaded here; migrations run through
// the WASM engine (scripts/db.ts), so only the schema location matters.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
});
