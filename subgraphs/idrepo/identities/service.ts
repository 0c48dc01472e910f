import { randomUUID } from 'node:crypto';
import { Prisma, type Identity as IdentityRow, type IdentityFile, type IdentityReadAudit, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { underLock } from '../../../lib/db/lock.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { Principal } from '../../../lib/tokens.js';
import { fieldsOf, type IdSchemaService } from '../../masterdata/idschema/service.js';
import type { IdrepoCipher } from '../cipher.js';
import { idrepoErrors } from '../errors.js';
import { violations, type NumberRules } from '../numbers.js';
import { contextOf, sealedIdentity, sealedUin, type IdentityFiles, type PlainFile } from './records.js';

export type { IdentityRow };

export const IDENTITY_STATUSES = ['ACTIVATED', 'BLOCKED', 'DEACTIVATED'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];
/** What a read returns besides the identity: biometrics, demographic documents, both, or neither. */
export const READ_TYPES = ['bio', 'demo', 'all'] as const;
export type ReadType = (typeof READ_TYPES)[number];

export interface IdentityInput {
  registrationId: string;
  biometricReferenceId?: string | null;
  identity: Record<string, unknown>;
  documents?: readonly { category: string; value: string }[] | null;
  status?: IdentityStatus | null;
}

export interface IdentityRecord {
  id: string;
  status: string;
  identity: Record<string, unknown>;
  documents: { category: string; value: string }[];
}

type Caller = Pick<Principal, 'subject' | 'roles'>;
type Lookup = { uin: string } | { rid: string };

/** How often an update is worked out again when other updates of the identity keep winning the race. */
const UPDATE_ATTEMPTS = 5;

/** Status changes MOSIP allows through an update: a deactivated identity stays so. */
const NEXT_STATUSES: Record<IdentityStatus, readonly IdentityStatus[]> = {
  ACTIVATED: ['ACTIVATED', 'BLOCKED', 'DEACTIVATED'],
  BLOCKED: ['ACTIVATED', 'BLOCKED', 'DEACTIVATED'],
  DEACTIVATED: [],
};

/**
 * Identities: created by the registration processor, read by ID
 * authentication, updated by later registrations. The identity is checked
 * against the published ID schema; every part is encrypted (cipher.ts) and
 * files go to the object store first, rows after, so a failure on either side
 * leaves nothing behind. Every read is audited.
 */
export class IdentityService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly cipher: IdrepoCipher,
    private readonly files: IdentityFiles,
    private readonly idSchemas: Pick<IdSchemaService, 'validateIdentity'>,
    private readonly uinRules: NumberRules,
  ) {}

  private uinOf(identity: Record<string, unknown>): string {
    const uin = identity.UIN;
    if (uin === undefined || uin === null || uin === '') throw idrepoErrors.missing('identity.UIN');
    if (typeof uin !== 'string' && typeof uin !== 'number') throw idrepoErrors.invalid('identity.UIN', 'a number of digits');
    const text = String(uin);
    const problems = violations(text, this.uinRules);
    if (problems.length) throw idrepoErrors.invalid('identity.UIN', problems[0]);
    return text;
  }

  /**
   * The identity against the published ID schema (IDR-IDS-005), its files
   * against its fields (IDR-IDC-005): each document names a document or
   * biometric field the identity holds, biometrics for biometric fields.
   */
  private async check(
    identity: Record<string, unknown>,
    documents: readonly { category: string; value: string }[],
  ): Promise<{ files: PlainFile[]; schemaVersion: number }> {
    let checked;
    try {
      checked = await this.idSchemas.validateIdentity(identity);
    } catch (error) {
      // No published schema, or master data out of reach: the identity cannot be checked.
      throw idrepoErrors.masterData(error instanceof PlatformError ? `no published ID schema (${error.code})` : 'the ID schema could not be read');
    }
    const problem = checked.problems[0];
    if (problem) throw idrepoErrors.schema(problem.message);
    const fields = new Map(fieldsOf(checked.schema).map((field) => [field.id, field]));
    const seen = new Set<string>();
    const files = documents.map(({ category, value }): PlainFile => {
      const field = fields.get(category);
      if (!field || (field.type !== 'documentType' && field.type !== 'biometricsType'))
        throw idrepoErrors.validationFailed(`${category} is not a document or biometric field of the ID schema`);
      if (identity[category] === undefined || identity[category] === null)
        throw idrepoErrors.validationFailed(`documents name ${category}, which the identity does not hold`);
      if (seen.has(category)) throw idrepoErrors.validationFailed(`two documents of category ${category}`);
      seen.add(category);
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value) || !value) throw idrepoErrors.invalid(`documents.${category}.value`, 'not base64');
      return {
        category,
        kind: field.type === 'biometricsType' ? 'BIO' : 'DEMO',
        data: Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64'),
      };
    });
    return { files, schemaVersion: checked.schema.idVersion };
  }

  async create(caller: Caller, input: IdentityInput): Promise<{ status: string; uin: string; identity: IdentityRow }> {
    const uin = this.uinOf(input.identity);
    const { files, schemaVersion } = await this.check(input.identity, input.documents ?? []);
    const uinHash = this.cipher.lookup(uin);
    await this.refuseTaken(uinHash, input.registrationId);
    const id = randomUUID();
    const written = await this.files.write(id, files);
    const now = this.clock.now();
    try {
      const row = await this.prisma.$transaction(async (tx) => {
        const created = await tx.identity.create({
          data: {
            id,
            ...sealedUin(this.cipher, id, uin),
            registrationId: input.registrationId,
            biometricReferenceId: input.biometricReferenceId ?? null,
            status: 'ACTIVATED',
            ...sealedIdentity(this.cipher, id, input.identity),
            schemaVersion,
            createdBy: caller.subject,
            createdAt: now,
          },
        });
        await tx.identityRegistration.create({ data: { registrationId: input.registrationId, identityId: id, createdAt: now } });
        if (written.length) await tx.identityFile.createMany({ data: written.map((file) => ({ ...file.row, createdAt: now })) });
        // A UIN the processor drew from the pool leaves it.
        await tx.uinPool.deleteMany({ where: { uinHash } });
        return created;
      });
      return { status: row.status, uin, identity: row };
    } catch (error) {
      await this.files.remove(written.map((file) => file.row.objectKey));
      if (isUniqueViolation(error)) await this.refuseTaken(uinHash, input.registrationId);
      throw error instanceof PlatformError ? error : idrepoErrors.database();
    }
  }

  /** IDR-IDC-012 for a UIN or RID already stored. */
  private async refuseTaken(uinHash: string, registrationId: string): Promise<void> {
    if (await this.prisma.identity.findUnique({ where: { uinHash }, select: { id: true } })) throw idrepoErrors.exists('UIN');
    if (await this.prisma.identityRegistration.findUnique({ where: { registrationId }, select: { registrationId: true } })) throw idrepoErrors.exists('RID');
  }

  /** An identity by UIN or by any RID that created or updated it: IDR-IDC-007 when there is none. */
  async find(lookup: Lookup): Promise<IdentityRow> {
    const row =
      'uin' in lookup
        ? await this.prisma.identity.findUnique({ where: { uinHash: this.cipher.lookup(lookup.uin) } })
        : (await this.prisma.identityRegistration.findUnique({ where: { registrationId: lookup.rid }, include: { identity: true } }))?.identity;
    if (!row) throw idrepoErrors.noRecord('uin' in lookup ? 'no identity has this UIN' : 'no identity has this RID');
    return row;
  }

  /** The UIN of an identity, in clear. */
  async uinOfRow(row: IdentityRow): Promise<string> {
    return (await this.cipher.decrypt(row.uinEncrypted, contextOf.uin(row.id))).toString('utf8');
  }

  /** The identity in clear, checked against its HMAC. */
  async identityOf(row: IdentityRow): Promise<Record<string, unknown>> {
    const plain = await this.cipher.open(row.identityData, row.identityHash, contextOf.identity(row.id));
    return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  }

  /** A read by UIN or RID with the documents `type` asks for; audited with who read which parts. */
  async read(caller: Caller, lookup: Lookup, type?: ReadType | null): Promise<IdentityRecord> {
    const kinds = type === 'all' ? ['BIO', 'DEMO'] : type === 'bio' ? ['BIO'] : type === 'demo' ? ['DEMO'] : [];
    const row = await this.findAudited(caller, lookup, ['identity', ...kinds.map((kind) => (kind === 'BIO' ? 'biometrics' : 'documents'))]);
    const [identity, fileRows] = await Promise.all([
      this.identityOf(row),
      kinds.length ? this.prisma.identityFile.findMany({ where: { identityId: row.id, kind: { in: kinds } }, orderBy: { category: 'asc' } }) : [],
    ]);
    return { id: row.id, status: row.status, identity, documents: await this.files.read(fileRows) };
  }

  /**
   * The identity and the record of this read, in one statement (one round
   * trip on every read ID authentication makes): the attempt is recorded
   * even when what is stored then fails its checks.
   */
  private async findAudited(caller: Caller, lookup: Lookup, parts: string[]): Promise<IdentityRow> {
    const found =
      'uin' in lookup
        ? Prisma.sql`SELECT * FROM idrepo_identity WHERE "uinHash" = ${this.cipher.lookup(lookup.uin)}`
        : Prisma.sql`SELECT i.* FROM idrepo_identity i JOIN idrepo_identity_registration r ON r."identityId" = i.id WHERE r."registrationId" = ${lookup.rid}`;
    const [row] = await this.prisma.$queryRaw<IdentityRow[]>`
      WITH found AS (${found}),
           audit AS (INSERT INTO idrepo_read_audit (id, "identityId", "readBy", roles, parts, lookup, "readAt")
                     SELECT ${randomUUID()}, id, ${caller.subject}, ${caller.roles}::text[], ${parts}::text[], ${'uin' in lookup ? 'UIN' : 'RID'}, ${this.clock.now()}::timestamp(3) FROM found)
      SELECT * FROM found`;
    if (!row) throw idrepoErrors.noRecord('uin' in lookup ? 'no identity has this UIN' : 'no identity has this RID');
    return row;
  }

  async audit(caller: Caller, identityId: string, parts: string[], lookup: string): Promise<void> {
    await this.prisma.identityReadAudit.create({
      data: { id: randomUUID(), identityId, readBy: caller.subject, roles: caller.roles, parts, lookup, readAt: this.clock.now() },
    });
  }

  /**
   * A later registration's changes: attributes merged into the stored
   * identity, documents and biometrics replaced by category, the status moved
   * as NEXT_STATUSES allows. The write applies only to the identity as it
   * was read: an update that raced another is worked out again on the
   * other's result, so neither is lost and no rule is checked on stale state.
   */
  async update(caller: Caller, input: IdentityInput): Promise<{ status: string; uin: string; identity: IdentityRow }> {
    const uin = this.uinOf(input.identity);
    for (let attempt = 1; ; attempt++) {
      const written = await this.tryUpdate(caller, input, await this.find({ uin }));
      if (written) return { status: written.status, uin, identity: written };
      if (attempt === UPDATE_ATTEMPTS) throw idrepoErrors.database();
    }
  }

  /** One update of the identity as read; null when another update changed it first. */
  private async tryUpdate(caller: Caller, input: IdentityInput, current: IdentityRow): Promise<IdentityRow | null> {
    if (await this.prisma.identityRegistration.findUnique({ where: { registrationId: input.registrationId } })) throw idrepoErrors.exists('RID');
    if (current.status === 'DEACTIVATED') throw idrepoErrors.invalidRequest('the identity is DEACTIVATED: it changes no more');
    const status = (input.status ?? current.status) as IdentityStatus;
    if (!NEXT_STATUSES[current.status as IdentityStatus].includes(status))
      throw idrepoErrors.invalidRequest(`an identity ${current.status} cannot become ${status}`);
    const stored = await this.identityOf(current);
    const merged = { ...stored, ...input.identity, UIN: stored.UIN };
    // The stored files stay valid for the merged identity (it keeps every field they belong to, but those it empties): only the new ones are checked.
    const { files, schemaVersion } = await this.check(merged, input.documents ?? []);
    const written = await this.files.write(current.id, files);
    // Replaced files go, and so does the file of a document or biometric field the update empties (null).
    const leaving = [...files.map((file) => file.category), ...Object.keys(input.identity).filter((field) => input.identity[field] === null)];
    const now = this.clock.now();
    let stale: IdentityFile[] = [];
    try {
      // Under the identity's lock, which the VID service takes too: a VID is never issued beside a status change.
      const row = await underLock(this.prisma, `idrepo_identity:${current.id}`, async (tx) => {
        const changed = await tx.identity.updateMany({
          where: { id: current.id, identityData: current.identityData, status: current.status },
          data: {
            status,
            registrationId: input.registrationId,
            biometricReferenceId: input.biometricReferenceId ?? current.biometricReferenceId,
            ...sealedIdentity(this.cipher, current.id, merged),
            schemaVersion,
            updatedBy: caller.subject,
            updatedAt: now,
          },
        });
        if (changed.count !== 1) return null;
        stale = await tx.identityFile.findMany({ where: { identityId: current.id, category: { in: leaving } } });
        await tx.identityFile.deleteMany({ where: { id: { in: stale.map((file) => file.id) } } });
        if (written.length) await tx.identityFile.createMany({ data: written.map((file) => ({ ...file.row, createdAt: now })) });
        await tx.identityRegistration.create({ data: { registrationId: input.registrationId, identityId: current.id, createdAt: now } });
        return tx.identity.findUniqueOrThrow({ where: { id: current.id } });
      });
      await this.files.remove((row ? stale : written.map((file) => file.row)).map((file) => file.objectKey));
      return row;
    } catch (error) {
      await this.files.remove(written.map((file) => file.row.objectKey));
      if (isUniqueViolation(error)) throw idrepoErrors.exists('RID');
      throw error instanceof PlatformError ? error : idrepoErrors.database();
    }
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
    const rows = await this.prisma.identity.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The attributes without the files' content, for the repository's operators; audited. */
  async demographics(caller: Caller, row: IdentityRow): Promise<Record<string, unknown>> {
    const identity = await this.identityOf(row);
    await this.audit(caller, row.id, ['identity'], 'PORTAL');
    return identity;
  }

  reads(identityId: string, page: PageArgs): Promise<Connection<IdentityReadAudit>> {
    const where = { identityId };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.identityReadAudit.findMany({ where, ...pageArgs(query, 'id'), orderBy: [{ readAt: 'desc' }, { id: 'desc' }] }),
      () => this.prisma.identityReadAudit.count({ where }),
    );
  }
}
