import { randomInt } from 'node:crypto';
import type { EventBus } from '../../../lib/events.js';
import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import type { Clock } from '../../../lib/time.js';
import type { LicenseService } from '../../license/service.js';
import { partnerErrors } from '../errors.js';
import { NAME_SEARCH_LIMIT, wholeList } from '../rows.js';
import type { PartnerSettings } from '../settings.js';
import { mispName, mispNameKey } from './names.js';
import type { MispChanges, MispFilter, MispRow, MispsStorage } from './storage.js';

export type { MispFilter, MispRow };

export interface MispInput {
  organizationName: string;
  contactNumber?: string | null;
  emailId: string;
  address: string;
}

/** A MISP's license key as approval and regeneration hand it out: the key itself, once. */
export interface IssuedLicense {
  mispId: string;
  mispLicenseKey: string;
  mispLicenseKeyExpiry: Date;
  mispLicenseKeyStatus: string;
}

export const MISP_DECISIONS = ['Approved', 'Rejected'] as const;
/** A MISP waits for its decision in this status. */
const WAITING = 'Active';

/** What MISPs need of the license key manager. */
export type MispLicenses = Pick<LicenseService, 'generate' | 'find' | 'blockAllOf' | 'newestOf'>;

/**
 * MISPs (MOSIP's MISP service): created Active, then approved, which issues
 * a license key through the license key manager (the key stays there; a
 * MISP refers to its keys), or rejected. A MISP can be switched off and on;
 * a decision or a switch is published (`misp.changed`) once written.
 */
export class MispService {
  constructor(
    private readonly storage: MispsStorage,
    private readonly clock: Clock,
    private readonly license: MispLicenses,
    private readonly settings: Pick<PartnerSettings, 'mispLicenseDays'>,
    private readonly events: Pick<EventBus, 'publish'>,
  ) {}

  /** MOSIP's MISP ids are numeric: 6 digits, drawn until unused. */
  private async newId(): Promise<string> {
    for (;;) {
      const id = String(randomInt(100000, 1000000));
      if (!(await this.storage.idTaken(id))) return id;
    }
  }

  /** A name as kept, with its key: one MISP per key, which the unique index keeps however requests race (names.ts). */
  private named(name: string): { organizationName: string; nameKey: string } {
    const organizationName = mispName(name);
    if (!organizationName) throw partnerErrors.invalid('organizationName', 'a name with visible characters');
    return { organizationName, nameKey: mispNameKey(organizationName) };
  }

  private stamp(by: string) {
    return { by, at: this.clock.now() };
  }

  async create(by: string, input: MispInput): Promise<MispRow> {
    const { organizationName, nameKey } = this.named(input.organizationName);
    if (await this.storage.nameKeyTaken(nameKey)) throw partnerErrors.mispNameTaken(organizationName);
    const created = await this.storage.create({
      id: await this.newId(),
      organizationName,
      nameKey,
      contactNumber: input.contactNumber ?? null,
      emailId: input.emailId,
      address: input.address,
      status: WAITING,
      createdBy: by,
      createdAt: this.clock.now(),
    });
    // Two registrations of one name racing: the unique index lets one through.
    if (!created) throw partnerErrors.mispNameTaken(organizationName);
    return created;
  }

  async get(id: string): Promise<MispRow> {
    const row = await this.storage.byId(id);
    if (!row) throw partnerErrors.mispNotFound(id);
    return row;
  }

  /** A MISP by id, or null (validatePartnerMisp's link). */
  find(id: string): Promise<MispRow | null> {
    return this.storage.byId(id);
  }

  private async issue(by: string, mispId: string): Promise<IssuedLicense> {
    const expiry = new Date(this.clock.now().getTime() + this.settings.mispLicenseDays * 86_400_000);
    const key = await this.license.generate({ subject: by }, mispId, expiry.toISOString());
    return { mispId, mispLicenseKey: key.licenseKey!, mispLicenseKeyExpiry: key.expiresAt, mispLicenseKeyStatus: 'Active' };
  }

  /** Approves (a license key is issued) or rejects a MISP still waiting; a decided MISP is not decided again. */
  async decide(by: string, id: string, decision: string): Promise<{ misp: MispRow; license: IssuedLicense | null }> {
    if (!(MISP_DECISIONS as readonly string[]).includes(decision)) throw partnerErrors.invalid('mispStatus', 'Approved or Rejected');
    if (!(await this.storage.moveStatus(id, WAITING, decision, this.stamp(by)))) {
      const row = await this.get(id);
      throw partnerErrors.invalid('mispStatus', `MISP ${id} is already ${row.status}`);
    }
    // Published before the license is issued: the decision stands even if issuing fails.
    await this.events.publish('misp.changed', { mispId: id });
    const misp = await this.get(id);
    return { misp, license: decision === 'Approved' ? await this.issue(by, id) : null };
  }

  /** Switches a MISP on or off (PATCH /misps/{mispId}). */
  async setActive(by: string, id: string, status: string): Promise<MispRow> {
    if (status !== 'Active' && status !== 'De-Active') throw partnerErrors.invalid('mispStatus', 'Active or De-Active');
    await this.get(id);
    const row = await this.storage.setActive(id, status === 'Active', this.stamp(by));
    await this.events.publish('misp.changed', { mispId: id });
    return row;
  }

  async update(by: string, id: string, input: { [K in keyof MispInput]?: MispInput[K] | null }): Promise<MispRow> {
    const { organizationName, ...rest } = input;
    const name = organizationName != null ? this.named(organizationName) : undefined;
    const changes: MispChanges = { ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value != null)), ...name };
    if (!Object.keys(changes).length) throw partnerErrors.mispNothingToUpdate();
    await this.get(id);
    const row = await this.storage.update(id, changes, this.stamp(by));
    // Another MISP's name, or one that differs from it only in case, width, spacing or invisible characters.
    if (!row) throw partnerErrors.mispNameTaken(name?.organizationName ?? '');
    return row;
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

  /** Every MISP, by name (GET /misps): at most WHOLE_LIST_LIMIT, refused beyond. */
  all(): Promise<MispRow[]> {
    return wholeList('MISPs', 'misps', (take) => this.storage.all(take));
  }

  /** MISPs whose name contains the text (GET /misps/name/{name}), compared as names are kept: at most NAME_SEARCH_LIMIT, refused beyond (a longer text narrows it). */
  byName(name: string): Promise<MispRow[]> {
    const text = mispName(name);
    return wholeList(
      'MISPs whose name contains the text',
      'misps(filter: {nameContains})',
      (take) => this.storage.nameContaining(text, take),
      NAME_SEARCH_LIMIT,
    );
  }

  list(page: PageArgs, filter?: MispFilter | null): Promise<Connection<MispRow>> {
    return this.storage.page(page, filter?.nameContains ? { ...filter, nameContains: mispName(filter.nameContains) } : filter);
  }

  async byIds(ids: readonly string[]): Promise<Map<string, MispRow>> {
    return new Map((await this.storage.byIds(ids)).map((row) => [row.id, row]));
  }
}
