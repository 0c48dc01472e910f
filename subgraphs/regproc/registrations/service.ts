import { capped } from '../../../lib/graph/capped.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { regprocErrors, RPR } from '../errors.js';
import type { RegistrationStatus } from './inputs.js';
import type { RegistrationQuery, RegistrationRow, RegistrationStore, TransactionRow } from './storage.js';
import { splitRefId, syncRegistrations, type SyncDeps, type SyncRequest, type SyncResult } from './sync-registrations.js';

/** The most transactions GET registrationtransaction/search answers for one RID (a registration's stages, retries included, write far fewer). */
export const MAX_TRANSACTIONS_LISTED = 1000;

/** Who asks: its id (as centre mappings name it) and roles. */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** Roles that reach every centre's registrations: the platform's admin and the processor's own operators. */
const ANY_CENTRE = ['GLOBAL_ADMIN', 'REGISTRATION_PROCESSOR'];

export interface StatusItem {
  registrationId: string;
  statusCode: RegistrationStatus;
}

export interface StatusError {
  registrationId: string;
  errorCode: string;
  errorMessage: string;
}

/**
 * The registrations the processor knows: synced by registration clients
 * (sync-registrations.ts), read by their status and transactions. A
 * registration officer or supervisor acts for the centre they are mapped to
 * (master data's centre users): they sync for it only, and another centre's
 * RIDs read as unknown; GLOBAL_ADMIN and REGISTRATION_PROCESSOR reach all.
 */
export class RegistrationService {
  constructor(
    private readonly store: RegistrationStore,
    private readonly clock: Clock,
    private readonly sync: Omit<SyncDeps, 'store'>,
    /** the centres a caller works at (master data's reach) */
    private readonly centresOf: (caller: Caller) => Promise<ReadonlySet<string>>,
  ) {}

  /** The centres the caller reaches; undefined: every centre. */
  private async scope(caller: Caller): Promise<ReadonlySet<string> | undefined> {
    return caller.roles.some((role) => ANY_CENTRE.includes(role)) ? undefined : this.centresOf(caller);
  }

  /** Whether the caller may act for a centre's registrations (upload its packets). */
  async reaches(caller: Caller, centreId: string): Promise<boolean> {
    const scope = await this.scope(caller);
    return !scope || scope.has(centreId);
  }

  private async visible(caller: Caller, rids: readonly string[]): Promise<Map<string, RegistrationRow>> {
    const scope = await this.scope(caller);
    const rows = await this.store.byRids(rids);
    return new Map(rows.filter((row) => !scope || scope.has(row.centreId)).map((row) => [row.rid, row]));
  }

  /** POST registrationstatus/sync: refused before decryption when the caller may not sync for that centre. */
  async syncRegistrations(caller: Caller, request: SyncRequest): Promise<SyncResult> {
    const scope = await this.scope(caller);
    const { centreId } = splitRefId(request.centerMachineRefId);
    if (scope && !scope.has(centreId)) throw regprocErrors.notYourCentre(centreId);
    return syncRegistrations({ store: this.store, ...this.sync }, request, caller.subject, this.clock.now());
  }

  /**
   * POST registrationstatus/search: each RID's status; a synced RID without
   * its packet is UPLOAD_PENDING (MOSIP's external status for it). Unknown
   * RIDs, and those of a centre the caller does not reach, are RPR-RGS-031.
   */
  async statuses(caller: Caller, rids: readonly string[]): Promise<{ response: StatusItem[]; errors: StatusError[] }> {
    const found = await this.visible(caller, rids);
    const response: StatusItem[] = [];
    const errors: StatusError[] = [];
    for (const rid of new Set(rids)) {
      const row = found.get(rid);
      if (row) response.push({ registrationId: rid, statusCode: row.status as RegistrationStatus });
      else errors.push({ registrationId: rid, errorCode: RPR.ridNotFound, errorMessage: 'RID Not Found' });
    }
    return { response, errors };
  }

  /**
   * GET registrationtransaction/search/{langcode}/{rid}: oldest first. The
   * comments are stored in the language of the stage that wrote them; the
   * language only has to be well formed. RPR-RTS-001 when there is none
   * (a synced RID has none until its packet arrives) or the RID is out of reach.
   * At most MAX_TRANSACTIONS_LISTED, refused beyond (never cut short).
   */
  async transactions(caller: Caller, rid: string): Promise<TransactionRow[]> {
    if (!(await this.visible(caller, [rid])).has(rid)) throw regprocErrors.noTransaction(rid);
    const rows = await capped(
      MAX_TRANSACTIONS_LISTED,
      (take) => this.store.transactionsOf([rid], take),
      () => regprocErrors.listTooLong('transactions of the registration', MAX_TRANSACTIONS_LISTED, 'registration.transactions'),
    );
    if (!rows.length) throw regprocErrors.noTransaction(rid);
    return rows;
  }

  async registration(caller: Caller, rid: string): Promise<RegistrationRow | null> {
    return (await this.visible(caller, [rid])).get(rid) ?? null;
  }

  /** The portal's list (the role table lets only GLOBAL_ADMIN and REGISTRATION_PROCESSOR call it). */
  list(query: RegistrationQuery, page: PageArgs): Promise<Connection<RegistrationRow>> {
    return this.store.list(query, page);
  }

  /** Registrations by their biometric references (an ABIS's candidates), by reference in lower case. */
  async byBioRefIds(referenceIds: readonly string[]): Promise<Map<string, RegistrationRow>> {
    return new Map((await this.store.byBioRefIds(referenceIds)).map((row) => [row.bioRefId!.toLowerCase(), row]));
  }

  /** Registrations by RID, for the gateway's entity references (one query for many). */
  async byRids(rids: readonly string[]): Promise<Map<string, RegistrationRow>> {
    return new Map((await this.store.byRids(rids)).map((row) => [row.rid, row]));
  }

  /** The transactions of each registration of a page (`registrations { transactions }`), batched over the page. */
  transactionsOfRegistrations(): NestedList<TransactionRow> {
    return this.store.transactionsOfRegistrations();
  }
}
