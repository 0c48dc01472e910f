import { PlatformError } from '../../lib/errors.js';
import type { PageQuery } from '../../lib/graph/connection.js';
import { masterdataErrors } from './errors.js';
import type { LanguageStore } from './storage.js';

// Where centres and devices have always found them: the language check for code that holds a Prisma client, and the
// insert-or-revive of a keyed row (it reads the database's unique violations); both live in storage.
export { insertOrRevive, requireLanguage } from './storage.js';

/**
 * Multilingual rows are keyed by (code, langCode): a connection's cursor is
 * that pair, and Prisma's cursor is its compound unique key.
 */
export const pairKey = (code: string, langCode: string): string => JSON.stringify([code, langCode]);

export function parsePair(key: string): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((part) => typeof part === 'string')) {
    throw new PlatformError('BAD_USER_INPUT', 'after: not a cursor of this list');
  }
  return parsed as [string, string];
}

/** take and skip of a page, and the (code, langCode) it starts after. */
export const pairPage = (page: PageQuery): { take: number; skip?: number; after?: [string, string] } => ({
  take: page.take,
  ...(page.skip !== undefined ? { skip: page.skip } : {}),
  ...(page.after !== undefined ? { after: parsePair(page.after) } : {}),
});

/** Prisma's take, skip and cursor for one page over a two-part unique key. */
export function cursorAt<C>(page: PageQuery, cursor: (key: [string, string]) => C): { take: number; skip?: number; cursor?: C } {
  const { after, ...rest } = pairPage(page);
  return { ...rest, ...(after ? { cursor: cursor(after) } : {}) };
}

/** Rows of (code, langCode) keys, in one query's answer, by pairKey. */
export const byPair = <T>(rows: readonly T[], keyOf: (row: T) => [string, string]): Map<string, T> => new Map(rows.map((row) => [pairKey(...keyOf(row)), row]));

/** A language rows may be written in: a live, active row of Language (KER-MSD-999 otherwise). */
export async function checkLanguage(languages: LanguageStore, code: string): Promise<void> {
  if (!(await languages.isSupported(code))) throw masterdataErrors.languageNotSupported(code);
}
