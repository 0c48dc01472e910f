import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import { created, deleted, updated } from '../audit.js';
import { paged, type Paged, type PagedArgs } from '../paged.js';
import { idSchemaErrors } from './errors.js';
import { identityProblems, jsonSchemaOf, schemaFields, unsafeValidator, type IdentityProblem, type SchemaField } from './fields.js';
import { effectiveFromOf } from './inputs.js';
import type { DraftValues, IdSchemaRow, IdSchemaStore } from './storage.js';

export type { IdSchemaRow };
export { effectiveFromOf };

export interface IdSchemaInput {
  title: string;
  description: string;
  effectiveFrom: string;
  schemaVersion: number;
  schema: unknown;
}

/** What the paged list sorts by: MOSIP's DTO names and the row's own. */
const SORTABLE: Record<string, string> = {
  createdDateTime: 'createdAt',
  createdOn: 'createdAt',
  updatedDateTime: 'updatedAt',
  updatedOn: 'updatedAt',
  effectiveFrom: 'effectiveFrom',
  idVersion: 'idVersion',
  schemaVersion: 'schemaVersion',
  title: 'title',
  status: 'status',
  id: 'id',
};

/** The fields of a stored row (checked when written). */
export const fieldsOf = (row: IdSchemaRow): SchemaField[] => row.schema as SchemaField[];

/**
 * The ID schema, as MOSIP keeps it: drafts are written and rewritten, then
 * published once, which gives them the next idVersion. The published schema
 * is what identities are validated against (validateIdentity, for the ID
 * repository and pre-registration).
 */
export class IdSchemaService {
  constructor(
    private readonly store: IdSchemaStore,
    private readonly clock: Clock,
  ) {}

  private parse(input: IdSchemaInput, error: (why: string) => Error): DraftValues {
    const effectiveFrom = effectiveFromOf(input.effectiveFrom, error);
    const fields = schemaFields.safeParse(input.schema);
    if (!fields.success) {
      const issue = fields.error.issues[0]!;
      throw error(`schema.${issue.path.join('.')}: ${issue.message}`);
    }
    return {
      title: input.title.trim(),
      description: input.description.trim(),
      schemaVersion: input.schemaVersion,
      effectiveFrom,
      schema: fields.data,
      schemaJson: jsonSchemaOf(input.title.trim(), input.description.trim(), fields.data),
    };
  }

  async create(by: string, input: IdSchemaInput): Promise<IdSchemaRow> {
    const data = this.parse(input, idSchemaErrors.insert);
    return this.store.insertDraft({ ...data, ...created(by, this.clock.now()) });
  }

  /** Only a draft changes; the check and the write are one statement, so a publish racing an update wins or loses whole. */
  async update(by: string, id: string, input: IdSchemaInput): Promise<IdSchemaRow> {
    const data = this.parse(input, idSchemaErrors.update);
    const count = await this.store.rewriteDraft(id, { ...data, ...updated(by, this.clock.now()) });
    if (count === 0) throw await this.whyNotDraft(id, idSchemaErrors.update);
    return this.store.rowOf(id);
  }

  async delete(by: string, id: string): Promise<string> {
    // An ID schema has no isActive: its status says whether it is in force.
    const { isActive: _inactive, ...softDelete } = deleted(by, this.clock.now());
    const count = await this.store.removeDraft(id, softDelete);
    if (count === 0) throw await this.whyNotDraft(id, idSchemaErrors.update);
    return id;
  }

  private async whyNotDraft(id: string, error: (why: string) => Error): Promise<Error> {
    const row = await this.store.liveRow(id);
    return row ? error(`schema ${id} is ${row.status}: only a draft can change`) : idSchemaErrors.notFound();
  }

  /**
   * Publishes a draft: idVersion becomes one more than the latest published.
   * Serializable, so two publishes never take the same version.
   */
  async publish(by: string, id: string, effectiveFrom: string): Promise<IdSchemaRow> {
    const from = effectiveFromOf(effectiveFrom, idSchemaErrors.update);
    const now = this.clock.now();
    return this.store.publish(id, {
      check(row): asserts row is IdSchemaRow {
        if (!row) throw idSchemaErrors.notFound();
        if (row.status !== 'DRAFT') throw idSchemaErrors.update(`schema ${id} is already ${row.status}`);
        // A draft written before validators were checked for catastrophic backtracking is checked again here.
        const unsafe = unsafeValidator(fieldsOf(row));
        if (unsafe) throw idSchemaErrors.update(unsafe);
      },
      published: (latestIdVersion) => ({ status: 'PUBLISHED', idVersion: (latestIdVersion ?? 0) + 1, effectiveFrom: from, ...updated(by, now) }),
    });
  }

  async all(args: PagedArgs): Promise<Paged<IdSchemaRow>> {
    return paged(
      args,
      SORTABLE,
      ['id'],
      (query) => this.store.page(query),
      () => this.store.countLive(),
    );
  }

  /** The latest published schema in effect, or the published one of an idVersion. */
  async latest(idVersion?: number | null): Promise<IdSchemaRow> {
    const row = await this.published(idVersion);
    if (!row) throw idSchemaErrors.notFound();
    return row;
  }

  private published(idVersion?: number | null): Promise<IdSchemaRow | null> {
    return this.store.published(idVersion ? { idVersion } : { effectiveAt: this.clock.now() });
  }

  list(page: PageArgs, filter?: { status?: string | null } | null): Promise<Connection<IdSchemaRow>> {
    return this.store.list(filter ?? {}, page);
  }

  async byIds(ids: readonly string[]): Promise<Map<string, IdSchemaRow>> {
    const rows = await this.store.byIds(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Checks an identity against the published schema of its IDSchemaVersion
   * (or the latest): what the ID repository and pre-registration call. A
   * validator that the pattern gate refuses (an older version stored before
   * the gate) does not run: the value is reported as not checkable.
   */
  async validateIdentity(identity: Record<string, unknown>): Promise<{ schema: IdSchemaRow; problems: IdentityProblem[] }> {
    const version = typeof identity.IDSchemaVersion === 'number' ? identity.IDSchemaVersion : null;
    const schema = await this.published(version);
    // A version the identity names that was never published is the identity's fault; none in effect is the operator's.
    if (!schema) throw version ? idSchemaErrors.versionNotPublished() : idSchemaErrors.notFound();
    return { schema, problems: identityProblems(fieldsOf(schema), identity) };
  }
}
