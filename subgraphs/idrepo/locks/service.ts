import { instantOr, type Clock } from '../../../lib/time.js';
import { residentIdentityOf, type Caller } from '../callers.js';
import { lockErrors } from '../errors.js';
import type { IdentityRow, IdentityService } from '../identities/service.js';
import { uinRules, vidRules, violations, type NumberRules } from '../../../lib/numbers.js';
import type { VidService } from '../vids/service.js';
import type { LockRow, LockStore } from './storage.js';

/** What can be locked: MOSIP's authentication types, biometrics as a whole or by modality. */
export const AUTH_TYPES = ['otp', 'demo', 'bio'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];
export const BIO_SUBTYPES = ['Finger', 'Iris', 'Face'] as const;
export type BioSubType = (typeof BIO_SUBTYPES)[number];
/** The kinds of individual id a lock request may name (MOSIP's `request.idtypes.allowed` narrows them). */
export const INDIVIDUAL_ID_TYPES = ['UIN', 'VID'] as const;
export type IndividualIdType = (typeof INDIVIDUAL_ID_TYPES)[number];
/** The spec's default when a request names no type. */
export const DEFAULT_ID_TYPE: IndividualIdType = 'VID';

/** The lock state of one authentication type, as the spec's `authTypes` items carry it. */
export interface AuthTypeState {
  authType: string;
  authSubType: string | null;
  isLocked: boolean;
  updatedAt: Date;
}

export interface AuthTypeChange {
  authType: string;
  authSubType?: string | null;
  isLocked: boolean;
}

export interface LockRequest {
  /** when the resident's client made the request; required on REST, optional on GraphQL */
  requestTime?: string | null;
  consentObtained: boolean;
  individualId: string;
  individualIdType?: string | null;
  authTypes: readonly AuthTypeChange[];
}

/** The stored key of a change: `otp`, `demo`, `bio`, or `bio-Finger` (subtype names as MOSIP spells them); undefined when it names nothing lockable. */
export function lockKey(authType: string, authSubType?: string | null): string | undefined {
  const type = AUTH_TYPES.find((known) => known === authType.trim().toLowerCase());
  if (!type) return undefined;
  if (authSubType === undefined || authSubType === null || authSubType === '') return type;
  const subType = BIO_SUBTYPES.find((known) => known.toLowerCase() === authSubType.trim().toLowerCase());
  return type === 'bio' && subType ? `${type}-${subType}` : undefined;
}

const stateOf = (row: LockRow): AuthTypeState => {
  const [authType = row.authType, authSubType = null] = row.authType.split('-', 2);
  return { authType, authSubType, isLocked: row.locked, updatedAt: row.updatedAt };
};

/** Roles that read any identity's lock state: the repository's operators and ID authentication, which enforces the locks. */
const READ_ANY = new Set(['ID_REPOSITORY', 'ID_AUTHENTICATION']);

/** The settings of lock requests, from the global configuration (MOSIP's ID authentication keys). */
export interface LockSettings {
  /** how old a request may be (`authrequest.received-time-allowed.seconds`, MOSIP's default 86400) */
  allowedAgeSeconds: number;
  /** how far ahead of the platform's clock a request may be (`authrequest.received-time-adjustment.seconds`) */
  allowedAheadSeconds: number;
  /** `request.idtypes.allowed`: UIN, VID or both */
  idTypes: readonly IndividualIdType[];
  uinRules: NumberRules;
  vidRules: NumberRules;
}

export function lockSettings(config: Readonly<Record<string, string>>): LockSettings {
  const seconds = (key: string, fallback: number) => {
    const value = config[key]?.trim();
    if (value === undefined || value === '') return fallback;
    if (!/^\d+$/.test(value)) throw new Error(`${key} must be a whole number of seconds`);
    return Number(value);
  };
  const listed = (config['request.idtypes.allowed'] ?? INDIVIDUAL_ID_TYPES.join(',')).split(',').map((type) => type.trim().toUpperCase());
  return {
    allowedAgeSeconds: seconds('authrequest.received-time-allowed.seconds', 86_400),
    allowedAheadSeconds: seconds('authrequest.received-time-adjustment.seconds', 120),
    idTypes: INDIVIDUAL_ID_TYPES.filter((type) => listed.includes(type)),
    uinRules: uinRules(config),
    vidRules: vidRules(config),
  };
}

/** A lock request's requestTime as an instant, checked first by an update (and by REST before it sends one): IDA-MLC-009 when it is not ISO 8601. */
export const requestTimeOf = (text: string): Date => instantOr(text, () => lockErrors.invalid('requestTime', 'an ISO 8601 date and time'));

