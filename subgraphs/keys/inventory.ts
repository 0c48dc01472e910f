import { X509Certificate } from 'node:crypto';
import type { KeyStoreEntry, MachinePublicKey, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import type { Principal } from '../../lib/tokens.js';
import type { Clock } from '../../lib/time.js';

export type KeyStatus = 'ACTIVE' | 'RETIRED' | 'EXPIRED';

export interface KeyFilter {
  applicationId?: string | null;
  referenceId?: string | null;
  kind?: string | null;
  status?: KeyStatus | null;
}

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

/**
 * The key store as the portal reads it: every entry with its certificate, the
 * machine keys (each caller those of the machines it reaches, on every path).
 */
export class KeyInventory {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly machinesInReach: MachinesInReach,
  ) {}

  statusOf(entry: KeyStoreEntry): KeyStatus {
    const now = this.clock.now();
    if (entry.retiredAt && entry.retiredAt <= now) return 'RETIRED';
    return entry.validTo <= now ? 'EXPIRED' : 'ACTIVE';
  }

  private where(filter: KeyFilter | null | undefined): Prisma.KeyStoreEntryWhereInput {
    const now = this.clock.now();
    const notRetired: Prisma.KeyStoreEntryWhereInput = { OR: [{ retiredAt: null }, { retiredAt: { gt: now } }] };
    const byStatus: Record<KeyStatus, Prisma.KeyStoreEntryWhereInput> = {
      RETIRED: { retiredAt: { lte: now } },
      EXPIRED: { validTo: { lte: now }, ...notRetired },
      ACTIVE: { validTo: { gt: now }, ...notRetired },
    };
    return {
      ...(filter?.applicationId ? { applicationId: filter.applicationId } : {}),
      ...(filter?.referenceId != null ? { referenceId: filter.referenceId } : {}),
      ...(filter?.kind ? { kind: filter.kind } : {}),
      ...(filter?.status ? byStatus[filter.status] : {}),
    };
  }

  keys(page: PageArgs, filter?: KeyFilter | null): Promise<Connection<KeyStoreEntry>> {
    const where = this.where(filter);
    return connection(
      page,
      (entry) => entry.id,
      (query) => this.prisma.keyStoreEntry.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.keyStoreEntry.count({ where }),
    );
  }

  async byIds(ids: readonly string[]): Promise<Map<string, KeyStoreEntry>> {
    const rows = await this.prisma.keyStoreEntry.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The entry of each certificate (whose it is decides who may see it), in one query. */
  async certificateEntriesByThumbprint(thumbprints: readonly string[]): Promise<Map<string, KeyStoreEntry>> {
    const rows = await this.prisma.keyStoreEntry.findMany({ where: { thumbprint: { in: [...thumbprints] } }, distinct: ['thumbprint'] });
    return new Map(rows.map((row) => [row.thumbprint, row]));
  }

  async machineKeys(caller: Pick<Principal, 'subject' | 'roles'>, page: PageArgs): Promise<Connection<MachinePublicKey>> {
    const names = await this.machinesInReach(caller);
    const where: Prisma.MachinePublicKeyWhereInput = names ? { machineName: { in: [...names] } } : {};
    return connection(
      page,
      (row) => row.machineName,
      (query) => this.prisma.machinePublicKey.findMany({ ...pageArgs(query, 'machineName'), where, orderBy: { machineName: 'asc' } }),
      () => this.prisma.machinePublicKey.count({ where }),
    );
  }

  /** The keys of the named machines the caller reaches (a name outside its reach reads as unknown). */
  async machineKeysByName(caller: Pick<Principal, 'subject' | 'roles'>, names: readonly string[]): Promise<Map<string, MachinePublicKey>> {
    const reached = await this.machinesInReach(caller);
    const reach = reached && new Set(reached);
    const allowed = reach ? names.filter((name) => reach.has(name)) : names;
    const rows = allowed.length ? await this.prisma.machinePublicKey.findMany({ where: { machineName: { in: [...allowed] } } }) : [];
    return new Map(rows.map((row) => [row.machineName, row]));
  }
}

export function certificateView(entry: Pick<KeyStoreEntry, 'certificate' | 'thumbprint'>): CertificateView {
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
