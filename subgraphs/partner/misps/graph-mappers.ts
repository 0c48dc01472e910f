export const mispsMappers = {};
