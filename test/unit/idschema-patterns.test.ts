// The gate every ID schema regex validator passes (issue 19): catastrophic patterns refused, MOSIP's own accepted.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { identityProblems, schemaFields, type SchemaField } from '../../subgraphs/masterdata/idschema/fields.js';
import { MAX_VALIDATED_LENGTH, patternProblem, validatorFor, withinBudget } from '../../lib/patterns/gate.js';

const CATASTROPHIC = [
  '^([0-9a-z]+)+$',
  '(a|a)*$',
  '(a*)*b',
  '^(\\w+\\s?)*$',
  '(\\d+\\s?)+$',
  '((a|a)b)*c',
  '(x+x+)+y',
  '(.*a){20}',
  '([a-z]{1,3})+$',
  '^(a?){25}(a){25}$',
  '(?=(a+)+$)',
  '((a+){2})+',
  '(a+)\\1',
];

/** MOSIP's identity schema patterns (the sample country's and MOSIP's documented ones) and other ordinary ones. */
const ORDINARY = [
  '^(?=.{0,50}$).*',
  '^(1869|18[7-9][0-9]|19[0-9][0-9]|20[0-9][0-9])/([0][1-9]|1[0-2])/([0][1-9]|[1-2][0-9]|3[01])$',
  '^(150|1[0-4][0-9]|[1-9]?[0-9])$',
  '^[A-Za-z0-9]{5}$|^NA$',
  '^[(?i)A-Z0-9]{5}$|^NA$',
  '^([6-9]{1})([0-9]{9})$',
  '^[+]*([0-9]{1})([0-9]{9})$',
  '^[A-Za-z0-9_+-]+([.][A-Za-z0-9_+-]+)*@[A-Za-z0-9_-]+([.][A-Za-z0-9_-]+)*([.][A-Za-z]{2,})$',
  '^[A-Za-z0-9_\\-]+(\\.[A-Za-z0-9_]+)*@[A-Za-z0-9_-]+(\\.[A-Za-z0-9_]+)*(\\.[a-zA-Z]{2,})$',
  '^([0-9]{10,30})$',
  '^([0-9]{10}|[0-9]{29})$',
  '^[A-Za-z ]{1,50}$',
  '^\\d{4}/\\d{2}/\\d{2}$',
  '^(\\d{3}-){2}\\d{4}$',
  '^(\\d{2}){3}$',
];

describe('patternProblem', () => {
  it.each(CATASTROPHIC)('refuses %s', (pattern) => {
    expect(patternProblem(pattern)).toMatch(/bounded time|backreferences/);
    expect(validatorFor(pattern).refused).toBeDefined();
    expect(validatorFor(pattern).regex).toBeUndefined();
  });

  it.each(ORDINARY)('accepts %s', (pattern) => {
    expect(patternProblem(pattern)).toBeNull();
    expect(validatorFor(pattern).regex).toBeInstanceOf(RegExp);
  });

  it('refuses alternatives that match alike once case is ignored ((?i:…), Node 24; Node 20 refuses the syntax)', () => {
    expect(patternProblem('(?i:(é|É)+)$')).not.toBeNull();
    expect(patternProblem('(?i:(a|A)+)$')).not.toBeNull();
  });

  it('refuses what is not a regular expression', () => {
    expect(patternProblem('([')).toMatch(/valid regular expression/);
  });

  it("accepts every validator of the sample country's ID schema", () => {
    const file = JSON.parse(readFileSync(new URL('../../subgraphs/masterdata/sample-country/19-id-schemas.json', import.meta.url), 'utf8')) as unknown;
    const patterns = JSON.stringify(file).match(/"validator":"((?:[^"\\]|\\.)*)"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(5);
    for (const entry of patterns) {
      const pattern = JSON.parse(`{${entry}}`) as { validator: string };
      expect(patternProblem(pattern.validator), pattern.validator).toBeNull();
    }
  });

  it('is what the schema fields check at write time (KER-SCH-* through zod)', () => {
    const field = (validator: string) => [{ id: 'postalCode', type: 'string', validators: [{ type: 'regex', validator }] }];
    const refused = schemaFields.safeParse(field('^([0-9a-z]+)+$'));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual([0, 'validators', 0, 'validator']);
    expect(schemaFields.safeParse(field('^[0-9a-z]{5}$')).success).toBe(true);
  });
});

describe('identityProblems', () => {
  const field = (validator: string): SchemaField => ({ id: 'postalCode', type: 'string', validators: [{ type: 'regex', validator }] });

  it('does not run a stored catastrophic validator: the field fails closed', () => {
    // A schema version stored before the gate: fields are read as stored, without the write-time check.
    const problems = identityProblems([field('^([0-9a-z]+)+$')], { postalCode: `${'a'.repeat(40)}!` });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^postalCode cannot be checked: the ID schema's validator .* is refused/);
  });

  it('bounds the length of a value before any validator runs', () => {
    const problems = identityProblems([field('^[a-z]*$')], { postalCode: 'a'.repeat(MAX_VALIDATED_LENGTH + 1) });
    expect(problems[0]!.message).toBe(`postalCode is longer than ${MAX_VALIDATED_LENGTH} characters`);
    expect(identityProblems([field('^[a-z]*$')], { postalCode: 'a'.repeat(MAX_VALIDATED_LENGTH) })).toEqual([]);
  });

  it('stops validators that the static check lets through when they exceed the budget (a polynomial pattern)', () => {
    const slow = '^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$';
    expect(patternProblem(slow)).toBeNull();
    const problems = identityProblems([field(slow)], { postalCode: `${'1'.repeat(MAX_VALIDATED_LENGTH - 1)}x` });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^postalCode cannot be checked: the ID schema's validators took longer than/);
  });
});

describe('withinBudget', () => {
  it('answers with the value of a quick check, and interrupts a runaway regex', () => {
    expect(withinBudget(() => 42)).toEqual({ value: 42 });
    expect(withinBudget(() => /^([0-9a-z]+)+$/.test(`${'a'.repeat(40)}!`), 50)).toEqual({ timedOut: true });
    expect(() =>
      withinBudget(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });
});
