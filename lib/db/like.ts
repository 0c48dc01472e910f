import { Prisma } from '../../generated/prisma/client.js';

/**
 * Text as a literal inside Prisma's `contains`, `startsWith`, `endsWith` and
 * case-insensitive `equals`: Prisma hands the value to LIKE / ILIKE as it is,
 * where `%` and `_` are wildcards (a zone `Z_1` would match `ZX1`). PostgreSQL's
 * LIKE escapes with a backslash.
 */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** For raw SQL: `column` contains `text` taken literally, in any case (what Prisma's `contains` + `likeLiteral` + `insensitive` does). */
export const containsLiteral = (column: Prisma.Sql, text: string): Prisma.Sql => Prisma.sql`${column} ILIKE ${`%${likeLiteral(text)}%`}`;
