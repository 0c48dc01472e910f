import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import type { RegistrationRow } from './storage.js';

/** A registration by RID, batched per request: every field of the processor that links one uses this loader. */
export const registrationOf = (deps: PlatformDeps, context: RequestContext, rid: string): Promise<RegistrationRow | null> =>
  loader(context, 'regproc.registrations', (rids: readonly string[]) => deps.services.registrations.byRids(rids))(rid);
