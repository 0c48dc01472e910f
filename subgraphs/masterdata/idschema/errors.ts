import { PlatformError } from '../../../lib/errors.js';

/** MOSIP's identity schema codes (kernel masterdata SchemaErrorCode). */
export const idSchemaErrors = {
  fetch: (why: string) => new PlatformError('KER-SCH-004', `Error occurred while fetching Identity schema: ${why}`),
  insert: (why: string) => new PlatformError('KER-SCH-005', `Error occurred while inserting Identity schema: ${why}`),
  update: (why: string) => new PlatformError('KER-SCH-006', `Error occurred while updating Identity schema: ${why}`),
  notFound: () => new PlatformError('KER-SCH-007', 'Identity schema not found'),
  /** the same code, marked as the identity's fault: the version it names was never published (no retry mends it) */
  versionNotPublished: () => new PlatformError('KER-SCH-007', 'Identity schema not found', { field: ['IDSchemaVersion'] }),
};
