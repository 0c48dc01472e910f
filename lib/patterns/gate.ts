import vm from 'node:vm';
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { overlaps } from './char-ranges.js';
import { Analysis, nodesOf } from './pattern-shapes.js';

/**
 * The regex validators of an ID schema are written by administrators and run
 * on every identity stored. JavaScript's engine backtracks, so a pattern such
 * as `^([0-9a-z]+)+$` takes exponential time on a value that almost matches,
 * and stalls the whole process meanwhile. Three defences, all here:
 *
 * - `patternProblem` refuses catastrophic patterns (a repeated part that can
 *   match nothing, nested repeats that can trade characters, alternatives
 *   under a repeat that can start alike, backreferences) when a schema is
 *   written, imported or published; MOSIP's patterns (lookaheads such as
 *   `^(?=.{0,50}$).*`, delimited repeats such as `([.][A-Za-z0-9_-]+)*`) pass.
 * - `validatorFor` is the one gate every validator is compiled through: a
 *   stored pattern that fails the check (a schema version written before it)
 *   never runs, the validator fails closed.
 * - `withinBudget` runs the validation of one identity under a time budget,
 *   and values are bounded in length before any pattern sees them, for what
 *   a static check cannot see (polynomial patterns such as `\d*\d*\d*x`).
 */

/** The longest text a regex validator is run on. */
export const MAX_VALIDATED_LENGTH = 1024;
/**
 * How long the regex validators of one identity may run together. Wall time:
 * generous enough that a loaded machine never refuses a legitimate identity
 * (they take microseconds), small enough that a slow pattern costs a request
 * half a second, not the platform.
 */
export const VALIDATION_BUDGET_MS = 500;

/** What makes one repeat `(body)+` catastrophic: more than one way to split a text into iterations, which backtracking tries one by one. */
function repeatProblem(analysis: Analysis, repeat: AST.Quantifier): string | null {
  const body = analysis.shape(repeat.element);
  if (body.nullable) return `${repeat.raw} repeats a part that can match nothing`;
  // An inner repeat at the end of the body can give characters to the next iteration, when that iteration can start with them (and so on at the start).
  for (const inner of analysis.edgeRepeats(repeat.element, 'last')) {
    if (inner !== repeat && overlaps(analysis.shape(inner).chars, body.first)) return `${repeat.raw} nests repeats that can match the same characters`;
  }
  for (const inner of analysis.edgeRepeats(repeat.element, 'first')) {
    if (inner !== repeat && overlaps(analysis.shape(inner).chars, body.last)) return `${repeat.raw} nests repeats that can match the same characters`;
  }
  // Alternatives inside a repeat that can start with the same character double the ways at each iteration.
  for (const node of nodesOf(repeat.element)) {
    if ((node.type !== 'Group' && node.type !== 'CapturingGroup') || node.alternatives.length < 2) continue;
    const shapes = node.alternatives.map((alternative) => analysis.shape(alternative));
    for (let i = 0; i < shapes.length; i++) {
      for (let j = i + 1; j < shapes.length; j++) {
        if ((shapes[i]!.nullable && shapes[j]!.nullable) || overlaps(shapes[i]!.first, shapes[j]!.first))
          return `${repeat.raw} repeats alternatives that can match the same text`;
      }
    }
  }
  return null;
}

const parser = new RegExpParser({ ecmaVersion: 2025, strict: false });

/**
 * Why a regex validator is refused, or null: not a regular expression, or one
 * whose matching time can explode (see the top of this file).
 */
export function patternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern);
  } catch {
    return 'a regex validator must be a valid regular expression';
  }
  let ast: AST.Pattern;
  try {
    ast = parser.parsePattern(pattern, 0, pattern.length, { unicode: false });
  } catch {
    return 'a regex validator must be a regular expression this platform can analyse';
  }
  const analysis = new Analysis([...nodesOf(ast)].some((node) => node.type === 'Group' && node.modifiers?.add.ignoreCase));
  for (const node of nodesOf(ast)) {
    if (node.type === 'Backreference') return 'a regex validator may not use backreferences (their matching time has no bound)';
    if (node.type === 'Quantifier' && node.max > 1) {
      const problem = repeatProblem(analysis, node);
      if (problem) return `a regex validator must match in bounded time: ${problem}`;
    }
  }
  return null;
}

/** A validator ready to run: the compiled pattern, or why it must not run. */
export type Validator = { regex: RegExp; refused?: undefined } | { refused: string; regex?: undefined };

const validators = new Map<string, Validator>();
const VALIDATORS_KEPT = 1_000;

/** The one way a pattern becomes a validator: through patternProblem, once per pattern. */
export function validatorFor(pattern: string): Validator {
  let validator = validators.get(pattern);
  if (!validator) {
    const problem = patternProblem(pattern);
    validator = problem ? { refused: problem } : { regex: new RegExp(pattern) };
    if (validators.size >= VALIDATORS_KEPT) validators.clear();
    validators.set(pattern, validator);
  }
  return validator;
}

// One context, reused: the script only calls back into this module, and a timeout interrupts whatever runs (a regex included).
const sandbox: { task: (() => unknown) | null } = { task: null };
const context = vm.createContext(sandbox);
const script = new vm.Script('task()');

/**
 * Runs a synchronous check under a time budget: its result, or `timedOut`
 * when the budget ran out (V8 interrupts a running regex too). The check
 * must leave nothing half-done behind when interrupted (pure checks only).
 */
export function withinBudget<T>(check: () => T, budgetMs = VALIDATION_BUDGET_MS): { value: T } | { timedOut: true } {
  sandbox.task = check;
  try {
    return { value: script.runInContext(context, { timeout: budgetMs }) as T };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { timedOut: true };
    throw error;
  } finally {
    sandbox.task = null;
  }
}
