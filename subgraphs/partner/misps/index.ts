import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const mispsArea = defineArea({
  name: 'misps',
  access: {},
  schemas: {},
  codeFor: () => 'PMS_COR_002',
  services: () => ({}),
  resolvers: () => ({}),
});
