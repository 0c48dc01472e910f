export const devicesMappers = {};
