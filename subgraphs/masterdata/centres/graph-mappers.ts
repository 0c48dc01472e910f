export const centresMappers = {};
