/**
 * Who and when, on every master data row (MOSIP's cr_by, cr_dtimes, upd_by,
 * upd_dtimes, is_deleted, del_dtimes). `changedAt` moves on every write, so
 * sync data finds what changed since a client's last sync, deletions included.
 */
export interface AuditColumns {
  createdBy: string;
  createdAt: Date;
  updatedBy: string | null;
  updatedAt: Date | null;
  isDeleted: boolean;
  deletedAt: Date | null;
  changedAt: Date;
}

export const created = (by: string, now: Date) => ({ createdBy: by, createdAt: now, changedAt: now, isDeleted: false, deletedAt: null });

export const updated = (by: string, now: Date) => ({ updatedBy: by, updatedAt: now, changedAt: now });

/** A soft delete: the row stays, for audit and for clients to sync the deletion. */
export const deleted = (by: string, now: Date) => ({ updatedBy: by, updatedAt: now, deletedAt: now, changedAt: now, isDeleted: true, isActive: false });

/** What each write sets of the audit columns (the values storage writes, plain data the rules compute). */
export type Created = ReturnType<typeof created>;
export type Updated = ReturnType<typeof updated>;
export type Deleted = ReturnType<typeof deleted>;

/** The rows a reader sees: not deleted. */
export const LIVE = { isDeleted: false } as const;
