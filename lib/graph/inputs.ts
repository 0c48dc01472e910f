import type { z } from 'zod';
import { PlatformError } from '../errors.js';
import { MAX_USER_ERRORS } from './payloads.js';

/** The spec's code for an argument of a root field that is missing (`missing`) or malformed. */
export type InputCode = (field: string, missing: boolean, rootField: string) => string;

/**
 * A component's input rules: a zod schema of the arguments of each root field
 * (by field name), and the code of a bad one. The subgraph checks every call
 * of those fields against them, and REST routes validate with the same
 * schemas, so GraphQL and REST accept exactly the same inputs.
 */
export interface FieldInputs {
  schemas: Readonly<Record<string, z.ZodType>>;
  codeFor: InputCode;
}

export const fieldInputs = <S extends Record<string, z.ZodType>>(schemas: S, codeFor: InputCode): FieldInputs & { schemas: S } => ({ schemas, codeFor });

/** The first issue of a failed parse, as a field path, whether it was missing, and a message. */
export function describeIssue(issue: z.core.$ZodIssue): { field: string; missing: boolean; message: string } {
  const field = issue.path.map(String).join('.') || 'request';
  const missing = issue.code === 'invalid_type' && ((issue as { input?: unknown }).input ?? null) === null;
  return { field, missing, message: missing ? `${field} is required` : `${field} is invalid: ${issue.message}` };
}

/** A refused input field: its path in the arguments, the component's code and a message. */
export interface InputRefusal {
  path: readonly string[];
  code: string;
  message: string;
}

/**
 * The arguments of a call parsed by the field's schema, or every field they
 * fail on (the first issue of each field, in the schema's order: the first is
 * what `parseArguments` answers, and REST with it).
 */
export function checkArguments(
  inputs: FieldInputs,
  fieldName: string,
  args: Record<string, unknown>,
): { ok: true; args: Record<string, unknown> } | { ok: false; refusals: InputRefusal[] } {
  const schema = inputs.schemas[fieldName];
  if (!schema) return { ok: true, args };
  const parsed = schema.safeParse(args, { reportInput: true });
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  const refusals = new Map<string, InputRefusal>();
  for (const issue of parsed.error.issues) {
    if (refusals.size === MAX_USER_ERRORS) break;
    const { field, missing, message } = describeIssue(issue);
    if (!refusals.has(field)) refusals.set(field, { path: issue.path.map(String), code: inputs.codeFor(field, missing, fieldName), message });
  }
  return { ok: false, refusals: [...refusals.values()] };
}

/** The arguments of a call, parsed by the field's schema; a bad one is the component's coded error. */
export function parseArguments(inputs: FieldInputs, fieldName: string, args: Record<string, unknown>): Record<string, unknown> {
  const checked = checkArguments(inputs, fieldName, args);
  if (checked.ok) return checked.args;
  const [first] = checked.refusals;
  throw new PlatformError(first!.code, first!.message);
}
