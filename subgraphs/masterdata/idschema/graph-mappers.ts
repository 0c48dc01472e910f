export const idschemaMappers = {};
