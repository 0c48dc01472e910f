import { randomInt } from 'node:crypto';
import { Prisma, type Misp as MispRow, type PrismaClient } from '../../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../../lib/graph/connection.js';
import { isUniqueViolation } from '../../../lib/db/unique.js';
import type { Clock } from '../../../lib/time.js';
import type { LicenseService } from '../../license/service.js';
import { partnerErrors } from '../errors.js';
import { containing } from '../inputs.js';
import { mispName, mispNameKey } from './names.js';
import type { PartnerSettings } from '../settings.js';

export type { MispRow };

export interface MispInput {
  organizationName: string;
  contactNumber?: string | null;
  emailId: string;
  address: string;
}

export interface MispFilter {
  status?: string | null;
  isActive?: boolean | null;
  nameContains?: string | null;
}

/** A MISP's license key as approval and regeneration hand it out: the key itself, once. */
export interface IssuedLicense {
  mispId: string;
  mispLicenseKey: string;
  mispLicenseKeyExpiry: Date;
  mispLicenseKeyStatus: string;
}

export const MISP_DECISIONS = ['Approved', 'Rejected'] as const;

/**
 * MISPs (MOSIP's MISP service): created Active, then approved, which issues
 * a license key through the license key manager (the key stays there; a
 * MISP refers to its keys), or rejected. A MISP can be switched off and on.
 */