const describeSeconds = (seconds: number) =>
  seconds % 3600 === 0 ? `${seconds / 3600} hours` : seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`;

/**
 * Authentication-type locks: a resident locks or unlocks otp, demo or bio
 * (whole or by modality) authentication of their own identity, named by UIN
 * or VID; ID authentication reads the state and refuses locked types. A
 * resident reaches only the identity their token speaks for (signed in by
 * UIN or VID, residents/service.ts); another's is answered exactly as an
 * unknown number (IDA-MLC-018), so nothing tells whether it exists.
 */
export class AuthTypeLockService {
  constructor(
    private readonly store: LockStore,
    private readonly clock: Clock,
    private readonly identities: Pick<IdentityService, 'byUin'>,
    private readonly vids: Pick<VidService, 'identityOfVid'>,
    private readonly settings: LockSettings,
  ) {}

  /** IDA-MLC-001 unless the request was made within the allowed window of the platform's clock. */
  private checkRequestTime(requestTime: string | null | undefined): void {
    if (requestTime === undefined || requestTime === null) return;
    const at = requestTimeOf(requestTime);
    const ageMs = this.clock.now().getTime() - at.getTime();
    if (ageMs > this.settings.allowedAgeSeconds * 1000 || -ageMs > this.settings.allowedAheadSeconds * 1000)
      throw lockErrors.requestTime(describeSeconds(this.settings.allowedAgeSeconds));
  }

  /** UIN or VID (the spec's default), IDA-MLC-015 for a type the country does not allow. */
  private idType(given: string | null | undefined): IndividualIdType {
    const type = (given ?? DEFAULT_ID_TYPE).trim().toUpperCase();
    const allowed = this.settings.idTypes.find((known) => known === type);
    if (!allowed) throw lockErrors.idTypeNotConfigured(type || '(empty)');
    return allowed;
  }

  /** The identity a number names: IDA-MLC-002 or 009 for a malformed number, IDA-MLC-018 for an unknown one or an inactive VID. */
  private async resolve(individualId: string, type: IndividualIdType): Promise<IdentityRow> {
    const number = individualId.trim();
    if (type === 'UIN') {
      if (violations(number, this.settings.uinRules).length) throw lockErrors.invalidUin();
      const row = await this.identities.byUin(number);
      if (!row) throw lockErrors.notFound('UIN');
      return row;
    }
    if (violations(number, this.settings.vidRules).length) throw lockErrors.invalid('individualId', 'not a valid VID');
    const row = await this.vids.identityOfVid(number, 'usable');
    if (!row) throw lockErrors.notFound('VID');
    return row;
  }

  /** The identity the caller may reach through this number: its own only, unless it reads and may read any. */
  private async target(caller: Caller, individualId: string, type: IndividualIdType, purpose: 'read' | 'write'): Promise<IdentityRow> {
    const row = await this.resolve(individualId, type);
    if (purpose === 'read' && caller.roles.some((role) => READ_ANY.has(role))) return row;
    // Another's identity is answered as an unknown number.
    if (residentIdentityOf(caller) !== row.id) throw lockErrors.notFound(type);
    return row;
  }

  /** Locks and unlocks the listed authentication types of the caller's own identity; the state after. */
  async update(caller: Caller, request: LockRequest): Promise<AuthTypeState[]> {
    this.checkRequestTime(request.requestTime);
    if (!request.consentObtained) throw lockErrors.noConsent();
    const type = this.idType(request.individualIdType);
    const changes = new Map<string, boolean>();
    request.authTypes.forEach((change, index) => {
      const key = lockKey(change.authType, change.authSubType);
      if (!key)
        throw lockErrors.invalid(`request.authTypes.${index}`, `${change.authType}${change.authSubType ? `/${change.authSubType}` : ''} cannot be locked`);
      if (changes.has(key)) throw lockErrors.invalid(`request.authTypes.${index}`, `${key} is listed twice`);
      changes.set(key, change.isLocked);
    });
    if (!changes.size) throw lockErrors.missing('request.authTypes');
    const row = await this.target(caller, request.individualId, type, 'write');
    if (row.status !== 'ACTIVATED') throw lockErrors.inactive(row.status);
    // The resident's subject is the identity itself: the row names the role.
    await this.store.save(row.id, changes, 'RESIDENT', this.clock.now());
    return this.statesOf(row.id);
  }

  /** The lock state of an identity named by UIN or VID: every type locked or unlocked so far (any other is unlocked). */
  async status(caller: Caller, individualId: string, individualIdType?: string | null): Promise<AuthTypeState[]> {
    const row = await this.target(caller, individualId, this.idType(individualIdType), 'read');
    return this.statesOf(row.id);
  }

  async statesOf(identityId: string): Promise<AuthTypeState[]> {
    return (await this.byIdentities([identityId])).get(identityId) ?? [];
  }

  /** The lock states of several identities (the portal graph's Identity.authTypeLocks), by identity id. */
  async byIdentities(identityIds: readonly string[]): Promise<Map<string, AuthTypeState[]>> {
    const rows = await this.store.ofIdentities(identityIds);
    const states = new Map<string, AuthTypeState[]>();
    for (const row of rows) {
      const list = states.get(row.identityId) ?? [];
      list.push(stateOf(row));
      states.set(row.identityId, list);
    }
    return states;
  }
}
