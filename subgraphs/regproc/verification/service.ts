import { PlatformError } from '../../../lib/errors.js';
import { within } from '../../../lib/graph/capped.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { regprocErrors } from '../errors.js';
import type { PipelineService } from '../pipeline/service.js';
import type { Registration } from '../../../generated/prisma/client.js';
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
  registration: Registration;
}

export interface DecisionInput {
  matchedRefType?: string | null;
  mvUsrId: string;
  reasonCode?: string | null;
  regId: string;
  statusCode: string;
}

const DECISIONS = new Set(['APPROVED', 'REJECTED']);

/** Whose registrations the adjudicator's queue lists. */
export type Assignee = 'ME' | 'NOBODY' | 'ANYONE';

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
  async assign(caller: Caller, given: { userId?: string | null; matchType?: string | null }): Promise<Assignment> {
    // The adjudicator is the caller: naming them is REST's way, and the graph's may leave it out.
    const input = { ...given, userId: given.userId ?? caller.subject };
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
    // The matches cascade with their registration: one assigned is there.
    if (!registration) throw new PlatformError(MVS.noPacket, 'Cannot find the registration packet');
    return {
      registration,
      regId: rid,
      url: this.biometricUrl(registration.bioRefId ?? rid),
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

  /** POST …/manualverification/decision: the REST door, which echoes the decision as recorded. */
  async decide(caller: Caller, input: DecisionInput): Promise<DecisionInput> {
    this.self(caller, input.mvUsrId);
    if (!DECISIONS.has(input.statusCode)) throw new PlatformError(MVS.invalidStatus, `Invalid status update: ${input.statusCode} is not APPROVED or REJECTED`);
    await this.record(input.mvUsrId, input.regId, input.statusCode === 'APPROVED', []);
    return input;
  }

  /** The graph's door: the caller's decision on the registration they hold, answering the registration as it now stands. */
  async adjudicate(caller: Caller, input: { registrationId: string; decision: 'APPROVED' | 'REJECTED' }): Promise<Registration> {
    await this.record(caller.subject, input.registrationId, input.decision === 'APPROVED', ['registrationId']);
    const registration = await this.store.registration(input.registrationId);
    if (!registration) throw new PlatformError(MVS.noPacket, 'Cannot find the registration packet', { field: ['registrationId'] });
    return registration;
  }

  /** APPROVED goes on to the UIN, REJECTED ends the registration; only the adjudicator it is assigned to decides, once. */
  private async record(user: string, rid: string, approved: boolean, ridField: readonly string[]): Promise<void> {
    const field = ridField.length ? { field: ridField } : {};
    const matches = await this.store.matchesOf(rid);
    const mine = matches.filter((match) => match.assignedTo === user);
    if (!mine.length) throw new PlatformError(MVS.noPacket, 'Cannot find the registration packet assigned to this adjudicator', field);
    const registration = await this.store.registration(rid);
    if (!registration || !mine.some((match) => match.status === 'ASSIGNED') || registration.stage !== 'MANUAL_ADJUDICATION')
      throw new PlatformError(MVS.invalidStatus, 'Invalid status update: the registration is already decided', field);
    const decided = await this.store.inTransaction(async (tx) => {
      const now = this.clock.now();
      if (!(await this.store.decide(tx, rid, user, approved ? 'APPROVED' : 'REJECTED', now))) return false;
      await this.pipeline.adjudicated(tx, registration, approved, user, now);
      return true;
    });
    if (!decided) throw new PlatformError(MVS.invalidStatus, 'Invalid status update: the registration is already decided', field);
  }

  /** The adjudicator's queue: registrations with possible duplicates, the caller's own (ME), waiting ones (NOBODY) or all. */
  queue(caller: Caller, filter: { assignedTo?: Assignee | null; status?: string | null }, page: PageArgs): Promise<Connection<Registration>> {
    const assignedTo = filter.assignedTo === 'ME' ? caller.subject : filter.assignedTo === 'NOBODY' ? null : undefined;
    return this.store.queue({ ...(assignedTo !== undefined ? { assignedTo } : {}), status: filter.status ?? null }, page);
  }

  /** The adjudicator of a registration's possible duplicates: who holds them, or who last decided them. */
  assigneeOf(matches: readonly VerificationRow[]): string | null {
    const taken = matches.filter((match) => match.assignedTo && match.assignedAt);
    taken.sort((a, b) => b.assignedAt!.getTime() - a.assignedAt!.getTime());
    return taken[0]?.assignedTo ?? null;
  }

  /** One registration's possible duplicates as its list answers them: MAX_MATCHES_LISTED at most, refused beyond. */
  listed(matches: VerificationRow[]): VerificationRow[] {
    return within(MAX_MATCHES_LISTED, matches, tooManyMatches);
  }

  /** The registrations each may duplicate, as de-duplication recorded them (the platform's matcher or an ABIS), sorted: one query for a page. */
  async duplicatesByRids(rids: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const [rid, matches] of await this.matchesByRids(rids)) found.set(rid, [...new Set(matches.map((match) => match.matchedRid))].sort());
    return found;
  }

  /** The possible duplicates of several registrations, by RID (one query for a page). */
  async matchesByRids(rids: readonly string[]): Promise<Map<string, VerificationRow[]>> {
    const grouped = new Map<string, VerificationRow[]>();
    for (const row of await this.store.matchesOfMany(rids)) grouped.set(row.rid, [...(grouped.get(row.rid) ?? []), row]);
    return grouped;
  }
}
