import type { Machine, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { connection, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { parseInstant, type Clock } from '../../../lib/time.js';
import { created, deleted, LIVE, updated } from '../audit.js';
import { masterdataErrors } from '../errors.js';
import { cursorAt, pairKey, parsePair } from '../keys.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import { underLock } from '../../../lib/db/lock.js';
import { nextId, type References } from './references.js';
import { LIST_LIMIT } from '../paged.js';

export type MachineRow = Machine;

export interface MachineInput {
  id?: string | null;
  langCode: string;
  name: string;
  serialNum?: string | null;
  macAddress?: string | null;
  ipAddress?: string | null;
  machineSpecId?: string | null;
  regCenterId?: string | null;
  zoneCode: string;
  validityDateTime?: string | null;
  isActive?: boolean | null;
}

export interface MachineFilter {
  langCode?: string | null;
  zoneCode?: string | null;
  regCenterId?: string | null;
  name?: string | null;
  isActive?: boolean | null;
}

/**
 * Registration client machines, one row per language; every field but the
 * language is shared by the rows of a machine. The name is unique among
 * machines (keys maps a machine's TPM key by it), checked under a lock.
 */
export class MachineService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly references: References,
  ) {}

  /** The shared fields, once what they point to is checked. */
  private async fields(input: MachineInput) {
    const validity = input.validityDateTime ? parseInstant(input.validityDateTime) : null;
    if (validity === undefined) throw masterdataErrors.badValidity();
    await this.references.language(input.langCode);
    if (!(await this.references.zoneExists(input.zoneCode))) throw masterdataErrors.machineZoneNotFound(input.zoneCode);
    if (input.regCenterId && !(await this.references.centreExists(input.regCenterId))) throw masterdataErrors.centreNotFound(input.regCenterId);
    return {
      name: input.name,
      serialNum: input.serialNum ?? null,
      macAddress: input.macAddress ?? null,
      ipAddress: input.ipAddress ?? null,
      machineSpecId: input.machineSpecId ?? null,
      regCenterId: input.regCenterId ?? null,
      zoneCode: input.zoneCode,
      validityDateTime: validity,
      isActive: input.isActive ?? true,
    };
  }

  /** Writes one machine's rows under the machine lock: `write` gets the id, after the name is checked free. */
  private async locked(input: MachineInput, write: (tx: Prisma.TransactionClient, id: string) => Promise<MachineRow>): Promise<MachineRow> {
    try {
      return await underLock(this.prisma, 'md_machine', async (tx) => {
        const id = input.id ?? (await nextId(tx, 'machine'));
        const named = await tx.machine.findFirst({ where: { name: input.name, id: { not: id }, ...LIVE }, select: { id: true } });
        if (named) throw masterdataErrors.machineNameExists(input.name);
        return write(tx, id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw masterdataErrors.machineExists(input.id ?? '', input.langCode);
      throw error;
    }
  }

  /** A new machine, or a machine's row in another language (a soft-deleted row comes back). */
  async create(by: string, input: MachineInput): Promise<MachineRow> {
    const fields = await this.fields(input);
    const now = this.clock.now();
    return this.locked(input, async (tx, id) => {
      const key = { id_langCode: { id, langCode: input.langCode } };
      const existing = await tx.machine.findUnique({ where: key });
      if (existing && !existing.isDeleted) throw masterdataErrors.machineExists(id, input.langCode);
      const row = existing
        ? await tx.machine.update({ where: key, data: { ...fields, ...created(by, now), updatedBy: null, updatedAt: null } })
        : await tx.machine.create({ data: { id, langCode: input.langCode, ...fields, ...created(by, now) } });
      await tx.machine.updateMany({ where: { id, langCode: { not: input.langCode }, ...LIVE }, data: { ...fields, ...updated(by, now) } });
      return row;
    });
  }

  async update(by: string, input: MachineInput & { id: string }): Promise<MachineRow> {
    await this.get(input.id, input.langCode);
    const fields = await this.fields(input);
    const now = this.clock.now();
    return this.locked(input, async (tx, id) => {
      const { count } = await tx.machine.updateMany({ where: { id, ...LIVE }, data: { ...fields, ...updated(by, now) } });
      if (!count) throw masterdataErrors.machineNotFound(id);
      return tx.machine.findUniqueOrThrow({ where: { id_langCode: { id, langCode: input.langCode } } });
    });
  }

  async delete(by: string, id: string): Promise<string> {
    const { count } = await this.prisma.machine.updateMany({ where: { id, ...LIVE }, data: deleted(by, this.clock.now()) });
    if (!count) throw masterdataErrors.machineNotFound(id);
    return id;
  }

  async get(id: string, langCode: string): Promise<MachineRow> {
    const row = await this.prisma.machine.findFirst({ where: { id, langCode, ...LIVE } });
    if (!row) throw masterdataErrors.machineNotFound(id);
    return row;
  }

  ofLanguage(langCode: string): Promise<MachineRow[]> {
    return this.prisma.machine.findMany({ where: { langCode, ...LIVE }, orderBy: { id: 'asc' }, take: LIST_LIMIT });
  }

  list(page: PageArgs, filter?: MachineFilter | null): Promise<Connection<MachineRow>> {
    const where: Prisma.MachineWhereInput = {
      ...LIVE,
      ...(filter?.langCode ? { langCode: filter.langCode } : {}),
      ...(filter?.zoneCode ? { zoneCode: filter.zoneCode } : {}),
      ...(filter?.regCenterId ? { regCenterId: filter.regCenterId } : {}),
      ...(filter?.name ? { name: { contains: filter.name, mode: 'insensitive' } } : {}),
      ...(filter?.isActive != null ? { isActive: filter.isActive } : {}),
    };
    return connection(
      page,
      (row) => pairKey(row.id, row.langCode),
      (query) =>
        this.prisma.machine.findMany({
          where,
          orderBy: [{ id: 'asc' }, { langCode: 'asc' }],
          ...cursorAt(query, ([id, langCode]) => ({ id_langCode: { id, langCode } })),
        }),
      () => this.prisma.machine.count({ where }),
    );
  }

  /** Machines by "id langCode" keys (entity references), in one query. */
  async byKeys(keys: readonly string[]): Promise<Map<string, MachineRow>> {
    const pairs = keys.map(parsePair);
    const rows = await this.prisma.machine.findMany({ where: { OR: pairs.map(([id, langCode]) => ({ id, langCode })), ...LIVE } });
    return new Map(rows.map((row) => [pairKey(row.id, row.langCode), row]));
  }
}
