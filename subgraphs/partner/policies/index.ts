import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const policiesArea = defineArea({
  name: 'policies',
  access: {},
  schemas: {},
  codeFor: () => 'PMS_COR_002',
  services: () => ({}),
  resolvers: () => ({}),
});
