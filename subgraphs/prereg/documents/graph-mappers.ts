/** GraphQL type → the value its resolvers receive as parent, for the documents area's types (paths from subgraphs/prereg). */
export const documentsMappers: Record<string, string> = {
  PreRegistrationDocument: './documents/types.js#DocumentModel',
  PreRegistrationDocumentContent: './documents/types.js#DocumentContentModel',
};
