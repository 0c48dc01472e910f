import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const idschemaArea = defineArea({
  name: 'idschema',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: () => ({}),
  resolvers: () => ({}),
});
