import { parseArgs } from 'node:util';
import { DataFolderInUse } from '../../lib/db/data-lock.js';
import { PlatformError } from '../../lib/errors.js';
import { SettingsError } from '../../lib/settings.js';
import { CommandRefusal, type AdminCommand, type AdminContext, type ParsedArgs } from './command.js';
import { COMMANDS } from './commands.js';
import { commandIo, type Output } from './io.js';
import { SECRET_REFUSAL, secretInArguments } from './secrets.js';

const PROGRAM = 'npm run platform --';
/** The options every command takes; `--as` only those that open the platform. */
const COMMON_PARSE = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const ACTOR_PARSE = { as: { type: 'string' } } as const;
const COMMON_HELP = ['--json               print the result as JSON, and nothing else on standard output', '--help, -h           this help'];
const ACTOR_HELP = '--as <userId>        the admin account the command acts as (default admin): its roles and zones apply';
export const DEFAULT_ACTOR = 'admin';

/** Exit codes: a refusal of the command's work, and a command line that names no command or option it knows. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

export type OpenContext = (actor: string) => Promise<{ context: AdminContext; close(): Promise<void> }>;

export interface CliOptions {
  stdout: Output;
  stderr: Output;
  /** opens the platform for a command; by default from the environment, as `npm start` does */
  openContext: OpenContext;
  commands?: readonly AdminCommand[];
}

const name = (path: readonly string[]) => path.join(' ');
const takesPositionals = (command: AdminCommand) => command.options.some((line) => line.trimStart().startsWith('<'));

function topHelp(commands: readonly AdminCommand[]): string[] {
  const width = Math.max(...commands.map((command) => name(command.path).length)) + 2;
  return [
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'commands:',
    ...commands.map((command) => `  ${name(command.path).padEnd(width)}${command.summary}`),
    '',
    'every command takes:',
    ...COMMON_HELP.map((line) => `  ${line}`),
    `${PROGRAM} <command> --help describes a command and its options.`,
  ];
}

function commandHelp(command: AdminCommand): string[] {
  const options = [...command.options, ...(command.needsPlatform === false ? [] : [ACTOR_HELP]), ...COMMON_HELP];
  return [
    `usage: ${PROGRAM} ${name(command.path)}${takesPositionals(command) ? ' <...>' : ''} [options]`,
    '',
    command.summary,
    '',
    ...options.map((line) => `  ${line}`),
  ];
}

/** The command a line names: the longest path its leading words spell. */
function findCommand(commands: readonly AdminCommand[], words: readonly string[]): AdminCommand | undefined {
  for (let length = words.length; length > 0; length--) {
    const found = commands.find((command) => command.path.length === length && command.path.every((word, index) => word === words[index]));
    if (found) return found;
  }
  return undefined;
}

/** What the operator reads of a failure: one sentence, never a stack trace or a driver's text. */
function sentenceOf(error: unknown): { message: string; code?: string; expected: boolean } {
  // StartRefused (gateway/preflight.ts): a platform start that would break it, said in one sentence (another master key, another object store).
  if (error instanceof CommandRefusal || error instanceof DataFolderInUse || (error instanceof Error && error.name === 'StartRefused')) {
    return { message: error.message, expected: true };
  }
  if (error instanceof PlatformError) return { message: `${error.message} (${error.code})`, code: error.code, expected: true };
  if (error instanceof SettingsError) return { message: `invalid configuration: ${error.problems.join('; ')}`, expected: true };
  return { message: 'the command failed on an unexpected error (LOG_LEVEL=debug prints it)', expected: false };
}

/** node:util's complaint about the line, as one sentence of ours. */
function usageSentence(error: unknown, command: AdminCommand): string {
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const help = `${PROGRAM} ${name(command.path)} --help lists its options`;
  switch ((error as { code?: string }).code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted} for ${name(command.path)} (${help})`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${message.split('. ')[0]!.replace(/\.$/, '')} (${help})`;
    default:
      return `cannot read this command line (${help})`;
  }
}

/** Runs one command line; the exit code. */
export async function runCli(argv: readonly string[], options: CliOptions): Promise<number> {
  const commands = options.commands ?? COMMANDS;
  const print = (stream: Output, lines: string[]) => stream.write(lines.map((line) => `${line}\n`).join(''));
  const usage = (sentence: string) => (print(options.stderr, [sentence]), EXIT.usage);
  const words: string[] = [];
  for (const token of argv) {
    if (token.startsWith('-')) break;
    words.push(token);
  }
  const command = findCommand(commands, words);
  const asksHelp = argv.includes('--help') || argv.includes('-h');
  if (!command) {
    if (!words.length) {
      if (asksHelp || !argv.length) return (print(options.stdout, topHelp(commands)), EXIT.ok);
      return usage(`name a command (${PROGRAM} --help lists them)`);
    }
    const group = commands.filter((candidate) => candidate.path[0] === words[0]);
    if (!group.length) return usage(`unknown command: ${words.join(' ')} (${PROGRAM} --help lists the commands)`);
    if (words.length === 1 && asksHelp) return (print(options.stdout, topHelp(group)), EXIT.ok);
    const known = group.map((candidate) => candidate.path.slice(1).join(' ')).join(', ');
    return usage(words.length === 1 ? `${words[0]} needs a command: ${known}` : `unknown command: ${words.join(' ')} (${words[0]} has: ${known})`);
  }
  const rest = argv.slice(command.path.length);
  if (secretInArguments(rest)) return usage(SECRET_REFUSAL);
  let args: ParsedArgs;
  try {
    const parsed = parseArgs({
      args: [...rest],
      options: { ...command.parse, ...(command.needsPlatform === false ? {} : ACTOR_PARSE), ...COMMON_PARSE },
      allowPositionals: true,
      strict: true,
    });
    args = { positionals: parsed.positionals, values: parsed.values };
  } catch (error) {
    return usage(usageSentence(error, command));
  }
  if (args.values.help === true) return (print(options.stdout, commandHelp(command)), EXIT.ok);
  if (args.positionals.length && !takesPositionals(command))
    return usage(`${name(command.path)} takes no ${args.positionals[0]} (${PROGRAM} ${name(command.path)} --help)`);
  const json = args.values.json === true;
  const actor = typeof args.values.as === 'string' && args.values.as ? args.values.as : DEFAULT_ACTOR;
  let opened: ReturnType<OpenContext> | undefined;
  const context = async () => {
    if (command.needsPlatform === false) throw new Error(`${name(command.path)} opens no platform`);
    opened ??= options.openContext(actor);
    return (await opened).context;
  };
  try {
    const result = await command.run(args, commandIo(json, options.stdout, options.stderr), context);
    if (json) options.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
    return EXIT.ok;
  } catch (error) {
    const { message, code, expected } = sentenceOf(error);
    print(options.stderr, [message]);
    if (!expected && /^(debug|trace)$/.test(process.env.LOG_LEVEL ?? ''))
      print(options.stderr, [error instanceof Error ? (error.stack ?? error.message) : String(error)]);
    if (json) options.stdout.write(`${JSON.stringify({ error: { message, ...(code ? { code } : {}) } })}\n`);
    return EXIT.refused;
  } finally {
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}
