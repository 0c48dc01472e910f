import type { EventBus } from '../../lib/events.js';
import type { Connection, PageArgs } from '../../lib/graph/connection.js';
import type { NestedList } from '../../lib/graph/nested.js';
import type { MasterKey } from '../../lib/master-key.js';
import { lookupHash, randomAlphanumeric } from '../../lib/secrets.js';
import type { Clock } from '../../lib/time.js';
import type { Principal } from '../../lib/tokens.js';
import { licenseErrors } from './errors.js';
import { checkedExpiry, LICENSE_STATUSES } from './inputs.js';
import { MAX_LICENSE_PERMISSIONS, type LicenseSettings } from './settings.js';
import type { LicenseFilter, LicenseRow, LicenseStorage } from './storage.js';

export { checkedExpiry, LICENSE_STATUSES };

const HMAC_PURPOSE = 'license/key-hmac';

/** A key as the graph shows it: the row, and the key itself only when just generated. */
export type LicenseView = LicenseRow & { licenseKey: string | null };

/**
 * License keys for MISPs. A key is shown once, at generation; the database
 * keeps only its HMAC. Expiry is checked whenever a key is used. A suspended
 * or blocked key keeps its permissions but cannot be mapped or read until it
 * is made ACTIVE again (KER-LKM-012), so a MISP cut off stays cut off. A
 * change of status is published (`license.changed`) once written.
 */
export class LicenseService {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly storage: LicenseStorage,
    masterKey: MasterKey,
    private readonly clock: Clock,
    private readonly settings: LicenseSettings,
    private readonly events: Pick<EventBus, 'publish'>,
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

  async generate(caller: Pick<Principal, 'subject'>, mispId: string, licenseExpiryTime: string): Promise<LicenseView> {
    const expiresAt = checkedExpiry(mispId, licenseExpiryTime);
    if (expiresAt <= this.clock.now()) throw licenseErrors.expiryInPast();
    const licenseKey = randomAlphanumeric(this.settings.keyLength);
    const row = await this.storage.create({
      keyHash: this.hashOf(licenseKey),
      keyHint: licenseKey.slice(-4),
      mispId: mispId.trim(),
      expiresAt,
      status: 'ACTIVE',
      createdBy: caller.subject,
    });
    return this.view(row, licenseKey);
  }

  /** The MISP's key, usable now: found, the MISP's own, not expired, ACTIVE. */
  private async usable(licenseKey: string, mispId: string): Promise<LicenseRow> {
    if (!licenseKey?.trim()) throw licenseErrors.emptyKey();
    if (!mispId?.trim()) throw licenseErrors.emptyMisp();
    const row = await this.find(licenseKey);
    if (!row || row.mispId !== mispId.trim()) throw licenseErrors.notFound();
    if (row.expiresAt <= this.clock.now()) throw licenseErrors.expired();
    if (row.status !== 'ACTIVE') throw licenseErrors.notUsable(row.status);
    return row;
  }

  /** Blocks every active key of a MISP (before a new one is issued in their place); how many. */
  async blockAllOf(mispId: string): Promise<number> {
    const blocked = await this.storage.blockActiveOf(mispId);
    if (blocked > 0) await this.events.publish('license.changed', { mispId, status: 'BLOCKED' });
    return blocked;
  }

  /** The newest key of a MISP, if any (its hint, status and expiry: the key itself is never kept). */
  async newestOf(mispId: string): Promise<LicenseView | null> {
    const row = await this.storage.newestOf(mispId);
    return row ? this.view(row) : null;
  }

  /** The row of a license key, whatever its state (partner management checks state and owner itself, in its own order). */
  find(licenseKey: string): Promise<LicenseRow | null> {
    return this.storage.byHash(this.hashOf(licenseKey.trim()));
  }

  async mapPermissions(licenseKey: string, mispId: string, permissions: string[]): Promise<LicenseView> {
    for (const permission of permissions) {
      if (!permission.trim()) throw licenseErrors.emptyPermission();
      if (!this.settings.permissions.includes(permission.trim())) throw licenseErrors.permissionNotAccepted(permission);
    }
    const row = await this.usable(licenseKey, mispId);
    const merged = [...new Set([...row.permissions, ...permissions.map((p) => p.trim())])];
    // A key carries accepted values only, so MAX_LICENSE_PERMISSIONS at most; beyond (values a former setting accepted) the new one is refused.
    if (merged.length > MAX_LICENSE_PERMISSIONS) throw licenseErrors.permissionNotAccepted(`more than ${MAX_LICENSE_PERMISSIONS} permissions on one key`);
    return this.view(await this.storage.setPermissions(row.keyHash, merged));
  }

  async permissions(licenseKey: string, mispId: string): Promise<string[]> {
    const row = await this.usable(licenseKey, mispId);
    if (!row.permissions.length) throw licenseErrors.noPermissions();
    return row.permissions;
  }

  async updateStatus(licenseKey: string, status: string): Promise<LicenseView> {
    if (!licenseKey?.trim()) throw licenseErrors.emptyKey();
    if (!(LICENSE_STATUSES as readonly string[]).includes(status)) throw licenseErrors.badStatus(status);
    const row = await this.find(licenseKey);
    if (!row) throw licenseErrors.notFound();
    const updated = await this.storage.setStatus(row.keyHash, status);
    await this.events.publish('license.changed', { mispId: updated.mispId, status });
    return this.view(updated);
  }

  /** License keys, newest first. */
  async list(page: PageArgs, filter?: LicenseFilter | null): Promise<Connection<LicenseView>> {
    const found = await this.storage.page(page, filter);
    return { ...found, edges: found.edges.map((edge) => ({ ...edge, node: this.view(edge.node) })) };
  }

  /** A MISP's keys as a list nested under each MISP of a page (`misps { licenseKeys }`): batched over the MISPs. */
  keysOfMisps(status: string | null): NestedList<LicenseView> {
    const keys = this.storage.keysOfMisps(status);
    const views = (rows: LicenseRow[]) => rows.map((row) => this.view(row));
    return {
      pages: async (mispIds, take) => new Map([...(await keys.pages(mispIds, take))].map(([id, rows]) => [id, views(rows)])),
      counts: keys.counts,
      after: async (mispId, page) => views(await keys.after(mispId, page)),
      key: (row) => row.id,
    };
  }

  async byIds(ids: readonly string[]): Promise<Map<string, LicenseView>> {
    return new Map((await this.storage.byIds(ids)).map((row) => [row.id, this.view(row)]));
  }

  /** How many keys each user generated, for a page of users in one grouped query. */
  issuedBy(userIds: readonly string[]): Promise<Map<string, number>> {
    return this.storage.countByCreator(userIds);
  }

  permissionValues(): string[] {
    return this.settings.permissions;
  }
}
