import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import { IdSchemaService, type IdSchemaInput } from '../../subgraphs/masterdata/idschema/service.js';
import type { IdSchemaRow, IdSchemaStore, PublishedAt, PublishRules } from '../../subgraphs/masterdata/idschema/storage.js';

/*
 * The ID schema's rules (idschema/service.ts) over an in-memory table: no
 * database. The fake keeps the storage's contract (idschema/storage.ts): a
 * publish reads, checks and writes as one step, as its serializable
 * transaction does.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');
const rejectsWith = (promise: Promise<unknown>, code: string, message?: string) =>
  expect(promise).rejects.toMatchObject({ code, ...(message ? { message } : {}) });
const notFaked = (name: string) => () => Promise.reject(new Error(`not faked: ${name}`));

/** The ID schemas' table in memory. */
class MemoryIdSchemas implements IdSchemaStore {
  readonly rows: IdSchemaRow[] = [];
  private next = 1;
  insertDraft(values: Parameters<IdSchemaStore['insertDraft']>[0]) {
    const row: IdSchemaRow = { ...values, id: `schema-${this.next++}`, status: 'DRAFT', idVersion: 0, updatedBy: null, updatedAt: null };
    this.rows.push(row);
    return Promise.resolve(row);
  }
  rewriteDraft(id: string, values: Parameters<IdSchemaStore['rewriteDraft']>[1]) {
    const row = this.draft(id);
    return Promise.resolve(row ? (Object.assign(row, values), 1) : 0);
  }
  removeDraft(id: string, stamp: Parameters<IdSchemaStore['removeDraft']>[1]) {
    const row = this.draft(id);
    return Promise.resolve(row ? (Object.assign(row, stamp), 1) : 0);
  }
  rowOf(id: string) {
    const row = this.rows.find((candidate) => candidate.id === id);
    return row ? Promise.resolve(row) : Promise.reject(new Error('no such row'));
  }
  liveRow(id: string) {
    return Promise.resolve(this.rows.find((row) => row.id === id && !row.isDeleted) ?? null);
  }
  async publish(id: string, rules: PublishRules) {
    const row = await this.liveRow(id);
    rules.check(row);
    const versions = this.rows.filter((candidate) => candidate.status === 'PUBLISHED' && !candidate.isDeleted).map((candidate) => candidate.idVersion);
    return Object.assign(row, rules.published(versions.length ? Math.max(...versions) : null));
  }
  published(at: PublishedAt) {
    const rows = this.rows
      .filter((row) => row.status === 'PUBLISHED' && !row.isDeleted)
      .filter((row) => ('idVersion' in at ? row.idVersion === at.idVersion : row.effectiveFrom <= at.effectiveAt))
      .sort((a, b) => b.idVersion - a.idVersion);
    return Promise.resolve(rows[0] ?? null);
  }
  private draft(id: string) {
    return this.rows.find((row) => row.id === id && row.status === 'DRAFT' && !row.isDeleted);
  }
  page = notFaked('page');
  countLive = notFaked('countLive');
  list = notFaked('list');
  byIds = notFaked('byIds');
}

const FIELDS = [
  { id: 'IDSchemaVersion', type: 'number', required: true },
  { id: 'fullName', type: 'simpleType', required: true, validators: [{ type: 'regex', validator: '^[A-Za-z ]+$' }] },
  { id: 'dateOfBirth', type: 'string', required: true, validators: [{ type: 'regex', validator: '^\\d{4}/\\d{2}/\\d{2}$' }] },
  { id: 'email', type: 'string' },
];

const draft = (extra: Partial<IdSchemaInput> = {}): IdSchemaInput => ({
  title: ' Identity ',
  description: 'the country identity',
  effectiveFrom: '2026-04-01T00:00:00.000Z',
  schemaVersion: 1,
  schema: FIELDS,
  ...extra,
});

function world() {
  const table = new MemoryIdSchemas();
  const clock = new ManualClock(NOW);
  return { schemas: new IdSchemaService(table, clock), table, clock };
}

describe('ID schema drafts', () => {
  it('are written with their fields checked, as idVersion 0, with the JSON Schema made of them', async () => {
    const { schemas } = world();
    const row = await schemas.create('admin', draft());
    expect(row).toMatchObject({ title: 'Identity', status: 'DRAFT', idVersion: 0, createdBy: 'admin', effectiveFrom: new Date('2026-04-01T00:00:00.000Z') });
    const json = JSON.parse(row.schemaJson);
    expect(json.properties.identity.required).toEqual(['IDSchemaVersion', 'fullName', 'dateOfBirth']);
    expect(json.properties.identity.properties.fullName).toMatchObject({ $ref: '#/definitions/simpleType' });
  });

  it('refuse wrong fields and instants with the write’s code, naming what is wrong, and write nothing', async () => {
    const { schemas, table } = world();
    await rejectsWith(
      schemas.create('admin', draft({ schema: [{ id: '1st', type: 'string' }] })),
      'KER-SCH-005',
      'Error occurred while inserting Identity schema: schema.0.id: a field id is a letter then letters, digits or _',
    );
    await rejectsWith(schemas.create('admin', draft({ schema: [...FIELDS, FIELDS[1]] })), 'KER-SCH-005');
    await rejectsWith(
      schemas.create('admin', draft({ schema: [{ id: 'nick', type: 'string', validators: [{ type: 'regex', validator: '^(a+)+$' }] }] })),
      'KER-SCH-005',
    );
    await rejectsWith(
      schemas.create('admin', draft({ effectiveFrom: 'tomorrow' })),
      'KER-SCH-005',
      "Error occurred while inserting Identity schema: effectiveFrom must be an ISO 8601 timestamp (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')",
    );
    expect(table.rows).toEqual([]);
  });

  it('change and are deleted while drafts only (KER-SCH-006), unknown or deleted ones are KER-SCH-007', async () => {
    const { schemas, table } = world();
    const row = await schemas.create('admin', draft());
    await expect(schemas.update('editor', row.id, draft({ title: 'Renamed' }))).resolves.toMatchObject({ title: 'Renamed', updatedBy: 'editor' });
    await rejectsWith(schemas.update('editor', row.id, draft({ schema: [] })), 'KER-SCH-006');
    await rejectsWith(schemas.update('editor', 'schema-99', draft()), 'KER-SCH-007', 'Identity schema not found');
    await schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z');
    await rejectsWith(
      schemas.update('editor', row.id, draft()),
      'KER-SCH-006',
      `Error occurred while updating Identity schema: schema ${row.id} is PUBLISHED: only a draft can change`,
    );
    await rejectsWith(schemas.delete('editor', row.id), 'KER-SCH-006');
    const other = await schemas.create('admin', draft());
    await expect(schemas.delete('editor', other.id)).resolves.toBe(other.id);
    // An ID schema has no isActive: a delete sets only the audit columns.
    expect(table.rows[1]).toMatchObject({ isDeleted: true, deletedAt: NOW, updatedBy: 'editor' });
    expect(table.rows[1]).not.toHaveProperty('isActive');
    await rejectsWith(schemas.delete('editor', other.id), 'KER-SCH-007');
  });
});

