import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { parseInstant } from '../time.js';

// Refusals are TypeErrors: GraphQL wraps them in its own message about the value ("Expected value of type …",
// "Variable … got invalid value …"), which is how the caller's mistake is told from the server's.

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'string') {
    const parsed = parseInstant(value);
    if (parsed) return parsed;
  }
  throw new TypeError('DateTime: an ISO 8601 instant in UTC, e.g. 2026-01-31T12:00:00.000Z');
}

/**
 * A DateTime argument as the text services parse: the input rules (lib/input.ts instantText) hand it over as
 * ISO 8601 already, while the generated types say Date; an absent one stays absent.
 */
export function instantArgument(value: Date | string): string;
export function instantArgument<Absent extends null | undefined>(value: Date | string | Absent): string | Absent;
export function instantArgument(value: Date | string | null | undefined): string | null | undefined {
  return value instanceof Date ? value.toISOString() : value;
}

/** Instants as ISO 8601 in UTC with milliseconds, both ways; one parser (lib/time.ts) for every timestamp. */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: "An instant, ISO 8601 in UTC with milliseconds: yyyy-MM-dd'T'HH:mm:ss.SSS'Z'",
  serialize: (value) => toDate(value).toISOString(),
  parseValue: toDate,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('DateTime: a string');
    return toDate(ast.value);
  },
});

function jsonLiteral(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map(jsonLiteral);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((field) => [field.name.value, jsonLiteral(field.value)]));
    default:
      throw new TypeError('JSON: a literal value, not a variable inside it');
  }
}

/** Any JSON value, for documents whose shape is the caller's (an ID schema's fields); the field's input rules check it. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: jsonLiteral,
});

/** A calendar day, yyyy-MM-dd, that exists (no 2026-02-30); kept as that text, which is how tables and REST hold days. */
function toDay(value: unknown): string {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    if (!Number.isNaN(day.getTime()) && day.toISOString().startsWith(value)) return value;
  }
  throw new TypeError('Date: a calendar day, yyyy-MM-dd, e.g. 2026-01-31');
}

/** Calendar days (holidays), both ways. */
export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar day, ISO 8601: yyyy-MM-dd',
  serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : toDay(value)),
  parseValue: toDay,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('Date: a string');
    return toDay(ast.value);
  },
});
