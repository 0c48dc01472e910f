import { z } from 'zod';
import { MAX_VALIDATED_LENGTH, patternProblem, validatorFor, VALIDATION_BUDGET_MS, withinBudget } from '../../../lib/patterns/gate.js';

/** MOSIP's biometric attributes (ID schema guide). */
export const BIO_ATTRIBUTES = [
  'leftEye',
  'rightEye',
  'leftIndex',
  'leftRing',
  'leftLittle',
  'leftMiddle',
  'rightIndex',
  'rightRing',
  'rightMiddle',
  'rightLittle',
  'rightThumb',
  'leftThumb',
  'face',
] as const;

/** Field types: plain JSON types, and MOSIP's definitions (multilingual text, document, biometrics). */
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'simpleType', 'documentType', 'biometricsType'] as const;
const FIELD_CATEGORIES = ['pvt', 'kyc', 'none', 'evidence', 'optional'] as const;

const name = z.string().trim().min(1).max(128);
const text = z.string().max(1024);

const validator = z
  .object({ type: z.string().min(1).max(32), validator: z.string().min(1).max(1024), arguments: z.array(z.string().max(256)).max(16).nullish() })
  .superRefine((value, context) => {
    if (value.type.toLowerCase() !== 'regex') return;
    // The same gate every stored validator passes before it runs (patterns.ts): catastrophic patterns are refused here.
    const problem = patternProblem(value.validator);
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['validator'] });
  });

/** One field of an ID schema (Document 1, "Schema field"). */
export const schemaField = z
  .object({
    id: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a field id is a letter then letters, digits or _'),
    type: z.enum(FIELD_TYPES),
    subType: name.nullish(),
    fieldType: z.enum(['default', 'dynamic']).nullish(),
    fieldCategory: z.enum(FIELD_CATEGORIES).nullish(),
    controlType: name.nullish(),
    contactType: name.nullish(),
    format: name.nullish(),
    group: name.nullish(),
    description: text.nullish(),
    label: z.record(z.string().max(3), text).nullish(),
    bioAttributes: z.array(z.enum(BIO_ATTRIBUTES)).max(BIO_ATTRIBUTES.length).nullish(),
    inputRequired: z.boolean().nullish(),
    required: z.boolean().nullish(),
    minimum: z.number().nullish(),
    maximum: z.number().nullish(),
    requiredOn: z
      .array(z.object({ engine: name, expr: z.string().max(1024) }))
      .max(8)
      .nullish(),
    validators: z.array(validator).max(8).nullish(),
  })
  .refine((field) => field.type !== 'biometricsType' || (field.bioAttributes?.length ?? 0) > 0, {
    message: 'a biometricsType field lists its bioAttributes',
    path: ['bioAttributes'],
  })
  .refine(
    (field) => field.minimum === null || field.minimum === undefined || field.maximum === null || field.maximum === undefined || field.minimum <= field.maximum,
    {
      message: 'minimum is above maximum',
      path: ['minimum'],
    },
  );

export type SchemaField = z.infer<typeof schemaField>;

/** The fields of a schema: at least one, ids unique. */
export const schemaFields = z
  .array(schemaField)
  .min(1)
  .max(500)
  .refine((fields) => new Set(fields.map((field) => field.id)).size === fields.length, { message: 'field ids must be unique' });

const DEFINITIONS = {
  simpleType: {
    type: 'array',
    additionalItems: false,
    uniqueItems: true,
    items: {
      type: 'object',
      required: ['language', 'value'],
      additionalProperties: false,
      properties: { language: { type: 'string' }, value: { type: 'string' } },
    },
  },
  documentType: {
    type: 'object',
    properties: { format: { type: 'string' }, type: { type: 'string' }, value: { type: 'string' }, refNumber: { type: ['string', 'null'] } },
  },
  biometricsType: { type: 'object', properties: { format: { type: 'string' }, version: { type: 'number', minimum: 0 }, value: { type: 'string' } } },
};

function propertyOf(field: SchemaField): Record<string, unknown> {
  const base = field.type in DEFINITIONS ? { $ref: `#/definitions/${field.type}` } : { type: field.type };
  const regexes = (field.validators ?? [])
    .filter((v) => v.type.toLowerCase() === 'regex')
    .map((v) => ({ type: 'regex', validator: v.validator, arguments: v.arguments ?? [] }));
  return {
    ...base,
    fieldCategory: field.fieldCategory ?? 'none',
    format: field.format ?? 'none',
    ...(field.bioAttributes?.length ? { bioAttributes: field.bioAttributes } : {}),
    ...(field.minimum !== null && field.minimum !== undefined ? { minimum: field.minimum } : {}),
    ...(field.maximum !== null && field.maximum !== undefined ? { maximum: field.maximum } : {}),
    ...(regexes.length ? { validators: regexes } : {}),
  };
}

