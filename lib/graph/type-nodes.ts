import { Kind, type TypeNode } from 'graphql';

/** The named type under a type's lists and non-null marks (`[Foo!]!` → `Foo`), read from an SDL's AST. */
export const namedTypeOf = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type));
