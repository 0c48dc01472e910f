import { z } from 'zod';
import { optionalTimestamp, timestamp } from './route.js';

/** A record's audit as the graph gives it: who (a User reference) and when. */
export interface AuditSource {
  createdBy: { userId: string } | null;
  createdAt: Date | string;
  updatedBy?: { userId: string } | null;
  updatedAt?: Date | string | null;
  /** the graph shows live rows only: a record without it is not deleted */
  isDeleted?: boolean;
  deletedAt?: Date | string | null;
}

/** The graph's audit members, which MOSIP's audit fields replace. */
type SourceKey = 'createdBy' | 'createdAt' | 'updatedBy' | 'updatedAt' | 'deletedAt';

const optionalText = z.string().nullable();

/** MOSIP's creation fields (zones and user mappings show only these). */
export const createdShape = { createdBy: optionalText, createdDateTime: z.string() };

/** MOSIP's audit fields of a master data record, by their wire names: spread into a record's zod shape. */
export const auditShape = {
  ...createdShape,
  updatedBy: optionalText,
  updatedDateTime: optionalText,
  isDeleted: z.boolean(),
  deletedDateTime: optionalText,
};

export const createdFields = (row: Pick<AuditSource, 'createdBy' | 'createdAt'>): z.input<z.ZodObject<typeof createdShape>> => ({
  createdBy: row.createdBy?.userId ?? null,
  createdDateTime: timestamp(row.createdAt),
});

export const auditFields = (row: AuditSource): z.input<z.ZodObject<typeof auditShape>> => ({
  ...createdFields(row),
  updatedBy: row.updatedBy?.userId ?? null,
  updatedDateTime: optionalTimestamp(row.updatedAt),
  isDeleted: row.isDeleted ?? false,
  deletedDateTime: optionalTimestamp(row.deletedAt),
});

/**
 * A record with its audit members replaced by MOSIP's audit fields, last
 * (after `before`, fields its mapping adds): the order MOSIP's records are
 * written in. A member the row keeps (isDeleted) stays where the row has it.
 */
export function withAudit<Row extends AuditSource, Before extends object = object>(
  row: Row,
  before?: Before,
): Omit<Row, SourceKey> & Before & z.input<z.ZodObject<typeof auditShape>> {
  const { createdBy: _createdBy, createdAt: _createdAt, updatedBy: _updatedBy, updatedAt: _updatedAt, deletedAt: _deletedAt, ...rest } = row;
  return { ...rest, ...(before as Before), ...auditFields(row) };
}
