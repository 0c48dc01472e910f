export const holidaysMappers = {};
