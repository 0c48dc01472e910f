import { runnersAlive } from '../../lib/jobs/runner.js';
import { count, flag, option } from './args.js';
import { CommandRefusal, type AdminCommand, type AdminContext, type CommandIo, type ParsedArgs } from './command.js';
import { table, when } from './io.js';

/** Rows changed per statement: thousands of dead jobs are retried in a few dozen short transactions. */
const BATCH = 500;

export const jobsDead: AdminCommand = {
  path: ['jobs', 'dead'],
  summary: 'list dead jobs (their attempts spent): id, kind, attempts, last error, when they died',
  options: [
    '--kind <kind>        only jobs of this kind (e.g. notify.deliver)',
    '--limit <n>          rows to show, 1 to 1000 (default 50), the latest to die first',
  ],
  parse: { kind: { type: 'string' }, limit: { type: 'string' } },
  async run(args, io, open) {
    const limit = count(args, 'limit', 50, 1000);
    const kind = option(args, 'kind');
    const { storage } = (await open()).jobQueue;
    const [rows, all] = await Promise.all([storage.dead({ kind, take: limit }), storage.deadIds({ kind })]);
    const jobs = rows.map((row) => ({ ...row, diedAt: row.finishedAt }));
    for (const line of table(
      ['ID', 'KIND', 'ATTEMPTS', 'DIED', 'LAST ERROR'],
      jobs.map((job) => [job.id, job.kind, `${job.attempts}/${job.maxAttempts}`, when(job.diedAt), job.lastError?.replace(/\s+/g, ' ').slice(0, 100)]),
    )) {
      io.out(line);
    }
    io.out(all.length > jobs.length ? `${jobs.length} of ${all.length} dead jobs shown (--limit for more)` : `${all.length} dead job(s)`);
    return {
      jobs: jobs.map(({ id, kind, attempts, maxAttempts, lastError, diedAt, createdAt }) => ({
        id,
        kind,
        attempts,
        maxAttempts,
        lastError,
        diedAt,
        createdAt,
      })),
      totalCount: all.length,
    };
  },
};

/**
 * How many job runners are alive on the database, with a warning when none
 * is: work queued by a command (a retry, a resume) waits until one runs, so
 * its success alone would say nothing.
 */
export async function warnWithoutRunner(context: AdminContext, io: CommandIo, what: string): Promise<number> {
  const alive = (await runnersAlive(context.jobQueue.heartbeats)).length;
  if (!alive) io.out(`warning: no job runner is alive on this database: ${what} wait until one runs (npm run worker, or npm start with JOBS_RUN=true)`);
  return alive;
}

/** The dead jobs a retry or a drop names: ids, or every one (of a kind) with --all. */
async function targets(context: AdminContext, args: ParsedArgs, verb: string): Promise<{ ids: string[]; named: boolean }> {
  const all = flag(args, 'all');
  const kind = option(args, 'kind');
  if (all === args.positionals.length > 0) throw new CommandRefusal(`name the dead jobs to ${verb}, or --all, not both`);
  if (kind && !all) throw new CommandRefusal('--kind goes with --all');
  if (!all) return { ids: [...new Set(args.positionals)], named: true };
  return { ids: await context.jobQueue.storage.deadIds({ kind }), named: false };
}

/** Applies `act` to the ids in batches with a progress bar; the ids it did not take were not dead jobs. */
async function inBatches(
  io: CommandIo,
  label: string,
  ids: readonly string[],
  act: (batch: string[]) => Promise<string[]>,
): Promise<{ done: string[]; missed: string[] }> {
  const done: string[] = [];
  const progress = io.progress(label, ids.length);
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    done.push(...(await act(batch)));
    progress.tick(batch.length);
  }
  progress.done();
  const taken = new Set(done);
  return { done, missed: ids.filter((id) => !taken.has(id)) };
}

/** The end of a retry or a drop: what was done, and a refusal when a named job was not a dead one. */
function report(io: CommandIo, verb: string, outcome: { done: string[]; missed: string[] }, named: boolean) {
  if (named) for (const id of outcome.done) io.out(`${verb} ${id}`);
  io.out(`${outcome.done.length} dead job(s) ${verb}`);
  for (const id of outcome.missed) io.out(`not ${verb} ${id}: no dead job has this id`);
  if (named && outcome.missed.length) {
    throw new CommandRefusal(
      outcome.missed.length === 1 && !outcome.done.length
        ? `there is no dead job ${outcome.missed[0]}`
        : `${outcome.missed.length} of ${outcome.missed.length + outcome.done.length} jobs were not dead jobs`,
    );
  }
  return { [verb]: outcome.done, missed: outcome.missed };
}

export const jobsRetry: AdminCommand = {
  path: ['jobs', 'retry'],
  summary: 'queue dead jobs again with their attempts reset; runners start them at once',
  options: [
    '<id...>              the dead jobs to retry',
    '--all                every dead job instead',
    '--kind <kind>        with --all: only jobs of this kind',
  ],
  parse: { all: { type: 'boolean' }, kind: { type: 'string' } },
  async run(args, io, open) {
    const context = await open();
    const kind = option(args, 'kind');
    // A job of a kind no handler runs would only wait: the kinds are those this platform declares.
    if (kind && !context.jobQueue.kinds.includes(kind)) throw new CommandRefusal(`no handler runs jobs of kind ${kind} on this platform`);
    const { ids, named } = await targets(context, args, 'retry');
    const outcome = await inBatches(io, 'retrying', ids, (batch) => context.jobQueue.retryDead(batch));
    const reported = report(io, 'retried', outcome, named);
    return { ...reported, jobRunnersAlive: await warnWithoutRunner(context, io, 'the retried jobs') };
  },
};

export const jobsDrop: AdminCommand = {
  path: ['jobs', 'drop'],
  summary: 'forget dead jobs for good (their work is not done)',
  options: [
    '<id...>              the dead jobs to drop',
    '--all                every dead job instead',
    '--kind <kind>        with --all: only jobs of this kind',
  ],
  parse: { all: { type: 'boolean' }, kind: { type: 'string' } },
  async run(args, io, open) {
    const context = await open();
    const { ids, named } = await targets(context, args, 'drop');
    const outcome = await inBatches(io, 'dropping', ids, (batch) => context.jobQueue.storage.dropDead(batch));
    return report(io, 'dropped', outcome, named);
  },
};
