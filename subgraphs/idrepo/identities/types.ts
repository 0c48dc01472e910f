import type { Principal } from '../../../lib/tokens.js';
import type { IdentityRow } from './storage.js';

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

/** What a create or an update answers: the identity's status, its UIN, and its row. */
export interface StoredIdentity {
  status: string;
  uin: string;
  identity: IdentityRow;
}

export type Caller = Pick<Principal, 'subject' | 'roles'>;
