import { defineArea } from '../area.js';
import { preregCodeFor } from '../errors.js';

/** The registration client's sync and the ids registration consumed. */
export const syncArea = defineArea({
  name: 'sync',
  access: {},
  schemas: {},
  codeFor: preregCodeFor,
  services: () => ({}),
  resolvers: () => ({}),
});
