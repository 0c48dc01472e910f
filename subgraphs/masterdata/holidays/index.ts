import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const holidaysArea = defineArea({
  name: 'holidays',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: () => ({}),
  resolvers: () => ({}),
});
