import { PlatformError } from '../../lib/errors.js';
import { option, PAGE_HELP, PAGE_PARSE, pageOf, morePages } from './args.js';
import { operation } from './actor.js';
import { CommandRefusal, type AdminCommand } from './command.js';
import { table, when } from './io.js';
import { warnWithoutRunner } from './jobs.js';

export const registrationsStuck: AdminCommand = {
  path: ['registrations', 'stuck'],
  summary: 'list stuck registrations: failed, waiting to be reprocessed, or idle too long (as Query.stuckRegistrations)',
  options: ['--stage <stage>      only those at this stage (e.g. VALIDATE_PACKET)', ...PAGE_HELP],
  parse: { stage: { type: 'string' }, ...PAGE_PARSE },
  async run(args, io, open) {
    const context = await open();
    const { args: checked } = await operation<{ first: number; after: string | null; stage?: string | null }>(context, 'regproc', 'Query.stuckRegistrations', {
      ...pageOf(args),
      stage: option(args, 'stage'),
    });
    const { pipeline } = context.deps.services;
    const page = await pipeline.stuck(checked.stage ?? null, checked);
    const rows = page.edges.map(({ node }) => ({
      rid: node.rid,
      stage: node.stage,
      status: node.status,
      attempts: node.attempts,
      lastError: node.lastError,
      progressAt: node.progressAt,
    }));
    const total = await page.totalCount();
    for (const line of table(
      ['RID', 'STAGE', 'STATUS', 'ATTEMPTS', 'LAST PROGRESS', 'LAST ERROR'],
      rows.map((row) => [row.rid, row.stage, row.status, row.attempts, when(row.progressAt), row.lastError?.slice(0, 80)]),
    )) {
      io.out(line);
    }
    io.out(morePages(page.pageInfo, total, rows.length));
    return { registrations: rows, totalCount: total, nextCursor: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
  },
};

export const registrationsResume: AdminCommand = {
  path: ['registrations', 'resume'],
  summary: 'run stuck registrations again from their stage with fresh attempts (as Mutation.resumeRegistrations)',
  options: ['<rid...>             the registrations to resume', '--stage <stage>      instead: every stuck registration of this stage (up to 1000 a run)'],
  parse: { stage: { type: 'string' } },
  async run(args, io, open) {
    const stage = option(args, 'stage');
    const rids = [...new Set(args.positionals)];
    if (!stage === !rids.length) throw new CommandRefusal('name the registrations to resume, or a --stage, not both');
    const context = await open();
    const { pipeline } = context.deps.services;
    if (stage) {
      const { actor, args: checked } = await operation<{ input: { stage: string } }>(context, 'regproc', 'Mutation.resumeRegistrations', { input: { stage } });
      const resumed = await pipeline.resume(actor.subject, { stage: checked.input.stage });
      io.out(`resumed ${resumed.length} registration(s) at ${stage}`);
      return { resumed, refused: [], jobRunnersAlive: await warnWithoutRunner(context, io, 'the resumed registrations') };
    }
    const resumed: string[] = [];
    const refused: { rid: string; reason: string; error: PlatformError }[] = [];
    const progress = io.progress('resuming', rids.length);
    for (const rid of rids) {
      try {
        const { actor, args: checked } = await operation<{ input: { registrationId: string } }>(context, 'regproc', 'Mutation.resumeRegistrations', {
          input: { registrationId: rid },
        });
        resumed.push(...(await pipeline.resume(actor.subject, { rid: checked.input.registrationId })));
      } catch (error) {
        // A refusal of the operation (not stuck, no such registration) is the operator's to read; anything else stops the run.
        if (!(error instanceof PlatformError)) throw error;
        refused.push({ rid, reason: error.message, error });
      }
      progress.tick();
    }
    progress.done();
    // One registration named: its refusal is the answer, with its code, as GraphQL gives it.
    if (rids.length === 1 && refused[0]) throw refused[0].error;
    for (const rid of resumed) io.out(`resumed ${rid}`);
    for (const { rid, reason } of refused) io.out(`not resumed ${rid}: ${reason}`);
    const jobRunnersAlive = await warnWithoutRunner(context, io, 'the resumed registrations');
    if (refused.length) throw new CommandRefusal(`${refused.length} of ${rids.length} registrations were not resumed`);
    return { resumed, refused: [], jobRunnersAlive };
  },
};
