import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const partnersArea = defineArea({
  name: 'partners',
  access: {},
  schemas: {},
  codeFor: () => 'PMS_COR_002',
  services: () => ({}),
  resolvers: () => ({}),
});
