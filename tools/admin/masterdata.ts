import path from 'node:path';
import { importMasterdata, type ImportOptions, type ImportReport } from '../../subgraphs/masterdata/import/loader.js';
import { actAs } from './actor.js';
import { CommandRefusal, type AdminCommand, type AdminContext, type CommandIo } from './command.js';

/** Who an import's rows say made or changed them (createdBy, updatedBy) when no admin account runs it (npm run masterdata:import). */
export const IMPORT_BY = 'import';

/** The lines that end an import: each rejected row by file and line, the counts per file, the totals. */
export function reportLines(report: ImportReport): string[] {
  const lines = report.rejected.map((row) => `rejected: ${row.file} line ${row.line}: ${row.reason}`);
  for (const file of report.files)
    lines.push(`${file.file}: ${file.inserted} inserted, ${file.updated} updated, ${file.unchanged} unchanged, ${file.rejected} rejected (${file.rows} rows)`);
  const total = (count: 'inserted' | 'updated' | 'unchanged' | 'rejected') => report.files.reduce((sum, file) => sum + file[count], 0);
  lines.push(
    `${report.dryRun ? 'dry run, nothing written: would have ' : ''}inserted ${total('inserted')}, updated ${total('updated')}, unchanged ${total('unchanged')}, rejected ${total('rejected')}`,
  );
  return lines;
}

/**
 * Who may import a country: a master data writer of the role table who
 * reaches every zone (a zonal admin's writes stay in its zones; a country's
 * files hold every zone's rows). The rows name it as their creator or updater.
 */
async function importer(context: AdminContext): Promise<string> {
  const actor = await actAs(context, 'Mutation.createLocation');
  if (!actor.roles.some((role) => role === 'GLOBAL_ADMIN' || role === 'MASTERDATA_ADMIN'))
    throw new CommandRefusal(`${actor.subject} reaches only its zones: a country's files are imported by a GLOBAL_ADMIN or MASTERDATA_ADMIN (--as)`);
  return actor.subject;
}

/** Runs an import with the command line's output: a line per file, a bar per file's rows, the report's lines. */
export async function runImport(
  prisma: Parameters<typeof importMasterdata>[0],
  dir: string,
  now: Date,
  io: Pick<CommandIo, 'out' | 'progress'>,
  options: Pick<ImportOptions, 'dryRun' | 'batchSize'> & { by?: string } = {},
): Promise<ImportReport> {
  const { by = IMPORT_BY, ...rest } = options;
  const report = await importMasterdata(prisma, path.resolve(dir), by, now, {
    ...rest,
    log: (line) => io.out(line),
    progress: (label, total) => io.progress(label, total),
  });
  for (const line of reportLines(report)) io.out(line);
  return report;
}

export const masterdataImport: AdminCommand = {
  path: ['masterdata', 'import'],
  summary: "loads a country's master data files into the database: new rows inserted, changed rows updated, equal rows left alone",
  options: [
    '<folder>             the CSV or JSON files, one per table, named as subgraphs/masterdata/sample-country names them',
    '--dry-run            checks and counts every row in a transaction that is rolled back: nothing is written',
    'the rows name the account of --as (a GLOBAL_ADMIN or MASTERDATA_ADMIN) as who made or changed them',
  ],
  parse: { 'dry-run': { type: 'boolean' } },
  async run(args, io, context) {
    const dir = args.positionals[0];
    if (!dir) throw new CommandRefusal('give the folder of CSV or JSON files to import: platform masterdata import <folder> [--dry-run]');
    const opened = await context();
    const by = await importer(opened);
    return runImport(opened.database.prisma, dir, opened.clock.now(), io, { dryRun: args.values['dry-run'] === true, by });
  },
};
