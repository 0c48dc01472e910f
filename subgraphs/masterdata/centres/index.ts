import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const centresArea = defineArea({
  name: 'centres',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: () => ({}),
  resolvers: () => ({}),
});
