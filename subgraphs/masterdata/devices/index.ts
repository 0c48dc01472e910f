import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const devicesArea = defineArea({
  name: 'devices',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: () => ({}),
  resolvers: () => ({}),
});
