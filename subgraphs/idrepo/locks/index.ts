import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';

/** Placeholder: the locks area, being written. */
export const locksArea = defineArea({
  name: 'locks',
  access: {},
  schemas: {},
  codeFor: idrepoCodeFor,
  services: () => ({}),
  resolvers: () => ({}),
});
