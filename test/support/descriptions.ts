// What an SDL leaves undescribed, by schema coordinate (test/unit/graph-descriptions.test.ts; run it on
// one file while writing descriptions).
import { Kind, parse, visit, type ASTNode } from 'graphql';

const DESCRIBED = new Set([
  'ObjectTypeDefinition',
  'InterfaceTypeDefinition',
  'UnionTypeDefinition',
  'InputObjectTypeDefinition',
  'EnumTypeDefinition',
  'ScalarTypeDefinition',
  'FieldDefinition',
  'InputValueDefinition',
  'EnumValueDefinition',
]);
const CONTAINERS = new Set(['Query', 'Mutation', 'Subscription']);
const isFederations = (name: string) => name.includes('__') || name === 'link' || name === 'join';

/** The coordinates (`Type`, `Type.field`, `Type.field(argument:)`, `Enum.VALUE`) of what an SDL leaves undescribed. */
export function undescribed(sdl: string): string[] {
  const missing: string[] = [];
  const path: string[] = [];
  visit(parse(sdl), {
    enter(node: ASTNode) {
      if (node.kind === Kind.DIRECTIVE_DEFINITION) return false; // the composer's and federation's directives
      const named = 'name' in node && node.name && typeof node.name === 'object' && 'value' in node.name ? node.name.value : undefined;
      if (named === undefined || (!DESCRIBED.has(node.kind) && !node.kind.endsWith('Extension'))) return;
      const isType = node.kind.endsWith('TypeDefinition') || node.kind.endsWith('Extension');
      if (isType && isFederations(named)) return false;
      const coordinate = isType
        ? named
        : node.kind === Kind.INPUT_VALUE_DEFINITION && path.length === 2
          ? `${path.join('.')}(${named}:)`
          : [...path, named].join('.');
      path.push(named);
      const described = 'description' in node && node.description?.value.trim();
      if (DESCRIBED.has(node.kind) && !described && !(isType && CONTAINERS.has(named))) missing.push(coordinate);
    },
    leave(node: ASTNode) {
      if (DESCRIBED.has(node.kind) || node.kind.endsWith('Extension')) if ('name' in node && node.name) path.pop();
    },
  });
  return missing;
}
