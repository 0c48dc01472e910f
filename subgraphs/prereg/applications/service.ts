import type { Connection, PageArgs } from '../../../lib/graph/connection.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Logger } from '../../../lib/log.js';
import type { ObjectStore } from '../../../lib/object-store/index.js';
import { generateNumber, type NumberRules } from '../../../lib/numbers.js';
import type { Clock } from '../../../lib/time.js';
import type { IdSchemaService } from '../../masterdata/idschema/service.js';
import { fieldsOf } from '../../masterdata/idschema/service.js';
import type { PreregCipher } from '../cipher.js';
import type { PreregConfiguration } from '../configuration/service.js';
import { applicationErrors, requestErrors } from '../errors.js';
import { isStatus, LOCKED, STATUS, type ApplicationStatus } from '../statuses.js';
import { identityProblem } from './identity.js';
import type { ApplicationStorage, StoredApplication } from './storage.js';
import type { ApplicantContact, ApplicationRow, Caller, Purpose } from './types.js';

/** Who reads any application (MOSIP's PRE_REGISTRATION_ADMIN; the platform's administrator). */
const READERS_OF_ALL = ['PRE_REGISTRATION_ADMIN', 'GLOBAL_ADMIN'];
/** Statuses whose application is not deleted: it expired unused, or a centre holds or took it. */
const NOT_DELETED: readonly ApplicationStatus[] = [STATUS.expired, STATUS.prefetched, STATUS.consumed];
const PRID_TRIES = 5;

/** Whether a caller reaches an application for a purpose: its applicant always; an admin of pre-registration to read it. */
const mayReach = (caller: Caller, row: { createdBy: string }, purpose: Purpose) =>
  row.createdBy === caller.subject || (purpose === 'read' && caller.roles.some((role) => READERS_OF_ALL.includes(role)));
/** MOSIP's page size of the applicant's list (mosip.pregistration.pagesize). */
export const PAGE_SIZE = 20;

export interface ApplicationInput {
  langCode: string;
  identity: Record<string, unknown>;
}

/** An application as its applicant reads it: the record and the identity they gave. */
export interface ApplicationRecord extends ApplicationRow {
  identity: Record<string, unknown>;
}

/** Where a demographic value is bound: moved to another application, it does not decrypt. */
const demographicContext = (id: string) => `prereg.demographic:${id}`;

/**
 * Applications: an applicant creates, reads, changes and deletes their own;
 * pre-registration's administrators read any. The identity is validated
 * against the published ID schema and the configuration's rules, and kept
 * sealed (AES-256-GCM under pre-registration's keys) with its HMAC, which is
 * checked on every read.
 */
