import { defineArea } from '../area.js';
import { preregCodeFor } from '../errors.js';

/** Appointments: slots, booking, cancelling. */
export const bookingArea = defineArea({
  name: 'booking',
  access: {},
  schemas: {},
  codeFor: preregCodeFor,
  services: () => ({}),
  resolvers: () => ({}),
});
