// npm run masterdata:import -- <folder> [--dry-run]: loads a country's master data from CSV or JSON files
// (one per table, named as subgraphs/masterdata/sample-country's), into DATABASE_URL or the embedded database
// in PLATFORM_DATA_DIR: new rows inserted, changed rows updated, equal ones left alone. The same import as
// `npm run platform -- masterdata import`, with the same output; exits 1 when a row was rejected.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.js';
import { openDatabase } from '../lib/db/client.js';
import { runImport } from '../tools/admin/masterdata.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'dry-run': { type: 'boolean' } } });
const dir = positionals[0];
if (!dir) {
  console.error('usage: npm run masterdata:import -- <folder of CSV or JSON files> [--dry-run]');
  process.exit(2);
}

/** A file's progress on standard error: a line every two seconds and one at its end (no terminal control, logs stay readable). */
function progress(label: string, total: number) {
  let count = 0;
  let shown = Date.now();
  return {
    tick(rows = 1) {
      count += rows;
      if (Date.now() - shown < 2000) return;
      shown = Date.now();
      console.error(`${label}: ${count} of ${total} rows`);
    },
    done: () => console.error(`${label}: ${count} of ${total} rows`),
  };
}

const config = loadConfig();
const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'pglite') });
try {
  const report = await runImport(database.prisma, dir, new Date(), { out: (line) => console.log(line), progress }, { dryRun: values['dry-run'] === true });
  process.exitCode = report.rejected.length ? 1 : 0;
} finally {
  await database.close();
}
