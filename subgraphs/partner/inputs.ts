import type { z } from 'zod';
import { likeLiteral } from '../../lib/db/like.js';
import { partnerErrors } from './errors.js';

/** The path of the first string holding a NUL character (which PostgreSQL cannot store or compare), anywhere in a parsed value. */
function nulAt(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulAt(item, [...path, index]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const found = nulAt(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Every argument schema of partner management, refusing a NUL character in
 * any string field, however the field is declared: the call gets the field's
 * invalid code (PMS_COR_002) instead of a database failure. GraphQL checks
 * every root field with it, REST reaches the same fields.
 */
export function refusingNul<S extends Readonly<Record<string, z.ZodType>>>(schemas: S): S {
  return Object.fromEntries(
    Object.entries(schemas).map(([field, schema]) => [
      field,
      schema.superRefine((value, context) => {
        const path = nulAt(value);
        if (path) context.addIssue({ code: 'custom', path, message: 'must not contain NUL characters' });
      }),
    ]),
  ) as unknown as S;
}

/**
 * A case-insensitive "contains" condition on user text: LIKE's wildcards
 * (`%`, `_`) and its escape (`\`) match themselves, so `%` finds names with
 * a percent sign, not every row. Text with NUL is refused (PMS_COR_002), on
 * entity fields too, which the root fields' schemas do not cover.
 */
export function containing(text: string, field: string): { contains: string; mode: 'insensitive' } {
  if (text.includes('\u0000')) throw partnerErrors.invalid(field, 'must not contain NUL characters');
  return { contains: likeLiteral(text), mode: 'insensitive' };
}

/** Every area's code for an argument: PMS_COR_001 when it is missing, PMS_COR_002 when it is malformed. */
export const codeFor = (_field: string, missing: boolean): string => (missing ? 'PMS_COR_001' : 'PMS_COR_002');
