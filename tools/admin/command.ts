import type { PlatformConfig } from '../../lib/config.js';
import type { Database } from '../../lib/db/client.js';
import type { PlatformDeps } from '../../lib/deps.js';
import type { JobQueue } from '../../lib/jobs/queue.js';
import type { Clock } from '../../lib/time.js';

export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
}

export interface Progress {
  tick(count?: number): void;
  done(): void;
}

export interface CommandIo {
  /** --json given: human lines and progress are silent, the result is printed as JSON */
  json: boolean;
  /** a human line (standard output; silent with --json) */
  out(line: string): void;
  /** a bar on a terminal, a line every few seconds otherwise (standard error); silent with --json */
  progress(label: string, total: number): Progress;
}

/** What a command works on: the platform's dependencies, opened once for the command and closed after. */
export interface AdminContext {
  /** every component's services, the jobs, the master key: built as `npm start` builds them, with no runner and no listener */
  deps: PlatformDeps;
  database: Database;
  /** the job queue with every component's handlers defined (never started: the CLI runs no job) */
  jobQueue: JobQueue;
  config: PlatformConfig;
  clock: Clock;
  /** the admin account a command acts as (--as, default `admin`): its roles and zones are checked as GraphQL checks a caller's (actor.ts) */
  actor: string;
}

export interface AdminCommand {
  /** the words after `npm run platform --`, e.g. ['users', 'create'] */
  path: readonly string[];
  summary: string;
  /** the options for --help, e.g. ['--username <name>  the login name (required)'] */
  options: readonly string[];
  /** node:util parseArgs option declarations for this command */
  parse: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
  /** false: runs without opening the platform (e.g. `db status` opens only the database) */
  needsPlatform?: boolean;
  run(args: ParsedArgs, io: CommandIo, context: () => Promise<AdminContext>): Promise<unknown>;
}

/**
 * A command's refusal (bad input, not found): its message is printed as one
 * sentence and the command exits 1. A PlatformError from a service is
 * treated the same; anything else is reported without its text.
 */
export class CommandRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRefusal';
  }
}
