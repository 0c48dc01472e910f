// npm run masterdata:import -- <folder>: loads a country's master data from CSV or JSON files
// (one per table, named as data/sample-country's), into DATABASE_URL or the embedded database
// in PLATFORM_DATA_DIR; prints progress, and each rejected row with its file and line.
import path from 'node:path';
import { loadConfig } from '../lib/config.js';
import { openDatabase } from '../lib/db/client.js';
import { importMasterdata } from '../subgraphs/masterdata/import/loader.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run masterdata:import -- <folder of CSV or JSON files>');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'pglite') });
try {
  const report = await importMasterdata(database.prisma, path.resolve(dir), 'import', new Date(), (message) => console.log(message));
  for (const row of report.rejected) console.log(`rejected: ${row.file} line ${row.line}: ${row.reason}`);
  console.log(`loaded ${Object.values(report.loaded).reduce((a, b) => a + b, 0)} rows, rejected ${report.rejected.length}`);
  process.exitCode = report.rejected.length ? 1 : 0;
} finally {
  await database.close();
}
