import { PlatformError } from '../../../lib/errors.js';
import { within } from '../../../lib/graph/capped.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { regprocErrors } from '../errors.js';
import type { PipelineService } from '../pipeline/service.js';
import type { VerificationRow, VerificationStorage } from './storage.js';

export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** The manual verification's codes (spec Document 1). */
const MVS = {
  accessDenied: 'RPR-MVS-001',
  invalidStatus: 'RPR-MVS-003',
  noPacket: 'RPR-FAC-003',
} as const;

export interface Assignment {
  regId: string;
  /** where the adjudicator reads the registration's biometrics */
  url: string;
  mvUsrId: string;
  statusCode: 'ASSIGNED';
  gallery: { matchedRefs: { matchedRegId: string; matchedRefType: string; reasonCode: string }[] };
}

export interface DecisionInput {
  matchedRefType?: string | null;
  mvUsrId: string;
  reasonCode?: string | null;
  regId: string;
  statusCode: string;
}

const DECISIONS = new Set(['APPROVED', 'REJECTED']);

/**
 * The most possible duplicates a registration's lists answer (an assignment's gallery, Registration.manualVerifications):
 * an attempt's de-duplication names at most 100 per ABIS, 16 ABIS at most; more is refused, never cut short.
 */
export const MAX_MATCHES_LISTED = 2000;
const tooManyMatches = () => regprocErrors.listTooLong('possible duplicates of the registration', MAX_MATCHES_LISTED);

/**
 * Manual adjudication (MOSIP's manual verification): possible duplicates
 * found by de-duplication wait here. An adjudicator takes one registration
 * at a time (assignment), sees only what is assigned to them, and decides;
 * the decision moves the registration on in the same transaction. An
 * adjudicator acts as themselves only: `userId`/`mvUsrId` is the caller.
 */
export class VerificationService {
  constructor(
    private readonly store: VerificationStorage,
    private readonly pipeline: Pick<PipelineService, 'adjudicated'>,
    private readonly clock: Clock,
    /** the address of a registration's biometric file, by its biometric reference */
    private readonly biometricUrl: (bioRefId: string) => string,
  ) {}

  private self(caller: Caller, user: string): void {
    if (user !== caller.subject)
      throw new PlatformError(MVS.accessDenied, `Access Denied: an adjudicator acts as themselves (${caller.subject}), not as ${user}`);
  }

  /** The registration the adjudicator already holds, or the oldest unassigned one (racing adjudicators never share one). */
  async assign(caller: Caller, input: { userId: string; matchType?: string | null }): Promise<Assignment> {
    this.self(caller, input.userId);
    let rid = await this.store.assignedTo(input.userId);
    for (let round = 0; !rid && round < 5; round++) {
      const waiting = await this.store.waiting(5);
      if (!waiting.length) break;
      for (const candidate of waiting) {
        if (await this.store.assign(candidate, input.userId, this.clock.now())) {
          rid = candidate;
          break;
        }
      }
    }
    if (!rid) throw new PlatformError(MVS.noPacket, 'Cannot find the registration packet: nothing waits for manual verification');
    return this.assignment(rid, input.userId);
  }

  private async assignment(rid: string, user: string): Promise<Assignment> {
    const [registration, matches] = await Promise.all([this.store.registration(rid), this.store.matchesOf(rid)]);
    return {
      regId: rid,
      url: this.biometricUrl(registration?.bioRefId ?? rid),
      mvUsrId: user,
      statusCode: 'ASSIGNED',
      gallery: {
        matchedRefs: within(
          MAX_MATCHES_LISTED,
          matches
            .filter((match) => match.assignedTo === user)
            .map((match) => ({ matchedRegId: match.matchedRid, matchedRefType: match.matchedRefType, reasonCode: match.reasonCode })),
          tooManyMatches,
        ),
      },
    };
  }

  /** APPROVED goes on to the UIN, REJECTED ends the registration; only the adjudicator it is assigned to decides, once. */
  async decide(caller: Caller, input: DecisionInput): Promise<DecisionInput> {
    this.self(caller, input.mvUsrId);
    if (!DECISIONS.has(input.statusCode)) throw new PlatformError(MVS.invalidStatus, `Invalid status update: ${input.statusCode} is not APPROVED or REJECTED`);
    const matches = await this.store.matchesOf(input.regId);
    const mine = matches.filter((match) => match.assignedTo === input.mvUsrId);
    if (!mine.length) throw new PlatformError(MVS.noPacket, 'Cannot find the registration packet assigned to this adjudicator');
    const registration = await this.store.registration(input.regId);
    if (!registration || !mine.some((match) => match.status === 'ASSIGNED') || registration.stage !== 'MANUAL_ADJUDICATION')
      throw new PlatformError(MVS.invalidStatus, 'Invalid status update: the registration is already decided');
    const approved = input.statusCode === 'APPROVED';
    const decided = await this.store.inTransaction(async (tx) => {
      const now = this.clock.now();
      if (!(await this.store.decide(tx, input.regId, input.mvUsrId, approved ? 'APPROVED' : 'REJECTED', now))) return false;
      await this.pipeline.adjudicated(tx, registration, approved, input.mvUsrId, now);
      return true;
    });
    if (!decided) throw new PlatformError(MVS.invalidStatus, 'Invalid status update: the registration is already decided');
    return input;
  }

  /** One registration's possible duplicates as its list answers them: MAX_MATCHES_LISTED at most, refused beyond. */
  listed(matches: VerificationRow[]): VerificationRow[] {
    return within(MAX_MATCHES_LISTED, matches, tooManyMatches);
  }

  /** The possible duplicates of several registrations, by RID (one query for a page). */
  async matchesByRids(rids: readonly string[]): Promise<Map<string, VerificationRow[]>> {
    const grouped = new Map<string, VerificationRow[]>();
    for (const row of await this.store.matchesOfMany(rids)) grouped.set(row.rid, [...(grouped.get(row.rid) ?? []), row]);
    return grouped;
  }
}
