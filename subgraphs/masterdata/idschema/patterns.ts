import vm from 'node:vm';
import { RegExpParser, type AST } from '@eslint-community/regexpp';

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

type Ranges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;
const ANY: Ranges = [[0, MAX_CODE_POINT]];
const NONE: Ranges = [];
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function union(...sets: Ranges[]): Ranges {
  const all = sets.flat().sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of all) {
    const last = merged.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function complement(set: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of union(set)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const overlaps = (a: Ranges, b: Ranges): boolean => a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));

/** ASCII letters in both cases: a pattern may turn case-insensitive inside ((?i:…)), and a wider set only makes the check stricter. */
function bothCases(set: Ranges): Ranges {
  const extra: [number, number][] = [];
  for (const [lo, hi] of set) {
    for (const [from, to, shift] of [
      [0x41, 0x5a, 0x20],
      [0x61, 0x7a, -0x20],
    ] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push([a + shift, b + shift]);
    }
  }
  return extra.length ? union(set, extra) : set;
}

/** What a part of a pattern can match: the empty text, and which characters it can start with, end with, and hold. */
interface Shape {
  nullable: boolean;
  first: Ranges;
  last: Ranges;
  chars: Ranges;
}

const ZERO_WIDTH: Shape = { nullable: true, first: NONE, last: NONE, chars: NONE };
const NON_ASCII: Ranges = [[0x80, MAX_CODE_POINT]];

type ClassElement = AST.CharacterClassElement | AST.CharacterClass | AST.ClassSetOperand | AST.ClassIntersection | AST.ClassSubtraction;

/** The characters a class element can match; what is hard to compute exactly (properties, set operations) counts as any character. */
function classChars(node: ClassElement): Ranges {
  switch (node.type) {
    case 'Character':
      return [[node.value, node.value]];
    case 'CharacterClassRange':
      return [[node.min.value, node.max.value]];
    case 'CharacterSet': {
      if (node.kind === 'property') return ANY;
      const set = node.kind === 'digit' ? DIGIT : node.kind === 'word' ? WORD : SPACE;
      return node.negate ? complement(set) : set;
    }
    case 'CharacterClass': {
      const set = union(...node.elements.map(classChars));
      return node.negate ? complement(set) : set;
    }
    default:
      return ANY;
  }
}

/** A pattern's parts, analysed once each. */
class Analysis {
  private readonly shapes = new Map<AST.Node, Shape>();

  /** foldCase: the pattern turns case-insensitive somewhere ((?i:…)); non-ASCII letters then count as any non-ASCII character. */
  constructor(private readonly foldCase: boolean) {}

  private charShape(set: Ranges): Shape {
    let chars = bothCases(set);
    if (this.foldCase && overlaps(chars, NON_ASCII)) chars = union(chars, NON_ASCII);
    return { nullable: false, first: chars, last: chars, chars };
  }

  shape(node: AST.Node): Shape {
    let shape = this.shapes.get(node);
    if (!shape) {
      shape = this.compute(node);
      this.shapes.set(node, shape);
    }
    return shape;
  }

  private sequence(elements: readonly AST.Node[]): Shape {
    const shapes = elements.map((element) => this.shape(element));
    const first: Ranges[] = [];
    for (const shape of shapes) {
      first.push(shape.first);
      if (!shape.nullable) break;
    }
    const last: Ranges[] = [];
    for (const shape of [...shapes].reverse()) {
      last.push(shape.last);
      if (!shape.nullable) break;
    }
    return { nullable: shapes.every((s) => s.nullable), first: union(...first), last: union(...last), chars: union(...shapes.map((s) => s.chars)) };
  }

  private choice(alternatives: readonly AST.Node[]): Shape {
    const shapes = alternatives.map((alternative) => this.shape(alternative));
    return {
      nullable: shapes.some((s) => s.nullable),
      first: union(...shapes.map((s) => s.first)),
      last: union(...shapes.map((s) => s.last)),
      chars: union(...shapes.map((s) => s.chars)),
    };
  }

  private compute(node: AST.Node): Shape {
    switch (node.type) {
      case 'Pattern':
      case 'Group':
      case 'CapturingGroup':
        return this.choice(node.alternatives);
      case 'Alternative':
        return this.sequence(node.elements);
      case 'Quantifier': {
        if (node.max === 0) return ZERO_WIDTH;
        const inner = this.shape(node.element);
        return { ...inner, nullable: node.min === 0 || inner.nullable };
      }
      case 'Assertion':
        return ZERO_WIDTH;
      case 'Character':
        return this.charShape([[node.value, node.value]]);
      case 'CharacterSet':
        return this.charShape(node.kind === 'any' ? ANY : classChars(node));
      case 'CharacterClass':
      case 'ExpressionCharacterClass':
        return this.charShape(classChars(node));
      default:
        return { nullable: true, first: ANY, last: ANY, chars: ANY };
    }
  }

  /** The repeats that can take the last (or, from the start, the first) characters of a match of the node. */
  edgeRepeats(node: AST.Node, end: 'last' | 'first'): AST.Quantifier[] {
    switch (node.type) {
      case 'Pattern':
      case 'Group':
      case 'CapturingGroup':
        return node.alternatives.flatMap((alternative) => this.edgeRepeats(alternative, end));
      case 'Alternative': {
        const found: AST.Quantifier[] = [];
        const elements = end === 'last' ? [...node.elements].reverse() : node.elements;
        for (const element of elements) {
          found.push(...this.edgeRepeats(element, end));
          if (!this.shape(element).nullable) break;
        }
        return found;
      }
      case 'Quantifier':
        // A repeat of a fixed count (a{3}) cannot give characters away; one of a range can.
        return [...(node.max > node.min ? [node] : []), ...this.edgeRepeats(node.element, end)];
      default:
        return [];
    }
  }
}

/** Every node of a pattern, lookarounds included. */
function* nodesOf(node: AST.Node): Generator<AST.Node> {
  yield node;
  switch (node.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      for (const alternative of node.alternatives) yield* nodesOf(alternative);
      break;
    case 'Assertion':
      if (node.kind === 'lookahead' || node.kind === 'lookbehind') for (const alternative of node.alternatives) yield* nodesOf(alternative);
      break;
    case 'Alternative':
      for (const element of node.elements) yield* nodesOf(element);
      break;
    case 'Quantifier':
      yield* nodesOf(node.element);
      break;
    default:
  }
}

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