/** The identity's JSON Schema (draft 07) as MOSIP generates it from the fields: what schemaJson holds. */
export function jsonSchemaOf(title: string, description: string, fields: readonly SchemaField[]): string {
  // IDSchemaVersion is always required; a schema may declare it as a field too (MOSIP's does), listed once.
  const required = [...new Set(['IDSchemaVersion', ...fields.filter((field) => field.required).map((field) => field.id)])];
  return JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    description,
    additionalProperties: false,
    title,
    type: 'object',
    definitions: DEFINITIONS,
    properties: {
      identity: {
        additionalProperties: false,
        type: 'object',
        required,
        properties: {
          IDSchemaVersion: { type: 'number', fieldCategory: 'none', format: 'none' },
          ...Object.fromEntries(fields.map((field) => [field.id, propertyOf(field)])),
        },
      },
    },
  });
}

/** The first regex validator of the field a text fails, or null. */
function validatorProblem(field: SchemaField, text: string): string | null {
  const rules = (field.validators ?? []).filter((rule) => rule.type.toLowerCase() === 'regex');
  if (rules.length && text.length > MAX_VALIDATED_LENGTH) return `is longer than ${MAX_VALIDATED_LENGTH} characters`;
  for (const rule of rules) {
    // Every validator is compiled through validatorFor: one stored before the check existed fails closed instead of running.
    const { regex, refused } = validatorFor(rule.validator);
    if (refused !== undefined) return `cannot be checked: the ID schema's validator ${rule.validator} is refused (${refused}); publish a corrected ID schema`;
    if (!regex.test(text)) return `does not match ${rule.validator}`;
  }
  return null;
}

/** The regex validators of stored fields that the gate refuses (a schema written before it), as `schema.<i>.validators.<j>: why`; null when none. */
export function unsafeValidator(fields: readonly SchemaField[]): string | null {
  for (const [i, field] of fields.entries()) {
    for (const [j, rule] of (field.validators ?? []).entries()) {
      const refused = rule.type.toLowerCase() === 'regex' ? validatorFor(rule.validator).refused : undefined;
      if (refused !== undefined) return `schema.${i}.validators.${j}.validator: ${refused}`;
    }
  }
  return null;
}

/** What is wrong with one value of a field, or null. */
function problemOf(field: SchemaField, value: unknown): string | null {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return validatorProblem(field, value);
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || (field.type === 'integer' && !Number.isInteger(value)))
        return `must be ${field.type === 'integer' ? 'an integer' : 'a number'}`;
      if ((field.minimum ?? -Infinity) > value || (field.maximum ?? Infinity) < value) return 'is out of range';
      // A number's regex validators apply to its decimal text, as MOSIP's pattern validator reads values (an age of 0 to 150).
      return validatorProblem(field, String(value));
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'simpleType': {
      if (!Array.isArray(value)) return 'must be a list of {language, value}';
      for (const entry of value as unknown[]) {
        const item = entry as { language?: unknown; value?: unknown } | null;
        if (!item || typeof item.language !== 'string' || typeof item.value !== 'string') return 'must be a list of {language, value}';
        const problem = validatorProblem(field, item.value);
        if (problem) return problem;
      }
      return null;
    }
    default:
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'must be an object';
  }
}

export interface IdentityProblem {
  field: string;
  /** true: a required field is absent; false: present but invalid (or unknown) */
  missing: boolean;
  message: string;
}

/**
 * An identity object checked against a schema's fields: required fields
 * present, types and validators met, no unknown field. The regex validators
 * of one identity run within VALIDATION_BUDGET_MS together; past it, the
 * field being checked is reported as not checkable (fails closed).
 */
export function identityProblems(fields: readonly SchemaField[], identity: Record<string, unknown>): IdentityProblem[] {
  const problems: IdentityProblem[] = [];
  const known = new Map(fields.map((field) => [field.id, field]));
  let current = '';
  const checked = withinBudget(() => {
    for (const field of fields) {
      current = field.id;
      const value = identity[field.id];
      if (value === undefined || value === null) {
        if (field.required) problems.push({ field: field.id, missing: true, message: `${field.id} is required` });
        continue;
      }
      const problem = problemOf(field, value);
      if (problem) problems.push({ field: field.id, missing: false, message: `${field.id} ${problem}` });
    }
  });
  if ('timedOut' in checked) {
    problems.push({
      field: current,
      missing: false,
      message: `${current} cannot be checked: the ID schema's validators took longer than ${VALIDATION_BUDGET_MS} ms; publish a corrected ID schema`,
    });
  }
  for (const key of Object.keys(identity)) {
    if (key !== 'IDSchemaVersion' && key !== 'UIN' && !known.has(key))
      problems.push({ field: key, missing: false, message: `${key} is not a field of the ID schema` });
  }
  return problems;
}
