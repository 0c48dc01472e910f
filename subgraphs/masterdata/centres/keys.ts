import type { PageQuery } from '../../../lib/graph/connection.js';
import { PlatformError } from '../../../lib/errors.js';

const SEPARATOR = '\u0000';

/** Two-part keys ("id langCode", "centre user") as one string: for cursors and batch loaders. */
export const compositeKey = {
  of: (first: string, second: string): string => `${first}${SEPARATOR}${second}`,
  parse: (key: string): [string, string] => {
    const [first, second, ...rest] = key.split(SEPARATOR);
    if (first === undefined || second === undefined || rest.length) throw new PlatformError('BAD_USER_INPUT', 'after: not a cursor of this list');
    return [first, second];
  },
};

/** Prisma's take, skip and cursor for one page of `connection` over a two-part unique key. */
export function compositeCursor<C>(page: PageQuery, cursor: (key: [string, string]) => C): { take: number; skip?: number; cursor?: C } {
  return {
    take: page.take,
    ...(page.skip !== undefined ? { skip: page.skip } : {}),
    ...(page.after !== undefined ? { cursor: cursor(compositeKey.parse(page.after)) } : {}),
  };
}
