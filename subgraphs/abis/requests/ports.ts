import type { JobTx } from '../../../lib/jobs/types.js';
import type { DedupeAnswer } from '../../regproc/pipeline/dedupe.js';
import type { AbisSettings } from '../settings.js';

// What the ABIS requests share with the pipeline and with their own parts (service, replies, operator).

/** Requests someone may wait on (AbisOperatorService): the operator's questions and deletes, not the pipeline's insert and identify. */
export const isAwaited = (operation: string) => operation !== 'INSERT' && operation !== 'IDENTIFY';

/** One ABIS and its queue pair (ABIS.md (a)). */
export interface AbisEndpoint {
  name: string;
  requestQueue: string;
  responseQueue: string;
}

/** What the requests need of the pipeline: an asynchronous de-duplication's or authentication's answer or failure, in the reply's transaction. */
export interface PipelinePort {
  deduplicatedIn(tx: JobTx, rid: string, answer: Exclude<DedupeAnswer, { kind: 'waiting' }>, now: Date): Promise<boolean>;
  deduplicationFailedIn(tx: JobTx, rid: string, reason: string, now: Date): Promise<boolean>;
  /** the answer of a 1:1 against a changed identity's reference */
  authenticatedIn(tx: JobTx, rid: string, matched: boolean, now: Date): Promise<boolean>;
  /** of a registration's candidates (RIDs), those that are someone else (not the identity it changes); read before the transaction */
  relevantCandidates(rid: string, candidateRids: readonly string[]): Promise<string[]>;
}

/** The registrations an identify's candidates name, by biometric reference in lower case. */
export type CandidateLookup = (referenceIds: readonly string[]) => Promise<Map<string, { rid: string; status: string }>>;

/** The candidates of one identify reply that are looked at (MOSIP asks an ABIS for 30 at most, `maxResults`). */
export const MAX_CANDIDATES = 100;

/**
 * The most ABIS requests a registration's list answers (Registration.abisRequests): an attempt writes an
 * insert and an identify per ABIS (MAX_ABIS at most), so this holds dozens of attempts; beyond, the
 * portal pages through abisRequests(filter: {registrationId}).
 */
export const MAX_REQUESTS_LISTED = 1000;

/** The ABIS endpoints ABIS_COUNT configures: abis1 on the queues as named, abisN on `<request>N` / `abisN-to-platform`. */
export function endpointsOf(settings: Pick<AbisSettings, 'count' | 'requestQueue' | 'responseQueue'>): AbisEndpoint[] {
  return Array.from({ length: settings.count }, (_, index) =>
    index === 0
      ? { name: 'abis1', requestQueue: settings.requestQueue, responseQueue: settings.responseQueue }
      : { name: `abis${index + 1}`, requestQueue: `${settings.requestQueue}${index + 1}`, responseQueue: `abis${index + 1}-to-platform` },
  );
}

/** The settings the requests read. */
export type AbisRequestSettings = Pick<
  AbisSettings,
  'count' | 'requestQueue' | 'responseQueue' | 'messageFormat' | 'messageTtlSeconds' | 'responseTimeoutSeconds' | 'pingTimeoutSeconds' | 'deleteRejected'
>;
