import type { RequestContext } from '../../../lib/context.js';
import { loader } from '../../../lib/graph/loader.js';
import type { ApplicationsService } from './service.js';
import type { ApplicationRow } from './types.js';

/**
 * The application a booking, a cancellation or a document belongs to, when the
 * caller may read it (null otherwise): one read for every such link of a request.
 */
export const readableApplication =
  (applications: ApplicationsService) =>
  async (row: { preRegistrationId: string }, _args: unknown, context: RequestContext): Promise<ApplicationRow | null> => {
    const caller = await context.principal();
    return loader(context, 'prereg.readableApplication', (ids: readonly string[]) => applications.readable(caller, ids))(row.preRegistrationId);
  };
