import { Kind, type DefinitionNode, type DocumentNode, type InputValueDefinitionNode, type ObjectTypeDefinitionNode, type TypeNode } from 'graphql';
import type { z } from 'zod';
import type { FieldInputs } from './inputs.js';
import { namedTypeOf } from './type-nodes.js';

/**
 * Arguments a component's input rules always require are non-null in the
 * portal graph's API, so a client's tooling knows them before it sends.
 * The subgraphs keep them nullable: the REST paths, which run against the
 * subgraphs, answer a missing value with the specification's own error code
 * (the input rule's), never with GraphQL's validation error.
 */

/** An input's fields: whether each is always required, and what its own fields require (an object, or a list of objects). */
export type Requirements = ReadonlyMap<string, { required: boolean; fields?: Requirements }>;

interface ZodInternals {
  _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType> } };
}
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under its wrappers: optional, nullable, defaults and the input side of a transform. */
function unwrapped(schema: z.ZodType): ZodInternals['_zod']['def'] {
  let def = (schema as unknown as ZodInternals)._zod.def;
  for (;;) {
    const inner = def.type === 'pipe' ? def.in : WRAPPERS.has(def.type) ? def.innerType : undefined;
    if (!inner) return def;
    def = (inner as unknown as ZodInternals)._zod.def;
  }
}

/** What an input rule requires of an object (or of each object of a list); undefined for a scalar. */
export function requirementsOf(schema: z.ZodType): Requirements | undefined {
  const def = unwrapped(schema);
  if (def.type === 'array' && def.element) return requirementsOf(def.element);
  if (def.type !== 'object' || !def.shape) return undefined;
  return new Map(Object.entries(def.shape).map(([name, field]) => [name, { required: !field.safeParse(undefined).success, fields: requirementsOf(field) }]));
}

/** Every component's root-field requirements, by field name. */
export function rootRequirements(inputs: readonly (FieldInputs | undefined)[]): Map<string, Requirements> {
  const found = new Map<string, Requirements>();
  for (const component of inputs)
    for (const [field, schema] of Object.entries(component?.schemas ?? {})) {
      const requirements = requirementsOf(schema);
      if (requirements) found.set(field, requirements);
    }
  return found;
}

const nonNull = (type: TypeNode): TypeNode => (type.kind === Kind.NON_NULL_TYPE ? type : { kind: Kind.NON_NULL_TYPE, type });

/** Whether every rule that reaches an input requires this field of it, and what its own fields require under each. */
function combined(rules: readonly Requirements[], name: string): { required: boolean; fields: Requirements[] } {
  const found = rules.map((rule) => rule.get(name));
  return {
    required: found.every((rule) => rule?.required === true),
    fields: found.flatMap((rule) => (rule?.fields ? [rule.fields] : [])),
  };
}

/**
 * The supergraph with each argument (and input field, to any depth) its
 * input rule always requires made non-null: a root field's own arguments, or
 * the fields of the one `input` a payload mutation gathers them into. An
 * input type several fields take is strictened only where all their rules agree.
 */
export function withRequiredArguments(supergraph: DocumentNode, requirements: ReadonlyMap<string, Requirements>): DocumentNode {
  const inputs = new Map(
    supergraph.definitions.flatMap((definition) =>
      definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  // First every rule that reaches each input type (rules are finite trees: this ends), then each type rewritten once.
  // Where each input type is taken: a type also taken where no rule reaches is left as it is.
  const takers = new Map<string, Set<string>>();
  for (const definition of supergraph.definitions) {
    if (!('fields' in definition) || !('name' in definition) || !definition.name) continue;
    for (const field of definition.fields ?? []) {
      const values = field.kind === Kind.INPUT_VALUE_DEFINITION ? [field] : (field.arguments ?? []);
      for (const value of values) {
        const named = namedTypeOf(value.type);
        const at =
          field.kind === Kind.INPUT_VALUE_DEFINITION
            ? `${definition.name.value}.${field.name.value}`
            : `${definition.name.value}.${field.name.value}(${value.name.value})`;
        if (inputs.has(named)) takers.set(named, (takers.get(named) ?? new Set()).add(at));
      }
    }
  }
  const reaching = new Map<string, { at: string; rule: Requirements }[]>();
  const reach = (typeName: string, rule: Requirements, at: string) => {
    const definition = inputs.get(typeName);
    if (!definition) return;
    reaching.set(typeName, [...(reaching.get(typeName) ?? []), { at, rule }]);
    for (const field of definition.fields ?? []) {
      const nested = rule.get(field.name.value)?.fields;
      if (nested) reach(namedTypeOf(field.type), nested, `${typeName}.${field.name.value}`);
    }
  };
  /** The rules of an input type, when they reach it everywhere it is taken. */
  const rulesOf = (typeName: string): Requirements[] | undefined => {
    const found = reaching.get(typeName) ?? [];
    const reached = new Set(found.map(({ at }) => at));
    return found.length && [...(takers.get(typeName) ?? [])].every((at) => reached.has(at)) ? found.map(({ rule }) => rule) : undefined;
  };
  const strictened = (values: readonly InputValueDefinitionNode[] | undefined, rules: readonly Requirements[]): InputValueDefinitionNode[] =>
    (values ?? []).map((value) => (combined(rules, value.name.value).required ? { ...value, type: nonNull(value.type) } : value));
  const isRoot = (definition: DefinitionNode): definition is ObjectTypeDefinitionNode =>
    definition.kind === Kind.OBJECT_TYPE_DEFINITION && ['Query', 'Mutation', 'Subscription'].includes(definition.name.value);
  const gatheredInput = (args: readonly InputValueDefinitionNode[], found: Requirements) =>
    args.length === 1 && args[0]!.name.value === 'input' && !found.has('input') ? args[0] : undefined;
  for (const definition of supergraph.definitions.filter(isRoot))
    for (const field of definition.fields ?? []) {
      const found = requirements.get(field.name.value);
      if (!found) continue;
      const args = field.arguments ?? [];
      const gathered = gatheredInput(args, found);
      const at = (arg: InputValueDefinitionNode) => `${definition.name.value}.${field.name.value}(${arg.name.value})`;
      if (gathered) reach(namedTypeOf(gathered.type), found, at(gathered));
      else
        for (const arg of args) {
          const nested = found.get(arg.name.value)?.fields;
          if (nested) reach(namedTypeOf(arg.type), nested, at(arg));
        }
    }
  return {
    ...supergraph,
    definitions: supergraph.definitions.map((definition): DefinitionNode => {
      if (definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) {
        const rules = rulesOf(definition.name.value);
        return rules ? { ...definition, fields: strictened(definition.fields, rules) } : definition;
      }
      if (!isRoot(definition)) return definition;
      return {
        ...definition,
        fields: definition.fields?.map((field) => {
          const found = requirements.get(field.name.value);
          return found && !gatheredInput(field.arguments ?? [], found) ? { ...field, arguments: strictened(field.arguments, [found]) } : field;
        }),
      };
    }),
  };
}
