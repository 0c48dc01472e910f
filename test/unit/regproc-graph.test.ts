// The registration processor's portal graph documents itself: every type, field, argument, input
// field and enum value of its SDL has a description (Query and Mutation are only containers).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, visit, type ASTNode } from 'graphql';
import { expect, it } from 'vitest';

const FOLDER = fileURLToPath(new URL('../../schema/regproc/', import.meta.url));
const DESCRIBED = new Set([
  'ObjectTypeDefinition',
  'InputObjectTypeDefinition',
  'EnumTypeDefinition',
  'ScalarTypeDefinition',
  'FieldDefinition',
  'InputValueDefinition',
  'EnumValueDefinition',
]);

it('describes every type, field, argument, input field and enum value of the registration processor', () => {
  const undescribed: string[] = [];
  for (const file of readdirSync(FOLDER).filter((name) => name.endsWith('.graphql'))) {
    visit(parse(readFileSync(path.join(FOLDER, file), 'utf8')), {
      enter(node: ASTNode) {
        if (!DESCRIBED.has(node.kind) || !('name' in node) || !node.name) return;
        const described = 'description' in node && node.description?.value.trim();
        if (!described && !['Query', 'Mutation'].includes(node.name.value)) undescribed.push(`${file}: ${node.kind} ${node.name.value}`);
      },
    });
  }
  expect(undescribed).toEqual([]);
});
