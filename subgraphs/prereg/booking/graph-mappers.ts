/** GraphQL type → the value its resolvers receive as parent, for the booking area's types (paths from subgraphs/prereg). */
export const bookingMappers: Record<string, string> = {};
