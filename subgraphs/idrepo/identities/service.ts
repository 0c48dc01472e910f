import { randomUUID } from 'node:crypto';
import { within } from '../../../lib/graph/capped.js';
import type { NestedList } from '../../../lib/graph/nested.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import type { IdentityChecks } from './check-identity.js';
import { contextOf, openIdentity, sealedIdentity, sealedUin, type IdentityFiles } from './records.js';
import type { IdentityReadAudit, IdentityRow, IdentityStorage, ReadFilter, StoredLookup } from './storage.js';
import type { Caller, IdentityInput, IdentityRecord, ReadType, StoredIdentity } from './types.js';
import { updateIdentity, type UpdateParts } from './update-identity.js';

export type { IdentityRow };
// The graph's mapper names the record here (graph-mappers.ts).
export type { IdentityRecord };

type Lookup = { uin: string } | { rid: string };

/**
 * Identities: created by the registration processor, read by ID
 * authentication, updated by later registrations (update-identity.ts). The
 * identity is checked against the published ID schema; every part is
 * encrypted (cipher.ts) and files go to the object store first, rows after,
 * so a failure on either side leaves nothing behind. Every read is audited.
 */
/** The most registrations an identity lists: each is a change a registration centre made, a few in a lifetime. */
export const MAX_REGISTRATIONS_LISTED = 1000;

export class IdentityService {
  private readonly updates: UpdateParts;

  constructor(
    private readonly store: IdentityStorage,
    private readonly clock: Clock,
    private readonly cipher: IdrepoCipher,
    private readonly files: IdentityFiles,
    private readonly checks: IdentityChecks,
  ) {
    this.updates = { store, clock, cipher, files, checks, find: (uin) => this.find({ uin }) };
  }

  async create(caller: Caller, input: IdentityInput): Promise<StoredIdentity> {
    const uin = this.checks.uinOf(input.identity);
    const { files, schemaVersion } = await this.checks.check(input.identity, input.documents ?? []);
    const uinHash = this.cipher.lookup(uin);
    await this.refuseTaken(uinHash, input.registrationId);
    const id = randomUUID();
    const written = await this.files.write(id, files);
    const removeWritten = () => this.files.remove(written.map((file) => file.row.objectKey));
    let row: IdentityRow | null;
    try {
      row = await this.store.create(
        {
          id,
          ...sealedUin(this.cipher, id, uin),
          registrationId: input.registrationId,
          biometricReferenceId: input.biometricReferenceId ?? null,
          status: 'ACTIVATED',
          ...sealedIdentity(this.cipher, id, input.identity),
          schemaVersion,
          createdBy: caller.subject,
          createdAt: this.clock.now(),
        },
        written.map((file) => file.row),
      );
    } catch (error) {
      await removeWritten();
      throw error instanceof PlatformError ? error : idrepoErrors.database();
    }
    if (row) return { status: row.status, uin, identity: row };
    // A racing create stored the UIN or RID first.
    await removeWritten();
    await this.refuseTaken(uinHash, input.registrationId);
    throw idrepoErrors.database();
  }

  /** IDR-IDC-012 for a UIN or RID already stored. */
  private async refuseTaken(uinHash: string, registrationId: string): Promise<void> {
    if (await this.store.uinTaken(uinHash)) throw idrepoErrors.exists('UIN');
    if (await this.store.ridTaken(registrationId)) throw idrepoErrors.exists('RID');
  }

  private stored(lookup: Lookup): StoredLookup {
    return 'uin' in lookup ? { uinHash: this.cipher.lookup(lookup.uin) } : lookup;
  }

  /** An identity by UIN or by any RID that created or updated it: IDR-IDC-007 when there is none. */
  async find(lookup: Lookup): Promise<IdentityRow> {
    const row = await this.store.byLookup(this.stored(lookup));
    if (!row) throw notFound(lookup);
    return row;
  }

  /** The identity a UIN names, or null: for the other areas, which answer an unknown UIN their own way. */
  byUin(uin: string): Promise<IdentityRow | null> {
    return this.store.byLookup({ uinHash: this.cipher.lookup(uin) });
  }

  /** The identity a registration (RID) created or updated, or null: the registration processor's check that its stage already ran. */
  byRegistration(rid: string): Promise<IdentityRow | null> {
    return this.store.byLookup({ rid });
  }

  /** The identities of several registrations, by RID: the registration processor's Registration.identity. */
  byRegistrations(rids: readonly string[]): Promise<Map<string, IdentityRow>> {
    return this.store.byRegistrations(rids);
  }

