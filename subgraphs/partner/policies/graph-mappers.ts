export const policiesMappers = {};