describe('publishing an ID schema', () => {
  it('gives the next idVersion after the latest published, from effectiveFrom', async () => {
    const { schemas } = world();
    const first = await schemas.create('admin', draft());
    const second = await schemas.create('admin', draft());
    await expect(schemas.publish('admin', second.id, '2026-04-15T00:00:00.000Z')).resolves.toMatchObject({
      status: 'PUBLISHED',
      idVersion: 1,
      effectiveFrom: new Date('2026-04-15T00:00:00.000Z'),
      updatedBy: 'admin',
    });
    await expect(schemas.publish('admin', first.id, '2026-04-20T00:00:00.000Z')).resolves.toMatchObject({ idVersion: 2 });
  });

  it('publishes a draft once (KER-SCH-006), an unknown one never (KER-SCH-007), and checks effectiveFrom first', async () => {
    const { schemas, table } = world();
    const row = await schemas.create('admin', draft());
    await rejectsWith(schemas.publish('admin', row.id, '2026-02-30T00:00:00.000Z'), 'KER-SCH-006');
    expect(table.rows[0]!.status).toBe('DRAFT');
    await schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z');
    await rejectsWith(
      schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z'),
      'KER-SCH-006',
      `Error occurred while updating Identity schema: schema ${row.id} is already PUBLISHED`,
    );
    await rejectsWith(schemas.publish('admin', 'schema-99', '2026-04-01T00:00:00.000Z'), 'KER-SCH-007');
    expect(table.rows[0]!.idVersion).toBe(1);
  });

  it('refuses a draft stored before its validators were checked (a catastrophic pattern), leaving it a draft', async () => {
    const { schemas, table } = world();
    const row = await schemas.create('admin', draft());
    // As a draft written before the pattern gate: the fields as stored, not as they would be checked today.
    table.rows[0]!.schema = [{ id: 'nick', type: 'string', validators: [{ type: 'regex', validator: '^([0-9a-z]+)+$' }] }];
    await rejectsWith(schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z'), 'KER-SCH-006');
    await expect(schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z')).rejects.toThrow(/schema\.0\.validators\.0\.validator: /);
    expect(table.rows[0]).toMatchObject({ status: 'DRAFT', idVersion: 0 });
  });
});

describe('the published ID schema', () => {
  it('is the latest in effect, or the one of an idVersion; none is KER-SCH-007', async () => {
    const { schemas, clock } = world();
    await rejectsWith(schemas.latest(), 'KER-SCH-007');
    const current = await schemas.create('admin', draft({ title: 'Current' }));
    await schemas.publish('admin', current.id, '2026-04-01T00:00:00.000Z');
    const future = await schemas.create('admin', draft({ title: 'Future' }));
    await schemas.publish('admin', future.id, '2026-06-01T00:00:00.000Z');
    await schemas.create('admin', draft({ title: 'Draft' }));
    expect((await schemas.latest()).title).toBe('Current');
    expect((await schemas.latest(2)).title).toBe('Future');
    await rejectsWith(schemas.latest(3), 'KER-SCH-007');
    clock.set(new Date('2026-06-01T00:00:00.000Z'));
    expect((await schemas.latest()).title).toBe('Future');
  });

  it('validates identities: required fields, validators, unknown fields', async () => {
    const { schemas } = world();
    const row = await schemas.create('admin', draft());
    await schemas.publish('admin', row.id, '2026-04-01T00:00:00.000Z');
    const good = await schemas.validateIdentity({ IDSchemaVersion: 1, fullName: [{ language: 'eng', value: 'Ada Lovelace' }], dateOfBirth: '1815/12/10' });
    expect(good.problems).toEqual([]);
    expect(good.schema.id).toBe(row.id);
    const bad = await schemas.validateIdentity({ fullName: [{ language: 'eng', value: 'R2-D2' }], nickname: 'x' });
    expect(bad.problems).toEqual([
      { field: 'IDSchemaVersion', missing: true, message: 'IDSchemaVersion is required' },
      { field: 'fullName', missing: false, message: 'fullName does not match ^[A-Za-z ]+$' },
      { field: 'dateOfBirth', missing: true, message: 'dateOfBirth is required' },
      { field: 'nickname', missing: false, message: 'nickname is not a field of the ID schema' },
    ]);
    await rejectsWith(schemas.validateIdentity({ IDSchemaVersion: 7 }), 'KER-SCH-007');
  });
});
