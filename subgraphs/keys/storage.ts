import type { KeyStoreEntry, MachinePublicKey, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { underLock, type Tx } from '../../lib/db/lock.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import { MasterKey } from '../../lib/master-key.js';
import type { SealedColumnOf } from '../../lib/master-key/storage.js';
import { MODULE_KEY_PURPOSE } from './key-store.js';

export type KeyEntry = KeyStoreEntry;
export type MachineKeyRow = MachinePublicKey;
export type KeyStatus = 'ACTIVE' | 'RETIRED' | 'EXPIRED';

/** An entry as it is first stored. */
export interface NewKeyEntry {
  applicationId: string;
  referenceId: string;
  kind: string;
  privateKey?: string | null;
  certificate: string;
  signedCertificate?: string | null;
  thumbprint: string;
  validFrom: Date;
  validTo: Date;
  replacesId?: string;
}

/** One pair's entries, as a change under the pair's lock sees and writes them. */
export interface PairRows {
  /** The newest entry in force at `at`: started by then, neither expired nor retired. */
  inForce(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null>;
  /** The newest entry neither expired nor retired at `at`, whenever it starts. */
  latest(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null>;
  /** Retires every entry of the pair neither expired nor retired at `at`. */
  retireUnexpired(applicationId: string, referenceId: string, at: Date): Promise<void>;
  retire(id: string, at: Date): Promise<void>;
  create(entry: NewKeyEntry): Promise<KeyEntry>;
}

/** The key store's entries as its rules see them: the seam a test fills with rows in memory. */
export interface KeyRows extends Pick<PairRows, 'inForce' | 'latest'> {
  byThumbprint(thumbprint: string): Promise<KeyEntry | null>;
  setCsr(id: string, csr: string): Promise<KeyEntry>;
  /** Runs `work` in one transaction holding the pair's lock: racing changes of a pair (on any instance) run one after the other. */
  underPairLock<T>(applicationId: string, referenceId: string, work: (rows: PairRows) => Promise<T>): Promise<T>;
}

/** The machines' public keys as the key manager's rules see them. */
export interface MachineKeyRows {
  machineByKeyIndex(keyIndex: string): Promise<MachineKeyRow | null>;
  machineByName(machineName: string): Promise<MachineKeyRow | null>;
  createMachine(row: { machineName: string; publicKey: string; keyIndex: string; createdBy: string }): Promise<void>;
  updateMachine(machineName: string, row: { publicKey: string; keyIndex: string; updatedBy: string }): Promise<void>;
}

/** Partners' certificates (another domain's entries under one application id) as the partner certificate manager reads them. */
export interface PartnerCertificateRows {
  /** How many entries the pair holds or held. */
  countOf(applicationId: string, referenceId: string): Promise<number>;
  /** The entries of these references in force at `at`, oldest start first. */
  inForceOf(applicationId: string, referenceIds: readonly string[], at: Date): Promise<KeyEntry[]>;
}

export interface KeyFilter {
  applicationId?: string | null;
  referenceId?: string | null;
  kind?: string | null;
  status?: KeyStatus | null;
}

/** The key store as the portal reads it. */
export interface InventoryRows {
  /** A page of entries, newest first (the unique id breaks ties), with the status as of `now`, and their count. */
  entries(page: PageArgs, filter: KeyFilter | null | undefined, now: Date): Promise<Connection<KeyEntry>>;
  entriesByIds(ids: readonly string[]): Promise<KeyEntry[]>;
  /** One entry per thumbprint. */
  entriesByThumbprints(thumbprints: readonly string[]): Promise<KeyEntry[]>;
  /** A page of machine keys by machine name, only of the named machines (null: every one), and their count. */
  machineKeys(page: PageArgs, machineNames: readonly string[] | null): Promise<Connection<MachineKeyRow>>;
  machineKeysByNames(machineNames: readonly string[]): Promise<MachineKeyRow[]>;
}

/** Entries neither retired nor expired at `at`, whenever they started. */
const unexpiredAt = (at: Date): Prisma.KeyStoreEntryWhereInput => ({ validTo: { gt: at }, OR: [{ retiredAt: null }, { retiredAt: { gt: at } }] });
/** Entries in force at `at`: valid then and not yet retired. */
const inForceAt = (at: Date): Prisma.KeyStoreEntryWhereInput => ({ validFrom: { lte: at }, ...unexpiredAt(at) });
/** The advisory lock of a pair: whatever puts a key or certificate in force for it takes this lock. */
const lockOf = (applicationId: string, referenceId: string) => `key_store:${applicationId}:${referenceId}`;

/** One pair's entries on a database or in a transaction. */
function pairRows(db: Tx | PrismaClient): PairRows {
  return {
    inForce: (applicationId, referenceId, at) =>
      db.keyStoreEntry.findFirst({ where: { applicationId, referenceId, ...inForceAt(at) }, orderBy: { validFrom: 'desc' } }),
    latest: (applicationId, referenceId, at) =>
      db.keyStoreEntry.findFirst({ where: { applicationId, referenceId, ...unexpiredAt(at) }, orderBy: { validFrom: 'desc' } }),
    retireUnexpired: async (applicationId, referenceId, at) => {
      await db.keyStoreEntry.updateMany({ where: { applicationId, referenceId, ...unexpiredAt(at) }, data: { retiredAt: at } });
    },
    retire: async (id, at) => {
      await db.keyStoreEntry.update({ where: { id }, data: { retiredAt: at } });
    },
    create: (entry) => db.keyStoreEntry.create({ data: entry }),
  };
}

/** The key manager's tables (key_store, machine_public_key): the only code that touches them. */
export class KeysStorage implements KeyRows, MachineKeyRows, PartnerCertificateRows, InventoryRows {
  private readonly rows: PairRows;

  constructor(private readonly prisma: PrismaClient) {
    this.rows = pairRows(prisma);
  }

  inForce(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null> {
    return this.rows.inForce(applicationId, referenceId, at);
  }

  latest(applicationId: string, referenceId: string, at: Date): Promise<KeyEntry | null> {
    return this.rows.latest(applicationId, referenceId, at);
  }

  byThumbprint(thumbprint: string): Promise<KeyEntry | null> {
    return this.prisma.keyStoreEntry.findFirst({ where: { thumbprint } });
  }

  setCsr(id: string, csr: string): Promise<KeyEntry> {
    return this.prisma.keyStoreEntry.update({ where: { id }, data: { csr } });
  }

  underPairLock<T>(applicationId: string, referenceId: string, work: (rows: PairRows) => Promise<T>): Promise<T> {
    return underLock(this.prisma, lockOf(applicationId, referenceId), (tx) => work(pairRows(tx)));
  }

  machineByKeyIndex(keyIndex: string): Promise<MachineKeyRow | null> {
    return this.prisma.machinePublicKey.findUnique({ where: { keyIndex } });
  }

  machineByName(machineName: string): Promise<MachineKeyRow | null> {
    return this.prisma.machinePublicKey.findUnique({ where: { machineName } });
  }

  async createMachine(row: { machineName: string; publicKey: string; keyIndex: string; createdBy: string }): Promise<void> {
    await this.prisma.machinePublicKey.create({ data: row });
  }

  async updateMachine(machineName: string, row: { publicKey: string; keyIndex: string; updatedBy: string }): Promise<void> {
    await this.prisma.machinePublicKey.update({ where: { machineName }, data: row });
  }

  countOf(applicationId: string, referenceId: string): Promise<number> {
    return this.prisma.keyStoreEntry.count({ where: { applicationId, referenceId } });
  }

  inForceOf(applicationId: string, referenceIds: readonly string[], at: Date): Promise<KeyEntry[]> {
    return this.prisma.keyStoreEntry.findMany({
      where: {
        applicationId,
        referenceId: { in: [...referenceIds] },
        validFrom: { lte: at },
        validTo: { gt: at },
        OR: [{ retiredAt: null }, { retiredAt: { gt: at } }],
      },
      orderBy: { validFrom: 'asc' },
    });
  }

  entries(page: PageArgs, filter: KeyFilter | null | undefined, now: Date): Promise<Connection<KeyEntry>> {
    const notRetired: Prisma.KeyStoreEntryWhereInput = { OR: [{ retiredAt: null }, { retiredAt: { gt: now } }] };
    const byStatus: Record<KeyStatus, Prisma.KeyStoreEntryWhereInput> = {
      RETIRED: { retiredAt: { lte: now } },
      EXPIRED: { validTo: { lte: now }, ...notRetired },
      ACTIVE: { validTo: { gt: now }, ...notRetired },
    };
    const where: Prisma.KeyStoreEntryWhereInput = {
      ...(filter?.applicationId ? { applicationId: filter.applicationId } : {}),
      ...(filter?.referenceId != null ? { referenceId: filter.referenceId } : {}),
      ...(filter?.kind ? { kind: filter.kind } : {}),
      ...(filter?.status ? byStatus[filter.status] : {}),
    };
    return connection(
      page,
      (entry) => entry.id,
      (query) => this.prisma.keyStoreEntry.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.keyStoreEntry.count({ where }),
    );
  }

  entriesByIds(ids: readonly string[]): Promise<KeyEntry[]> {
    return this.prisma.keyStoreEntry.findMany({ where: { id: { in: [...ids] } } });
  }

  entriesByThumbprints(thumbprints: readonly string[]): Promise<KeyEntry[]> {
    return this.prisma.keyStoreEntry.findMany({ where: { thumbprint: { in: [...thumbprints] } }, distinct: ['thumbprint'] });
  }

  machineKeys(page: PageArgs, machineNames: readonly string[] | null): Promise<Connection<MachineKeyRow>> {
    const where: Prisma.MachinePublicKeyWhereInput = machineNames ? { machineName: { in: [...machineNames] } } : {};
    return connection(
      page,
      (row) => row.machineName,
      (query) => this.prisma.machinePublicKey.findMany({ ...pageArgs(query, 'machineName'), where, orderBy: { machineName: 'asc' } }),
      () => this.prisma.machinePublicKey.count({ where }),
    );
  }

  machineKeysByNames(machineNames: readonly string[]): Promise<MachineKeyRow[]> {
    return this.prisma.machinePublicKey.findMany({ where: { machineName: { in: [...machineNames] } } });
  }
}

/**
 * The root and master keys' private halves, wrapped under the platform master
 * key, as a rewrap of that key reads and rewrites them (lib/master-key/rewrap.ts).
 * Base keys are wrapped under their master key and follow it unchanged.
 */
export const sealedModuleKeys: SealedColumnOf = (db: Tx | PrismaClient) => ({
  name: 'key store root and master keys',
  list: async () =>
    (await db.keyStoreEntry.findMany({ where: { privateKey: { not: null } }, select: { id: true, privateKey: true }, orderBy: { id: 'asc' } }))
      .filter((row) => MasterKey.isWrapped(row.privateKey!))
      .map((row) => ({ id: row.id, purpose: MODULE_KEY_PURPOSE, sealed: row.privateKey! })),
  put: async (id, sealed) => {
    await db.keyStoreEntry.update({ where: { id }, data: { privateKey: sealed } });
  },
});