export class ApplicationsService {
  constructor(
    private readonly store: ApplicationStorage,
    private readonly cipher: PreregCipher,
    private readonly idSchemas: Pick<IdSchemaService, 'validateIdentity' | 'latest'>,
    private readonly configuration: PreregConfiguration,
    private readonly objects: Pick<ObjectStore, 'delete'>,
    private readonly pridRules: NumberRules,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The application as the caller may act on it: PRG_PAM_APP_005 when there is none, PRG_PAM_APP_017 when it is another's. */
  async reach(caller: Caller, preRegId: string, purpose: Purpose): Promise<ApplicationRow> {
    return this.reachStored(caller, preRegId, purpose);
  }

  private async reachStored(caller: Caller, preRegId: string, purpose: Purpose): Promise<StoredApplication> {
    const row = await this.store.byId(preRegId);
    if (!row) throw applicationErrors.notFound();
    if (!mayReach(caller, row, purpose)) throw applicationErrors.notOwned();
    return row;
  }

  /** The applications of these ids the caller may read, by id; the others are left out. */
  async readable(caller: Caller, ids: readonly string[]): Promise<Map<string, ApplicationRow>> {
    const rows = await this.store.byIds(ids);
    return new Map(rows.filter((row) => mayReach(caller, row, 'read')).map((row) => [row.id, row]));
  }

  /** Applications by id, unchecked: for loaders of rows the caller has reached. */
  byIds(ids: readonly string[]): Promise<ApplicationRow[]> {
    return this.store.byIds(ids);
  }

  async create(caller: Caller, input: ApplicationInput): Promise<ApplicationRecord> {
    await this.check(input);
    const now = this.clock.now();
    const statusCode = (await this.mandatoryCategories()).length ? STATUS.incomplete : STATUS.pending;
    for (let attempt = 0; attempt < PRID_TRIES; attempt++) {
      const id = generateNumber(this.pridRules);
      // Sealed for its own id: the context binds the value to its row.
      const sealed = this.seal(id, input.identity);
      const row = { id, createdBy: caller.subject, langCode: input.langCode, statusCode, createdAt: now, ...sealed };
      if (await this.store.create(row)) return { ...row, bookingType: 'NEW_PREREGISTRATION', updatedBy: null, updatedAt: null, identity: input.identity };
    }
    this.logger.error({ tries: PRID_TRIES }, 'no free pre-registration id was generated: widen platform.kernel.prid.length');
    throw applicationErrors.noPrid();
  }

  async get(caller: Caller, preRegId: string): Promise<ApplicationRecord> {
    const row = await this.reachStored(caller, preRegId, 'read');
    return { ...strip(row), identity: await this.open(row) };
  }

  async update(caller: Caller, preRegId: string, input: ApplicationInput): Promise<ApplicationRecord> {
    const row = await this.reachStored(caller, preRegId, 'change');
    if (LOCKED.includes(row.statusCode)) throw applicationErrors.updateRefused(row.statusCode);
    await this.check(input);
    const now = this.clock.now();
    const change = { ...this.seal(preRegId, input.identity), langCode: input.langCode, updatedBy: caller.subject, updatedAt: now };
    // Written only while the status still allows it: a booking made meanwhile wins.
    if (!(await this.store.update(preRegId, change, LOCKED))) throw applicationErrors.updateRefused('a booked');
    return { ...strip(row), langCode: input.langCode, updatedBy: caller.subject, updatedAt: now, identity: input.identity };
  }

  /** Deletes it with its documents and appointment (the slot's place returns); Expired, Prefetched and Consumed ones stay (PRG_PAM_APP_003). */
  async delete(caller: Caller, preRegId: string): Promise<{ preRegistrationId: string; deletedBy: string; deletedDateTime: Date }> {
    const row = await this.reachStored(caller, preRegId, 'change');
    if (NOT_DELETED.includes(row.statusCode)) throw applicationErrors.deleteRefused(row.statusCode);
    const keys = await this.store.documentKeys(preRegId);
    if (!(await this.store.delete(preRegId, NOT_DELETED))) throw applicationErrors.deleteRefused('its current');
    // The rows are gone: the sealed files follow (a failure leaves unreadable ciphertext, logged).
    for (const key of keys)
      await this.objects.delete(key).catch((error: unknown) => this.logger.warn({ err: error, preRegId }, 'a deleted application left a document file'));
    return { preRegistrationId: preRegId, deletedBy: caller.subject, deletedDateTime: this.clock.now() };
  }

  /** One page of the applicant's applications (PRG_PAM_APP_016 for a page that is not a number, PRG_PAM_APP_005 when there are none). */
  async page(caller: Caller, pageIndex: number) {
    if (!Number.isInteger(pageIndex) || pageIndex < 0) throw applicationErrors.badPage();
    const { rows, total } = await this.store.page(caller.subject, pageIndex, PAGE_SIZE);
    if (!total) throw applicationErrors.notFound();
    return { rows, total, pageIndex };
  }

  /** The caller's own applications as a connection (the portal's viewer): none for another viewer's id. */
  connectionOf(caller: Caller, viewerId: string, args: PageArgs): Promise<Connection<ApplicationRow>> {
    return this.store.connectionOf(viewerId === caller.subject ? caller.subject : '\u0000', args);
  }

  /** The identity of applications the caller reached, opened. */
  async identityOf(row: ApplicationRow): Promise<Record<string, unknown>> {
    const stored = await this.store.byId(row.id);
    if (!stored) throw applicationErrors.notFound();
    return this.open(stored);
  }

  /** Where an applicant's notices go: the name, e-mail and phone of their application. */
  async contactOf(row: ApplicationRow): Promise<ApplicantContact> {
    const identity = await this.identityOf(row);
    const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
    const names = Array.isArray(identity.fullName) ? (identity.fullName as { language?: string; value?: unknown }[]) : [];
    const name = names.find((entry) => entry.language === row.langCode) ?? names[0];
    return { name: text(name?.value), email: text(identity.email), phone: text(identity.phone), langCode: row.langCode };
  }

  /**
   * The applicant moves their application on (MOSIP's PUT status): only to
   * Pending_Appointment, once every mandatory document is in (PRG_PAM_APP_023);
   * the other statuses follow from booking and registration.
   */
  async setStatus(caller: Caller, preRegId: string, statusCode: string): Promise<ApplicationRow> {
    const row = await this.reachStored(caller, preRegId, 'change');
    if (!isStatus(statusCode) || statusCode !== STATUS.pending) throw applicationErrors.badStatus(statusCode);
    if (row.statusCode === STATUS.pending) return strip(row);
    if (row.statusCode !== STATUS.incomplete) throw applicationErrors.submitRefused(`it is ${row.statusCode}`);
    const missing = await this.missingCategories(preRegId);
    if (missing.length) throw applicationErrors.submitRefused(`documents of ${missing.join(', ')} are required`);
    await this.store.moveStatus(preRegId, [STATUS.incomplete], STATUS.pending, caller.subject, this.clock.now());
    return { ...strip(row), statusCode: STATUS.pending };
  }

  /** After a document came or went: an application holding every mandatory category waits for an appointment, one missing any is incomplete. */
  async documentsChanged(preRegId: string, by: string): Promise<void> {
    const complete = !(await this.missingCategories(preRegId)).length;
    const [from, to] = complete ? [STATUS.incomplete, STATUS.pending] : [STATUS.pending, STATUS.incomplete];
    await this.store.moveStatus(preRegId, [from], to, by, this.clock.now());
  }

  /**
   * The document categories an application must hold before it is booked: the
   * configuration's `preregistration.documentupload.mandatory.categories` and
   * the published ID schema's required document fields.
   */
  async mandatoryCategories(): Promise<string[]> {
    const configured = this.configuration.rules().mandatoryCategories;
    const schema = await this.idSchemas.latest();
    const required = fieldsOf(schema).flatMap((field) => (field.type === 'documentType' && field.required && field.subType ? [field.subType] : []));
    return [...new Set([...configured, ...required])];
  }

  private async missingCategories(preRegId: string): Promise<string[]> {
    const held = new Set(await this.store.documentCategories(preRegId));
    return (await this.mandatoryCategories()).filter((category) => !held.has(category));
  }

  private async check(input: ApplicationInput): Promise<void> {
    const { languages } = this.configuration.rules();
    if (!languages.includes(input.langCode)) throw requestErrors.language(input.langCode);
    const { problems } = await this.idSchemas.validateIdentity(input.identity).catch((error: unknown) => {
      if (!(error instanceof PlatformError) || error.code !== 'KER-SCH-007') throw error;
      // No published schema of the version named (or none at all: the operator's to publish).
      if (input.identity.IDSchemaVersion !== undefined) throw applicationErrors.identityInvalid('IDSchemaVersion', 'no published ID schema has this version');
      throw applicationErrors.noSchema();
    });
    const problem = identityProblem(input.identity, problems, (key) => this.configuration.value(key));
    if (problem) throw problem;
  }

  private seal(id: string, identity: Record<string, unknown>): { demographic: string; demographicHash: string } {
    const plain = Buffer.from(JSON.stringify(identity), 'utf8');
    const context = demographicContext(id);
    return { demographic: this.cipher.encrypt(plain, context), demographicHash: this.cipher.hash(plain, context) };
  }

  /** The identity, decrypted and checked against its HMAC (PRG_PAM_CORE_012, PRG_PAM_CORE_010). */
  private async open(row: StoredApplication): Promise<Record<string, unknown>> {
    const context = demographicContext(row.id);
    const plain = await this.cipher.decrypt(row.demographic, context);
    if (this.cipher.hash(plain, context) !== row.demographicHash) throw requestErrors.hash('metadata');
    return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  }
}

/** The row without its sealed data. */
function strip(row: StoredApplication): ApplicationRow {
  const { demographic: _demographic, demographicHash: _hash, ...rest } = row;
  return rest;
}
