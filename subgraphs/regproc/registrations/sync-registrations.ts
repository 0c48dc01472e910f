import { describeIssue } from '../../../lib/graph/inputs.js';
import { PlatformError } from '../../../lib/errors.js';
import { CryptoFormatError, decodeBase64Any } from '../../../lib/crypto/envelope.js';
import type { MachinePlacement } from '../../masterdata/centres/machines.js';
import { regprocErrors, RPR } from '../errors.js';
import { REQUEST_HANDLER_TYPES, syncEnvelopeSchema, syncRecordSchema, syncTimestampOf, type SyncRecordInput } from './inputs.js';
import { ridProblem } from './rid.js';
import type { RegistrationStore, SyncedRecord } from './storage.js';

export { syncTimestampOf };

export interface SyncRequest {
  /** the Center-Machine-RefId header */
  centerMachineRefId: string;
  /** the timestamp header */
  timestamp: string;
  /** base64url of E_REG(sync envelope JSON) */
  data: string;
}

export interface SyncSuccess {
  registrationId: string;
  status: 'SUCCESS';
}

export interface SyncFailure {
  registrationId: string | null;
  status: 'FAILURE';
  errorCode: string;
  message: string;
}

export interface SyncResult {
  response: SyncSuccess[];
  errors: SyncFailure[];
}

/** What the sync needs of other components: the REGISTRATION keys and the centre/machine master data. */
export interface SyncDeps {
  store: RegistrationStore;
  decrypt: (sealed: Buffer, centreMachineRefId: string) => Promise<Buffer>;
  placement: (centreId: string, machineId: string) => Promise<MachinePlacement>;
}

const PLACEMENT_REFUSALS: Readonly<Record<Exclude<MachinePlacement, 'ACTIVE'>, string>> = {
  UNKNOWN_CENTRE: 'registration centre not found',
  INACTIVE_CENTRE: 'registration centre is not active',
  UNKNOWN_MACHINE: 'machine not found',
  INACTIVE_MACHINE: 'machine is not active',
  ELSEWHERE: 'machine is not at this registration centre',
};

/** `<centerId>_<machineId>`, split at the first underscore (centre ids are digits). */
export function splitRefId(refId: string): { centreId: string; machineId: string } {
  const at = refId.indexOf('_');
  return { centreId: refId.slice(0, at), machineId: refId.slice(at + 1) };
}

/** The sync envelope inside the data: RPR-RGS-001 when it cannot be opened, RPR-RGS-015 when it is not a sync request. */
async function openEnvelope(deps: SyncDeps, request: SyncRequest): Promise<unknown[]> {
  let plain: Buffer;
  try {
    plain = await deps.decrypt(decodeBase64Any(request.data), request.centerMachineRefId);
  } catch (error) {
    // Which key was missing or why the bytes were bad is the key manager's business; the client only learns it failed.
    if (error instanceof PlatformError || error instanceof CryptoFormatError) throw regprocErrors.decryption('the sync request cannot be decrypted');
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(plain.toString('utf8'));
  } catch {
    throw regprocErrors.decryption('the decrypted sync request is not JSON');
  }
  const parsed = syncEnvelopeSchema.safeParse(json);
  if (!parsed.success) throw regprocErrors.invalid(describeIssue(parsed.error.issues[0]!).message);
  return parsed.data.request;
}

const failure = (registrationId: string | null, errorCode: string, message: string): SyncFailure => ({ registrationId, status: 'FAILURE', errorCode, message });

/** The first ten digits of a RID made at this centre and machine (ids of 1 to 5 digits, zero-padded); none for ids no RID can carry. */
function ridPrefixOf(centreId: string, machineId: string): string | undefined {
  return /^\d{1,5}$/.test(centreId) && /^\d{1,5}$/.test(machineId) ? centreId.padStart(5, '0') + machineId.padStart(5, '0') : undefined;
}

