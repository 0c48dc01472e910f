import { Kind, visit, type DocumentNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode, type StringValueNode } from 'graphql';

interface Described {
  name: string;
  document: DocumentNode;
}

type Owned = { type?: StringValueNode; fields: Map<string, StringValueNode | undefined> };

const objectTypes = (document: DocumentNode): ObjectTypeDefinitionNode[] =>
  document.definitions.filter((definition): definition is ObjectTypeDefinitionNode => definition.kind === Kind.OBJECT_TYPE_DEFINITION);

/**
 * An entity several subgraphs declare is described by the one that owns it:
 * the declaration with the most fields (a single one, not a tie). Composition
 * otherwise keeps the text most subgraphs share, which for `User` was a
 * reference stub's ("a user of the auth subgraph, referenced by its id"):
 * what a portal developer reads in the supergraph. Each subgraph keeps its own
 * text in its own SDL; only the documents composed here are rewritten.
 */
export function withOwnersDescriptions<T extends Described>(services: readonly T[]): T[] {
  const declarations = new Map<string, { service: string; node: ObjectTypeDefinitionNode }[]>();
  for (const service of services)
    for (const node of objectTypes(service.document)) {
      const list = declarations.get(node.name.value) ?? [];
      list.push({ service: service.name, node });
      declarations.set(node.name.value, list);
    }
  const owners = new Map<string, { service: string } & Owned>();
  for (const [type, list] of declarations) {
    if (list.length < 2) continue;
    const sizes = list.map(({ node }) => node.fields?.length ?? 0);
    const most = Math.max(...sizes);
    if (sizes.filter((size) => size === most).length > 1) continue;
    const owner = list[sizes.indexOf(most)]!;
    const fields = new Map((owner.node.fields ?? []).map((field) => [field.name.value, field.description]));
    owners.set(type, { service: owner.service, type: owner.node.description, fields });
  }
  return services.map((service) => {
    const describedAs = (type: string) => {
      const owner = owners.get(type);
      return owner && owner.service !== service.name ? owner : undefined;
    };
    const document = visit(service.document, {
      ObjectTypeDefinition(node): ObjectTypeDefinitionNode | undefined {
        const owner = describedAs(node.name.value);
        if (!owner) return undefined;
        const fields = node.fields?.map((field): FieldDefinitionNode =>
          owner.fields.get(field.name.value) ? { ...field, description: owner.fields.get(field.name.value) } : field,
        );
        return { ...node, description: owner.type ?? node.description, fields };
      },
    });
    return { ...service, document };
  });
}
