import { z } from 'zod';

/** C0 controls and DEL: never part of an identifier; NUL cannot even be stored by PostgreSQL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- as above
const NUL = /\u0000/;

/** An identifier, name or code: at most `max` characters, no control characters. */
export const identifier = (max = 256) =>
  z
    .string()
    .max(max)
    .refine((value) => !CONTROL.test(value), { message: 'must not contain control characters' });

/** A list's page arguments (Relay's, forward and backward), for a field's input schema; the cursors at most `cursorLength` long. */
export const pageArguments = (cursorLength = 512) => ({
  first: z.number().int().nullish(),
  after: identifier(cursorLength).nullish(),
  last: z.number().int().nullish(),
  before: identifier(cursorLength).nullish(),
  // `orderBy` against the list's own order (lib/graph/ordering.ts)
  reversed: z.boolean().nullish(),
});

/**
 * An instant the graph takes as its DateTime scalar (a Date) and REST as the
 * wire's text: the rule sees text either way (ISO 8601 from a Date), so one
 * schema checks both doors and services keep parsing one form.
 */
export const instantText = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value instanceof Date ? value.toISOString() : value), schema);

/** Free text (messages, bodies, documents): line breaks allowed, NUL not. */
export const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !NUL.test(value), { message: 'must not contain NUL characters' });

/**
 * The deepest nesting of arrays and objects a JSON body may have (the
 * envelope itself is level 1; the spec's deepest bodies stay under 10).
 * Deeper bodies are refused at the edge, before any recursive code (schema
 * validation, GraphQL coercion, serialisation) can overflow the stack on them.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests arrays and objects deeper than `max` levels; iterative, so it cannot overflow itself. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, level] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (level > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, level + 1]);
  }
  return false;
}
