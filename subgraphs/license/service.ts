import type { LicenseKey as LicenseRow, Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { connection, newestFirst, pageArgs, type Connection, type PageArgs } from '../../lib/graph/connection.js';
import type { Principal } from '../../lib/tokens.js';
import type { LicenseSettings } from './settings.js';
import type { MasterKey } from '../../lib/master-key.js';
import { lookupHash, randomAlphanumeric } from '../../lib/secrets.js';
import { parseInstant, type Clock } from '../../lib/time.js';
import { licenseErrors } from './errors.js';

export const LICENSE_STATUSES = ['ACTIVE', 'SUSPENDED', 'BLOCKED'] as const;
const HMAC_PURPOSE = 'license/key-hmac';

/** A key as the graph shows it: the row, and the key itself only when just generated. */
export type LicenseView = LicenseRow & { licenseKey: string | null };

/**
 * License keys for MISPs. A key is shown once, at generation; the database
 * keeps only its HMAC. Expiry is checked whenever a key is used. A suspended
 * or blocked key keeps its permissions but cannot be mapped or read until it
 * is made ACTIVE again (KER-LKM-012), so a MISP cut off stays cut off.
 */
export class LicenseService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly prisma: PrismaClient,
    masterKey: MasterKey,
    private readonly clock: Clock,
    private readonly settings: LicenseSettings,
  ) {
    this.hmacKey = masterKey.derive(HMAC_PURPOSE);
  }

  /** The HMAC a key is stored and looked up by. */
  hashOf(key: string): string {
    return lookupHash(this.hmacKey, key);
  }

  private view(row: LicenseRow, licenseKey: string | null = null): LicenseView {
    return { ...row, licenseKey };
  }

  private newKey(): string {
    return randomAlphanumeric(this.settings.keyLength);
  }

  async generate(caller: Pick<Principal, 'subject'>, mispId: string, licenseExpiryTime: string): Promise<LicenseView> {
    if (!mispId?.trim()) throw licenseErrors.emptyMisp();
    const expiresAt = parseInstant(licenseExpiryTime ?? '');
    if (!expiresAt) throw licenseErrors.badExpiry();
    if (expiresAt <= this.clock.now()) throw licenseErrors.expiryInPast();
    const licenseKey = this.newKey();
    const row = await this.prisma.licenseKey.create({
      data: {
        keyHash: this.hashOf(licenseKey),
        keyHint: licenseKey.slice(-4),
        mispId: mispId.trim(),
        expiresAt,
        status: 'ACTIVE',
        permissions: [],
        createdBy: caller.subject,
      },
    });
    return this.view(row, licenseKey);
  }

  /** The MISP's key, usable now: found, the MISP's own, not expired, ACTIVE. */
  private async usable(licenseKey: string, mispId: string): Promise<LicenseRow> {
    if (!licenseKey?.trim()) throw licenseErrors.emptyKey();
    if (!mispId?.trim()) throw licenseErrors.emptyMisp();
    const row = await this.prisma.licenseKey.findUnique({ where: { keyHash: this.hashOf(licenseKey.trim()) } });
    if (!row || row.mispId !== mispId.trim()) throw licenseErrors.notFound();
    if (row.expiresAt <= this.clock.now()) throw licenseErrors.expired();
    if (row.status !== 'ACTIVE') throw licenseErrors.notUsable(row.status);
    return row;
  }

  /** Blocks every active key of a MISP (before a new one is issued in their place); how many. */
  async blockAllOf(mispId: string): Promise<number> {
    return (await this.prisma.licenseKey.updateMany({ where: { mispId, status: 'ACTIVE' }, data: { status: 'BLOCKED' } })).count;
  }

  /** The newest key of a MISP, if any (its hint, status and expiry: the key itself is never kept). */
  async newestOf(mispId: string): Promise<LicenseView | null> {
    const row = await this.prisma.licenseKey.findFirst({ where: { mispId }, orderBy: newestFirst() });
    return row ? this.view(row) : null;
  }

  /** The row of a license key, whatever its state (partner management checks state and owner itself, in its own order). */
  find(licenseKey: string): Promise<LicenseRow | null> {
    return this.prisma.licenseKey.findUnique({ where: { keyHash: this.hashOf(licenseKey.trim()) } });
  }

  async mapPermissions(licenseKey: string, mispId: string, permissions: string[]): Promise<LicenseView> {
    for (const permission of permissions) {
      if (!permission.trim()) throw licenseErrors.emptyPermission();
      if (!this.settings.permissions.includes(permission.trim())) throw licenseErrors.permissionNotAccepted(permission);
    }
    const row = await this.usable(licenseKey, mispId);
    const merged = [...new Set([...row.permissions, ...permissions.map((p) => p.trim())])];
    return this.view(await this.prisma.licenseKey.update({ where: { keyHash: row.keyHash }, data: { permissions: merged } }));
  }

  async permissions(licenseKey: string, mispId: string): Promise<string[]> {
    const row = await this.usable(licenseKey, mispId);
    if (!row.permissions.length) throw licenseErrors.noPermissions();
    return row.permissions;
  }

  async updateStatus(licenseKey: string, status: string): Promise<LicenseView> {
    if (!licenseKey?.trim()) throw licenseErrors.emptyKey();
    if (!(LICENSE_STATUSES as readonly string[]).includes(status)) throw licenseErrors.badStatus(status);
    const row = await this.prisma.licenseKey.findUnique({ where: { keyHash: this.hashOf(licenseKey.trim()) } });
    if (!row) throw licenseErrors.notFound();
    return this.view(await this.prisma.licenseKey.update({ where: { keyHash: row.keyHash }, data: { status } }));
  }

  /** License keys, newest first (the unique id breaks ties). */
  list(page: PageArgs, filter?: { MISPId?: string | null; status?: string | null } | null): Promise<Connection<LicenseView>> {
    const where: Prisma.LicenseKeyWhereInput = { ...(filter?.MISPId ? { mispId: filter.MISPId } : {}), ...(filter?.status ? { status: filter.status } : {}) };
    return connection(
      page,
      (row) => row.id,
      async (query) => (await this.prisma.licenseKey.findMany({ where, ...pageArgs(query, 'id'), orderBy: newestFirst() })).map((row) => this.view(row)),
      () => this.prisma.licenseKey.count({ where }),
    );
  }

  async byIds(ids: readonly string[]): Promise<Map<string, LicenseView>> {
    const rows = await this.prisma.licenseKey.findMany({ where: { id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, this.view(row)]));
  }

  /** How many keys each user generated, for a page of users in one grouped query. */
  async issuedBy(userIds: readonly string[]): Promise<Map<string, number>> {
    const groups = await this.prisma.licenseKey.groupBy({ by: ['createdBy'], where: { createdBy: { in: [...userIds] } }, _count: { _all: true } });
    return new Map(groups.map((group) => [group.createdBy!, group._count._all]));
  }

  permissionValues(): string[] {
    return this.settings.permissions;
  }
}
