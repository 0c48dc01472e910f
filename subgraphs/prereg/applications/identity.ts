import { MAX_VALIDATED_LENGTH, validatorFor, withinBudget } from '../../../lib/patterns/gate.js';
import type { IdentityProblem } from '../../masterdata/idschema/fields.js';
import { applicationErrors } from '../errors.js';

/** The identity fields an application must hold (spec Document 3, POST /applications). */
export const REQUIRED_FIELDS = [
  'fullName',
  'dateOfBirth',
  'gender',
  'residenceStatus',
  'addressLine1',
  'region',
  'province',
  'city',
  'zone',
  'postalCode',
  'referenceIdentityNumber',
] as const;

/** The configuration's rules for identity fields (`platform.id.validation.identity.<field>` and `.length`): `[*].value` rules read each language's value. */
const CONFIGURED_FIELDS = ['postalCode', 'dateOfBirth', 'email', 'phone', 'referenceIdentityNumber', 'fullName', 'addressLine1'] as const;

/** The values a rule reads: a plain value's text, or each language's `value` of a multilingual field. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (Array.isArray(value))
    return value.flatMap((entry) => (entry && typeof entry === 'object' && 'value' in entry ? textsOf((entry as { value: unknown }).value) : []));
  return [];
}

/**
 * The identity of an application checked: every required field present
 * (KER-IOV-005), the published ID schema's types and validators met by what
 * is given (KER-IOV-004; the schema's own required fields that a
 * pre-registration does not hold, biometrics among them, are registration's
 * to fill), and the configuration's patterns and lengths. Patterns pass the
 * platform's gate and run under its time budget.
 */
export function identityProblem(
  identity: Record<string, unknown>,
  schemaProblems: readonly IdentityProblem[],
  setting: (key: string) => string | undefined,
): Error | undefined {
  for (const field of REQUIRED_FIELDS) {
    const value = identity[field];
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length)) return applicationErrors.identityMissing(field);
  }
  const refused = schemaProblems.find((problem) => !problem.missing || (REQUIRED_FIELDS as readonly string[]).includes(problem.field));
  if (refused) return refused.missing ? applicationErrors.identityMissing(refused.field) : applicationErrors.identityInvalid(refused.field, refused.message);
  for (const field of CONFIGURED_FIELDS) {
    const texts = textsOf(identity[field]);
    if (!texts.length) continue;
    const problem = configuredProblem(field, texts, setting);
    if (problem) return applicationErrors.identityInvalid(field, problem);
  }
  return undefined;
}

function configuredProblem(field: string, texts: readonly string[], setting: (key: string) => string | undefined): string | undefined {
  const key = `platform.id.validation.identity.${field}`;
  const pattern = setting(key) ?? setting(`${key}.[*].value`);
  const length = Number(setting(`${key}.length`) ?? MAX_VALIDATED_LENGTH);
  for (const text of texts) {
    if (Number.isFinite(length) && length > 0 && text.length > length) return `longer than ${length} characters`;
    if (text.length > MAX_VALIDATED_LENGTH) return `longer than ${MAX_VALIDATED_LENGTH} characters`;
  }
  if (!pattern) return undefined;
  const validator = validatorFor(pattern);
  // A pattern the gate refuses never runs: the field cannot be checked, and is refused (fails closed).
  if (validator.refused !== undefined) return `${key} cannot be checked: ${validator.refused}`;
  const checked = withinBudget(() => texts.every((text) => validator.regex.test(text)));
  if ('timedOut' in checked) return `${key} took too long to check`;
  return checked.value ? undefined : `does not match ${key}`;
}
