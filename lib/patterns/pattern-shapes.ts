import type { AST } from '@eslint-community/regexpp';
import { ANY, bothCases, complement, DIGIT, NON_ASCII, NONE, overlaps, SPACE, union, WORD, type Ranges } from './char-ranges.js';

// The parts of a parsed pattern and what each can match: what the pattern gate (patterns.ts) reasons over.

/** What a part of a pattern can match: the empty text, and which characters it can start with, end with, and hold. */
export interface Shape {
  nullable: boolean;
  first: Ranges;
  last: Ranges;
  chars: Ranges;
}

const ZERO_WIDTH: Shape = { nullable: true, first: NONE, last: NONE, chars: NONE };

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
export class Analysis {
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
export function* nodesOf(node: AST.Node): Generator<AST.Node> {
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
