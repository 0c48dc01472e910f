import {
  Kind,
  type ConstDirectiveNode,
  type DefinitionNode,
  type DocumentNode,
  type EnumValueDefinitionNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  type TypeNode,
} from 'graphql';
import { namedTypeOf } from './type-nodes.js';

/** A list's own order: the field it is sorted by and which way (what `orderBy` with that field and direction asks for). */
export interface NaturalOrder {
  field: string;
  direction: 'ASC' | 'DESC';
}

/** The directive a list declares its own order with in a component's SDL; this rule consumes it. */
export const NATURAL_ORDER_DIRECTIVE = 'naturalOrder';

const SORT_DIRECTION = 'SortDirection';

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const named = (value: string): TypeNode => ({ kind: Kind.NAMED_TYPE, name: name(value) });
const required = (value: string): TypeNode => ({ kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: name(value) } });
const text = (value: string) => ({ kind: Kind.STRING, value, block: false }) as const;

function naturalOrderOf(field: FieldDefinitionNode): NaturalOrder | undefined {
  const directive = field.directives?.find((found) => found.name.value === NATURAL_ORDER_DIRECTIVE);
  if (!directive) return undefined;
  const value = (arg: string) => {
    const found = directive.arguments?.find((candidate) => candidate.name.value === arg)?.value;
    return found?.kind === Kind.STRING || found?.kind === Kind.ENUM ? found.value : undefined;
  };
  const orderField = value('field');
  const direction = value('direction');
  if (!orderField || !/^[A-Z][A-Z0-9_]*$/.test(orderField) || (direction !== 'ASC' && direction !== 'DESC'))
    throw new Error(`@${NATURAL_ORDER_DIRECTIVE} of ${field.name.value}: field (UPPER_CASE) and direction (ASC or DESC)`);
  return { field: orderField, direction };
}

/**
 * One `orderBy` shape on every list of the portal graph: `{field, direction}`.
 * A list without an order of its own choosing declares the order it is kept in
 * (`@naturalOrder(field: "CREATED_AT", direction: DESC)`); this rule gives it
 * `orderBy: <Name>Order` over that field, either way, and tells the subgraph
 * which lists read in reverse (lib/graph/connection.ts pages a reversed list
 * from its other end). A list with its own `orderBy` keeps it.
 */
export function withNaturalOrders(document: DocumentNode): { document: DocumentNode; orders: ReadonlyMap<string, NaturalOrder> } {
  const orders = new Map<string, NaturalOrder>();
  const fieldsOf = new Map<string, Set<string>>();
  const declared = new Set(document.definitions.flatMap((definition) => ('name' in definition && definition.name ? [definition.name.value] : [])));
  const definitions = document.definitions.map((definition): DefinitionNode => {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) return definition;
    if (!definition.fields?.some((field) => naturalOrderOf(field))) return definition;
    const fields = definition.fields.map((field): FieldDefinitionNode => {
      const natural = naturalOrderOf(field);
      if (!natural) return field;
      const connection = namedTypeOf(field.type);
      if (!connection.endsWith('Connection')) throw new Error(`@${NATURAL_ORDER_DIRECTIVE} on ${field.name.value}: a list answering a …Connection only`);
      if (field.arguments?.some((arg) => arg.name.value === 'orderBy')) throw new Error(`${field.name.value} has an orderBy of its own`);
      const base = connection.slice(0, -'Connection'.length);
      fieldsOf.set(base, (fieldsOf.get(base) ?? new Set()).add(natural.field));
      orders.set(`${definition.name.value}.${field.name.value}`, natural);
      const orderBy: InputValueDefinitionNode = {
        kind: Kind.INPUT_VALUE_DEFINITION,
        name: name('orderBy'),
        type: named(`${base}Order`),
        description: text(`the order: ${natural.field} ${natural.direction} unless asked otherwise`),
      };
      return {
        ...field,
        arguments: [...(field.arguments ?? []), orderBy],
        directives: field.directives?.filter((directive: ConstDirectiveNode) => directive.name.value !== NATURAL_ORDER_DIRECTIVE),
      };
    });
    return { ...definition, fields };
  });
  const added: DefinitionNode[] = [];
  for (const [base, values] of fieldsOf) {
    added.push(
      {
        kind: Kind.ENUM_TYPE_DEFINITION,
        name: name(`${base}OrderField`),
        description: text(`What a list of ${base} entries is ordered by.`),
        values: [...values].sort().map((value): EnumValueDefinitionNode => ({
          kind: Kind.ENUM_VALUE_DEFINITION,
          name: name(value),
          description: text(`by ${value.toLowerCase().replaceAll('_', ' ')}`),
        })),
      },
      {
        kind: Kind.INPUT_OBJECT_TYPE_DEFINITION,
        name: name(`${base}Order`),
        description: text(`How a list of ${base} entries is ordered.`),
        fields: [
          { kind: Kind.INPUT_VALUE_DEFINITION, name: name('field'), type: required(`${base}OrderField`), description: text('what it is ordered by') },
          { kind: Kind.INPUT_VALUE_DEFINITION, name: name('direction'), type: required(SORT_DIRECTION), description: text('which way') },
        ],
      },
    );
  }
  if (fieldsOf.size && !declared.has(SORT_DIRECTION))
    added.push({
      kind: Kind.ENUM_TYPE_DEFINITION,
      name: name(SORT_DIRECTION),
      description: text('Which way a list is ordered.'),
      values: [
        { kind: Kind.ENUM_VALUE_DEFINITION, name: name('ASC'), description: text('ascending') },
        { kind: Kind.ENUM_VALUE_DEFINITION, name: name('DESC'), description: text('descending') },
      ],
    });
  return { document: { ...document, definitions: [...definitions, ...added] }, orders };
}

/**
 * The page arguments a list's resolver receives: `orderBy` read against the
 * list's own order, as `reversed` (lib/graph/connection.ts); an order field
 * the list is not kept by is refused.
 */
export function orderedArguments(args: Record<string, unknown>, natural: NaturalOrder, refuse: (message: string) => Error): Record<string, unknown> {
  const { orderBy, ...rest } = args as { orderBy?: { field?: string; direction?: string } | null };
  if (!orderBy) return rest;
  if (orderBy.field !== natural.field) throw refuse(`orderBy: this list is ordered by ${natural.field} only`);
  return { ...rest, reversed: orderBy.direction !== natural.direction };
}