  /** The registrations that created and updated each identity, oldest first (one query for a page of identities). */
  registrationsOf(identityIds: readonly string[]): Promise<Map<string, string[]>> {
    return this.store.registrationsOf(identityIds);
  }

  /** One identity's registrations as its list answers them: MAX_REGISTRATIONS_LISTED at most, refused beyond (never cut short). */
  listedRegistrations(rids: string[]): string[] {
    return within(MAX_REGISTRATIONS_LISTED, rids, () => idrepoErrors.listTooLong('registrations of the identity', MAX_REGISTRATIONS_LISTED));
  }

  /** The UIN of an identity, in clear. */
  async uinOfRow(row: IdentityRow): Promise<string> {
    return (await this.cipher.decrypt(row.uinEncrypted, contextOf.uin(row.id))).toString('utf8');
  }

  /** The identity in clear, checked against its HMAC. */
  identityOf(row: IdentityRow): Promise<Record<string, unknown>> {
    return openIdentity(this.cipher, row);
  }

  /** A read by UIN or RID with the documents `type` asks for; audited with who read which parts. */
  async read(caller: Caller, lookup: Lookup, type?: ReadType | null): Promise<IdentityRecord> {
    const kinds = type === 'all' ? ['BIO', 'DEMO'] : type === 'bio' ? ['BIO'] : type === 'demo' ? ['DEMO'] : [];
    const parts = ['identity', ...kinds.map((kind) => (kind === 'BIO' ? 'biometrics' : 'documents'))];
    const row = await this.store.findAudited(this.stored(lookup), this.readRecord(caller, parts, 'uin' in lookup ? 'UIN' : 'RID'));
    if (!row) throw notFound(lookup);
    const [identity, fileRows] = await Promise.all([this.identityOf(row), this.store.files(row.id, kinds)]);
    return { id: row.id, status: row.status, identity, documents: await this.files.read(fileRows) };
  }

  async audit(caller: Caller, identityId: string, parts: string[], lookup: string): Promise<void> {
    await this.store.audit(identityId, this.readRecord(caller, parts, lookup));
  }

  private readRecord(caller: Caller, parts: string[], lookup: string) {
    return { readBy: caller.subject, roles: caller.roles, parts, lookup, readAt: this.clock.now() };
  }

  /** A later registration's changes (update-identity.ts). */
  update(caller: Caller, input: IdentityInput): Promise<StoredIdentity> {
    return updateIdentity(this.updates, caller, input);
  }

  // --- the portal graph

  /**
   * An identity by UIN, RID or VID, for admins: the row only (status, times),
   * the look-up in the identity's trail (part `record`, by UIN, RID or VID);
   * reading its attributes is audited apart. `byVid` is the VID service's
   * look-up (any status). Null, and nothing recorded, when none matches.
   */
  async lookup(
    caller: Caller,
    by: { uin?: string | null; rid?: string | null; vid?: string | null },
    byVid: (vid: string) => Promise<IdentityRow | null>,
  ): Promise<IdentityRow | null> {
    let row: IdentityRow | null;
    try {
      row = by.vid ? await byVid(by.vid) : await this.find(by.uin ? { uin: by.uin } : { rid: by.rid! });
    } catch (error) {
      if (error instanceof PlatformError && error.code === 'IDR-IDC-007') return null;
      throw error;
    }
    if (row) await this.audit(caller, row.id, ['record'], by.vid ? 'VID' : by.uin ? 'UIN' : 'RID');
    return row;
  }

  async byIds(ids: readonly string[]): Promise<Map<string, IdentityRow>> {
    const rows = await this.store.byIds(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The attributes without the files' content, for the repository's operators; audited. */
  async demographics(caller: Caller, row: IdentityRow): Promise<Record<string, unknown>> {
    const identity = await this.identityOf(row);
    await this.audit(caller, row.id, ['identity'], 'PORTAL');
    return identity;
  }

  /** The read trail of each identity of a page, filtered and ordered (newest first by default), batched over the identities. */
  readsOfIdentities(filter: ReadFilter = {}, direction: 'ASC' | 'DESC' = 'DESC'): NestedList<IdentityReadAudit> {
    return this.store.readsOf(filter, direction === 'ASC' ? 'asc' : 'desc');
  }
}

const notFound = (lookup: Lookup) => idrepoErrors.noRecord('uin' in lookup ? 'no identity has this UIN' : 'no identity has this RID');