export class MispService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly license: LicenseService,
    private readonly settings: PartnerSettings,
  ) {}

  /** MOSIP's MISP ids are numeric: 6 digits, drawn until unused. */
  private async newId(): Promise<string> {
    for (;;) {
      const id = String(randomInt(100000, 1000000));
      if (!(await this.prisma.misp.findUnique({ where: { id }, select: { id: true } }))) return id;
    }
  }

  /** A name as kept, with its key: one MISP per key, which the unique index keeps however requests race (names.ts). */
  private named(name: string): { organizationName: string; nameKey: string } {
    const organizationName = mispName(name);
    if (!organizationName) throw partnerErrors.invalid('organizationName', 'a name with visible characters');
    return { organizationName, nameKey: mispNameKey(organizationName) };
  }

  async create(by: string, input: MispInput): Promise<MispRow> {
    const { organizationName, nameKey } = this.named(input.organizationName);
    if (await this.prisma.misp.findUnique({ where: { nameKey }, select: { id: true } })) throw partnerErrors.mispNameTaken(organizationName);
    try {
      return await this.prisma.misp.create({
        data: {
          id: await this.newId(),
          organizationName,
          nameKey,
          contactNumber: input.contactNumber ?? null,
          emailId: input.emailId,
          address: input.address,
          status: 'Active',
          createdBy: by,
          createdAt: this.clock.now(),
        },
      });
    } catch (error) {
      // Two registrations of one name racing: the unique index lets one through.
      if (isUniqueViolation(error)) throw partnerErrors.mispNameTaken(organizationName);
      throw error;
    }
  }

  async get(id: string): Promise<MispRow> {
    const row = await this.prisma.misp.findUnique({ where: { id } });
    if (!row) throw partnerErrors.mispNotFound(id);
    return row;
  }

  private expiry(): Date {
    return new Date(this.clock.now().getTime() + this.settings.mispLicenseDays * 86_400_000);
  }

  private async issue(by: string, mispId: string): Promise<IssuedLicense> {
    const key = await this.license.generate({ subject: by }, mispId, this.expiry().toISOString());
    return { mispId, mispLicenseKey: key.licenseKey!, mispLicenseKeyExpiry: key.expiresAt, mispLicenseKeyStatus: 'Active' };
  }

  /** Approves (a license key is issued) or rejects a MISP still waiting; a decided MISP is not decided again. */
  async decide(by: string, id: string, decision: string): Promise<{ misp: MispRow; license: IssuedLicense | null }> {
    if (!(MISP_DECISIONS as readonly string[]).includes(decision)) throw partnerErrors.invalid('mispStatus', 'Approved or Rejected');
    const now = this.clock.now();
    const { count } = await this.prisma.misp.updateMany({ where: { id, status: 'Active' }, data: { status: decision, updatedBy: by, updatedAt: now } });
    if (count === 0) {
      const row = await this.get(id);
      throw partnerErrors.invalid('mispStatus', `MISP ${id} is already ${row.status}`);
    }
    const misp = await this.get(id);
    return { misp, license: decision === 'Approved' ? await this.issue(by, id) : null };
  }

  /** Switches a MISP on or off (PATCH /misps/{mispId}). */
  async setActive(by: string, id: string, status: string): Promise<MispRow> {
    if (status !== 'Active' && status !== 'De-Active') throw partnerErrors.invalid('mispStatus', 'Active or De-Active');
    await this.get(id);
    return this.prisma.misp.update({ where: { id }, data: { isActive: status === 'Active', updatedBy: by, updatedAt: this.clock.now() } });
  }

  async update(by: string, id: string, input: { [K in keyof MispInput]?: MispInput[K] | null }): Promise<MispRow> {
    const { organizationName, ...rest } = input;
    const name = organizationName != null ? this.named(organizationName) : undefined;
    const data: Prisma.MispUpdateInput = {
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== null)),
      ...name,
    };
    if (!Object.keys(data).length) throw partnerErrors.mispNothingToUpdate();
    await this.get(id);
    try {
      return await this.prisma.misp.update({ where: { id }, data: { ...data, updatedBy: by, updatedAt: this.clock.now() } });
    } catch (error) {
      // Another MISP's name, or one that differs from it only in case, width, spacing or invisible characters.
      if (isUniqueViolation(error)) throw partnerErrors.mispNameTaken(name?.organizationName ?? '');
      throw error;
    }
  }

  /** Whether the key is this MISP's, valid now and active. */
  async validateLicense(id: string, mispLicenseKey: string): Promise<void> {
    await this.get(id);
    const key = /^[A-Za-z0-9]{8,128}$/.test(mispLicenseKey) ? await this.license.find(mispLicenseKey) : null;
    if (!key || key.mispId !== id || key.status !== 'ACTIVE' || key.expiresAt <= this.clock.now()) throw partnerErrors.mispLicenseInvalid();
  }

  /** A new key for an approved MISP; its active keys are blocked. */
  async regenerateLicense(by: string, id: string): Promise<IssuedLicense> {
    const misp = await this.get(id);
    if (misp.status !== 'Approved') throw partnerErrors.invalid('mispId', `MISP ${id} is ${misp.status}, not Approved`);
    await this.license.blockAllOf(id);
    return this.issue(by, id);
  }

  /** The MISP's newest key as it is kept: hint, status, expiry. */
  async currentLicense(id: string) {
    await this.get(id);
    return this.license.newestOf(id);
  }

  all(): Promise<MispRow[]> {
    return this.prisma.misp.findMany({ orderBy: { organizationName: 'asc' }, take: 1000 });
  }

  /** MISPs whose name contains the text (GET /misps/name/{name}). */
  byName(name: string): Promise<MispRow[]> {
    return this.prisma.misp.findMany({ where: { organizationName: containing(mispName(name), 'name') }, orderBy: { organizationName: 'asc' }, take: 100 });
  }

  list(page: PageArgs, filter?: MispFilter | null): Promise<Connection<MispRow>> {
    const where: Prisma.MispWhereInput = {
      ...(filter?.status ? { status: filter.status } : {}),
      ...(filter?.isActive !== null && filter?.isActive !== undefined ? { isActive: filter.isActive } : {}),
      ...(filter?.nameContains ? { organizationName: containing(mispName(filter.nameContains), 'nameContains') } : {}),
    };
    return connection(
      page,
      (row) => row.id,
      (query) => this.prisma.misp.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() }),
      () => this.prisma.misp.count({ where }),
    );
  }

  async byIds(ids: readonly string[]): Promise<Map<string, MispRow>> {
    const rows = await this.prisma.misp.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, row]));
  }
}
