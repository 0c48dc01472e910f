import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * A named operation of a component's .graphql document. The text is read once
 * and sent unchanged with variables, because the gateway caches query plans by
 * exact text.
 */
export interface Operation {
  name: string;
  query: string;
}

const documents = new Map<string, string>();

export function operation(component: string, name: string): Operation {
  const file = path.join(ROOT, component, 'operations.graphql');
  let query = documents.get(file);
  if (query === undefined) {
    query = readFileSync(file, 'utf8');
    documents.set(file, query);
  }
  if (!new RegExp(`\\b(query|mutation)\\s+${name}\\b`).test(query)) throw new Error(`${file} has no operation ${name}`);
  return { name, query };
}
