import { CommandRefusal, type ParsedArgs } from './command.js';

/** A string option's value (the last one, if given twice). */
export function option(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  if (Array.isArray(value)) return value.at(-1);
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}

export function required(args: ParsedArgs, name: string): string {
  const value = option(args, name);
  if (!value) throw new CommandRefusal(`--${name} is required`);
  return value;
}

/** A repeatable option's values, each also split on commas (`--role A --role B` or `--role A,B`); undefined when not given. */
export function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const value = args.values[name];
  if (value === undefined || typeof value === 'boolean') return undefined;
  const values = (Array.isArray(value) ? value : [value])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
  return [...new Set(values)];
}

export const flag = (args: ParsedArgs, name: string): boolean => args.values[name] === true;

/** A whole number option within bounds, or the fallback. */
export function count(args: ParsedArgs, name: string, fallback: number, max: number): number {
  const text = option(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) throw new CommandRefusal(`--${name} is a whole number from 1 to ${max}`);
  return value;
}

/** The one positional a command names, e.g. the user id of `users roles <userId>`. */
export function positional(args: ParsedArgs, what: string): string {
  const [first, ...rest] = args.positionals;
  if (!first) throw new CommandRefusal(`name the ${what}`);
  if (rest.length) throw new CommandRefusal(`one ${what} at a time (got ${args.positionals.length})`);
  return first;
}

/** The page options every list shares. */
export const PAGE_PARSE = { first: { type: 'string' }, after: { type: 'string' } } as const;
export const PAGE_HELP = ['--first <n>          rows to show, 1 to 100 (default 50)', '--after <cursor>     the page after this cursor (printed under a list)'];
export const pageOf = (args: ParsedArgs) => ({ first: count(args, 'first', 50, 100), after: option(args, 'after') ?? null });

/** The line under a list that has more rows. */
export function morePages(pageInfo: { hasNextPage: boolean; endCursor: string | null }, total: number, shown: number): string {
  return pageInfo.hasNextPage && pageInfo.endCursor ? `${shown} of ${total} shown; the next page: --after ${pageInfo.endCursor}` : `${total} in all`;
}
