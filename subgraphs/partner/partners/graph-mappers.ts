export const partnersMappers = {};
