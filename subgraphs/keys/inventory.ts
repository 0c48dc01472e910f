import { X509Certificate } from 'node:crypto';
import type { Connection, PageArgs } from '../../lib/graph/connection.js';
import type { Principal } from '../../lib/tokens.js';
import type { Clock } from '../../lib/time.js';
import type { InventoryRows, KeyEntry, KeyFilter, KeyStatus, MachineKeyRow } from './storage.js';

export type { KeyFilter, KeyStatus };

export interface CertificateView {
  thumbprint: string;
  pem: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

/** Who asks for machine keys, and the machines it reaches (null: every one), as master data says. */
export type MachinesInReach = (caller: Pick<Principal, 'subject' | 'roles'>) => Promise<readonly string[] | null>;

/** Master data's machine reach, which it plugs into the key manager (KeysService, KeyInventory). */
export interface MachineReach {
  /** KER-ATH-403 unless the caller may map a key to the machine (its centre's staff, the admins of its zone) */
  requireMappable(caller: Pick<Principal, 'subject' | 'roles'>, machineName: string): Promise<void>;
  namesInReach: MachinesInReach;
}

/**
 * The key store as the portal reads it: every entry with its certificate, the
 * machine keys (each caller those of the machines it reaches, on every path).
 */
export class KeyInventory {
  constructor(
    private readonly rows: InventoryRows,
    private readonly clock: Clock,
    private readonly machinesInReach: MachinesInReach,
  ) {}

  statusOf(entry: KeyEntry): KeyStatus {
    const now = this.clock.now();
    if (entry.retiredAt && entry.retiredAt <= now) return 'RETIRED';
    return entry.validTo <= now ? 'EXPIRED' : 'ACTIVE';
  }

  keys(page: PageArgs, filter?: KeyFilter | null): Promise<Connection<KeyEntry>> {
    return this.rows.entries(page, filter, this.clock.now());
  }

  async byIds(ids: readonly string[]): Promise<Map<string, KeyEntry>> {
    const rows = await this.rows.entriesByIds(ids);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The entry of each certificate (whose it is decides who may see it), in one query. */
  async certificateEntriesByThumbprint(thumbprints: readonly string[]): Promise<Map<string, KeyEntry>> {
    const rows = await this.rows.entriesByThumbprints(thumbprints);
    return new Map(rows.map((row) => [row.thumbprint, row]));
  }

  async machineKeys(caller: Pick<Principal, 'subject' | 'roles'>, page: PageArgs): Promise<Connection<MachineKeyRow>> {
    return this.rows.machineKeys(page, await this.machinesInReach(caller));
  }

  /** The keys of the named machines the caller reaches (a name outside its reach reads as unknown). */
  async machineKeysByName(caller: Pick<Principal, 'subject' | 'roles'>, names: readonly string[]): Promise<Map<string, MachineKeyRow>> {
    const reached = await this.machinesInReach(caller);
    const reach = reached && new Set(reached);
    const allowed = reach ? names.filter((name) => reach.has(name)) : names;
    const rows = allowed.length ? await this.rows.machineKeysByNames(allowed) : [];
    return new Map(rows.map((row) => [row.machineName, row]));
  }
}

export function certificateView(entry: Pick<KeyEntry, 'certificate' | 'thumbprint'>): CertificateView {
  const certificate = new X509Certificate(entry.certificate);
  return {
    thumbprint: entry.thumbprint,
    pem: entry.certificate,
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
  };
}
