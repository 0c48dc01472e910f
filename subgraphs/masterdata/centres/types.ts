import type { Principal } from '../../../lib/tokens.js';

/** Who asks: its id (a user's, as centre and zone mappings name it) and roles. */
export type Caller = Pick<Principal, 'subject' | 'roles'>;

/** The registration centres and machines a caller reaches. */
export interface Reach {
  /** the caller holds an admin role: its zones count, and a refusal is KER-MSD-439 */
  admin: boolean;
  /** the zones it administers and those below them (admins only) */
  zoneCodes: ReadonlySet<string>;
  /** the centres it works at (mapped to it), and the centres of its zones */
  centreIds: ReadonlySet<string>;
}

/** A machine as the reach and zone rules read it: its zone and the centre it is placed at. */
export type PlacedMachine = { zoneCode: string; regCenterId: string | null };