/** One record checked: RID length, timestamp, the RID's centre and machine, parent RID, then the other fields (MOSIP's order). */
function checkRecord(item: unknown, now: Date, ridPrefix: string | undefined): { record: SyncedRecord } | { failure: SyncFailure } {
  const rid = typeof item === 'object' && item !== null ? (item as { registrationId?: unknown }).registrationId : undefined;
  if (typeof rid !== 'string') return { failure: failure(null, RPR.invalidValue, 'Invalid request value, input data incorrect: registrationId is required') };
  const problem = ridProblem(rid, now);
  if (problem) return { failure: failure(rid, problem.errorCode, problem.message) };
  // A RID names the centre and machine that made it: a client syncs its own, never another centre's (which it would block).
  if (!ridPrefix || !rid.startsWith(ridPrefix))
    return {
      failure: failure(
        rid,
        RPR.invalidValue,
        'Invalid request value, input data incorrect: the registration id was not made at the centre and machine of Center-Machine-RefId',
      ),
    };
  const values = (item as { optionalValues?: unknown }).optionalValues;
  const optionalParent = Array.isArray(values)
    ? (values as { key?: unknown; value?: unknown }[]).find((entry) => entry?.key === 'parentRegistrationId')?.value
    : undefined;
  const parent = (item as { parentRegistrationId?: unknown }).parentRegistrationId ?? optionalParent;
  if (parent !== undefined && parent !== null && parent !== '') {
    const bad =
      typeof parent === 'string' ? ridProblem(parent, now, true) : { errorCode: RPR.parentRidLength, message: 'Parent registration id must be a string' };
    if (bad) return { failure: failure(rid, bad.errorCode, bad.message) };
  }
  const parsed = syncRecordSchema.safeParse(item);
  if (!parsed.success)
    return { failure: failure(rid, RPR.invalidValue, `Invalid request value, input data incorrect: ${describeIssue(parsed.error.issues[0]!).message}`) };
  if (REQUEST_HANDLER_TYPES.has(parsed.data.registrationType))
    return {
      failure: failure(
        rid,
        RPR.invalidValue,
        `Invalid request value, input data incorrect: registrationType ${parsed.data.registrationType} is made by the platform's request handler, never synced`,
      ),
    };
  return { record: recordOf(parsed.data, typeof parent === 'string' && parent ? parent : null) };
}

const recordOf = (input: SyncRecordInput, parentRid: string | null): SyncedRecord => ({
  rid: input.registrationId,
  registrationType: input.registrationType,
  // ABIS.md (e): the hash is uppercase hex; the receiver compares it with what it computes.
  packetHashValue: input.packetHashValue.toUpperCase(),
  packetSize: input.packetSize,
  supervisorStatus: input.supervisorStatus,
  supervisorComment: input.supervisorComment ?? null,
  langCode: input.langCode,
  optionalValues: input.optionalValues?.map((entry) => ({ key: entry.key, value: entry.value ?? null })) ?? null,
  parentRid,
});

/**
 * A registration client's sync: the RIDs its packets will carry, each
 * with the packet's hash and size, encrypted for the REGISTRATION keys. The
 * caller's scope (its centre) is checked before this runs. Each record
 * succeeds or fails alone; the good ones are saved together. A RID already
 * synced from the same centre and machine gets the new values until its
 * packet arrives; after that the sync leaves it as it is and answers
 * SUCCESS (a client's retry). A RID whose first ten digits are not the
 * header's centre and machine is refused (RPR-RGS-015), as are the request
 * handler's registration types: nobody syncs, blocks or learns of another
 * centre's registrations.
 */
export async function syncRegistrations(deps: SyncDeps, request: SyncRequest, syncedBy: string, now: Date): Promise<SyncResult> {
  const { centreId, machineId } = splitRefId(request.centerMachineRefId);
  syncTimestampOf(request.timestamp);
  const placement = await deps.placement(centreId, machineId);
  if (placement !== 'ACTIVE') throw regprocErrors.invalid(`${PLACEMENT_REFUSALS[placement]} (${request.centerMachineRefId})`);
  const items = await openEnvelope(deps, request);

  const result: SyncResult = { response: [], errors: [] };
  // Later records of the same RID in one request replace earlier ones, as a second sync would.
  const good = new Map<string, SyncedRecord>();
  const ridPrefix = ridPrefixOf(centreId, machineId);
  for (const item of items) {
    const checked = checkRecord(item, now, ridPrefix);
    if ('failure' in checked) result.errors.push(checked.failure);
    else good.set(checked.record.rid, checked.record);
  }
  const existing = new Map((await deps.store.byRids([...good.keys()])).map((row) => [row.rid, row]));
  const create: SyncedRecord[] = [];
  const replace: SyncedRecord[] = [];
  for (const record of good.values()) {
    const row = existing.get(record.rid);
    if (row && (row.centreId !== centreId || row.machineId !== machineId)) {
      result.errors.push(
        failure(record.rid, RPR.invalidValue, 'Invalid request value, input data incorrect: the registration id was synced by another centre or machine'),
      );
      continue;
    }
    (row ? replace : create).push(record);
    result.response.push({ registrationId: record.rid, status: 'SUCCESS' });
  }
  if (create.length || replace.length) await deps.store.saveSynced({ centreId, machineId, syncedBy, now }, create, replace);
  return result;
}
