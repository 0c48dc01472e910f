import { defineArea } from '../area.js';
import { idrepoCodeFor } from '../errors.js';

/** Placeholder: the vids area, being written. */
export const vidsArea = defineArea({
  name: 'vids',
  access: {},
  schemas: {},
  codeFor: idrepoCodeFor,
  services: () => ({}),
  resolvers: () => ({}),
});
