import { defineArea } from '../area.js';
import { preregCodeFor } from '../errors.js';

/** Documents of an application (upload, list, read, delete, copy). */
export const documentsArea = defineArea({
  name: 'documents',
  access: {},
  schemas: {},
  codeFor: preregCodeFor,
  services: () => ({}),
  resolvers: () => ({}),
});
