import { PlatformError } from '../../../lib/errors.js';
import { connection, type Connection, type PageArgs, type PageQuery } from '../../../lib/graph/connection.js';

/**
 * Relay pages over a table with a compound key: the cursor is the key's
 * values as a JSON array, and `find` turns them into Prisma's compound cursor.
 */
export function keysetConnection<T>(
  page: PageArgs,
  key: readonly (keyof T & string)[],
  find: (query: { take: number; skip?: number; after?: string[] }) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Connection<T>> {
  const keyOf = (row: T) => JSON.stringify(key.map((field) => row[field]));
  return connection(
    page,
    keyOf,
    ({ take, skip, after }: PageQuery) =>
      find({ take, ...(skip !== undefined ? { skip } : {}), ...(after !== undefined ? { after: valuesOf(after, key.length) } : {}) }),
    count,
  );
}

function valuesOf(after: string, length: number): string[] {
  let values: unknown;
  try {
    values = JSON.parse(after);
  } catch {
    values = undefined;
  }
  if (!Array.isArray(values) || values.length !== length || !values.every((value) => typeof value === 'string')) {
    throw new PlatformError('BAD_USER_INPUT', 'after: not a cursor of this list');
  }
  return values;
}
