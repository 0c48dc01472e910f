export const documentsMappers = {};
