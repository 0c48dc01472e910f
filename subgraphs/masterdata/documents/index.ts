import { defineArea } from '../area.js';

/** Placeholder until the area is built. */
export const documentsArea = defineArea({
  name: 'documents',
  access: {},
  schemas: {},
  codeFor: () => 'KER-MSD-500',
  services: () => ({}),
  resolvers: () => ({}),
});
