import { createPublicKey, type KeyObject } from 'node:crypto';
import { decodeBase64Any } from '../../../lib/crypto/envelope.js';
import { PlatformError } from '../../../lib/errors.js';
import type { Logger } from '../../../lib/log.js';
import type { Clock } from '../../../lib/time.js';
import { applicationErrors, syncErrors } from '../errors.js';
import { STATUS, type ApplicationStatus } from '../statuses.js';
import { archiveZip, sealForMachine, type ArchiveDocument } from './archive.js';
import { reachesCentre, reachesMachine, takesIn, type Caller, type CentreReachPort, type PlacedMachine } from './reach.js';
import type { SyncStorage } from './storage.js';
import { dayText, type ApplicationPlace, type PreRegistrationArchiveModel, type SyncDocument } from './types.js';

/** A machine as master data places it: its name (its key's), and its active row and centre. */
export interface MachinePlace {
  /** whether master data has a live machine of this id */
  known: boolean;
  machine: (PlacedMachine & { name: string }) | null;
  /** its live centre; null when it is at none */
  centreId: string | null;
}

export interface ArchiveParts {
  store: Pick<SyncStorage, 'places' | 'consumedAmong'>;
  reach: Pick<CentreReachPort, 'of'>;
  /** the applicant's identity, opened (PRG_PAM_CORE_010/012 when it does not open) */
  identityOf(place: ApplicationPlace): Promise<Record<string, unknown>>;
  /** the application's documents with their bytes, opened */
  documentsOf(preRegId: string): Promise<SyncDocument[]>;
  /** a document type's name in a language (its code when master data has none) */
  typeName(code: string, langCode: string): Promise<string>;
  machineWithId(machineId: string): Promise<MachinePlace>;
  /** the machine's public key as the key manager maps it (base64 SPKI DER), null when it has none the caller may read */
  machineKey(caller: Caller, machineName: string): Promise<string | null>;
  /** moves the application's status (whether it moved) */
  moveStatus(preRegId: string, from: readonly ApplicationStatus[], to: ApplicationStatus, by: string, at: Date): Promise<boolean>;
  clock: Clock;
  logger: Logger;
}

/** Statuses an application a registration client fetches without an appointment (a walk-in) leaves for Prefetched (MOSIP's rule). */
const PREFETCHABLE: readonly ApplicationStatus[] = [STATUS.incomplete, STATUS.pending];
/** Statuses whose appointment the registration client is told of (MOSIP's: Booked and Expired). */
const WITH_APPOINTMENT: readonly string[] = [STATUS.booked, STATUS.expired];

/**
 * One pre-registration for the registration client (GET /sync/{id}/{machineId}),
 * sealed for the machine, or for an admin unsealed (GET /sync/{id}): its
 * appointment and a ZIP of its identity and documents (archive.ts).
 */
export class ArchiveFetch {
  constructor(private readonly parts: ArchiveParts) {}

  /**
   * For a machine of a centre the caller reaches: PRG_DATA_SYNC_018 for a
   * machine unknown, inactive or without a key, PRG_DATA_SYNC_009 for one at
   * no centre, KER-ATH-403 for another centre's; then the application
   * (PRG_PAM_APP_005, PRG_DATA_SYNC_022), booked at the machine's centre
   * when it is Booked (PRG_DATA_SYNC_009). A walk-in's application
   * (incomplete or waiting for an appointment) becomes Prefetched.
   */
  async forMachine(caller: Caller, preRegId: string, machineId: string): Promise<PreRegistrationArchiveModel> {
    const { machine, centreId, publicKey } = await this.machine(caller, machineId);
    const place = await this.live(preRegId);
    if (!takesIn(place, (booked) => booked === centreId))
      throw syncErrors.centre('the application is booked at another registration centre than the machine’s');
    const archive = await this.archive(place, centreId);
    const sealed = sealForMachine(publicKey, archive.zip);
    const walkIn = PREFETCHABLE.includes(place.application.statusCode);
    if (walkIn) await this.parts.moveStatus(preRegId, PREFETCHABLE, STATUS.prefetched, caller.subject, this.parts.clock.now());
    this.parts.logger.info({ preRegId, machineId: machine.name, prefetched: walkIn }, 'pre-registration fetched by a registration client');
    return { ...archive.model, zipBytes: sealed.toString('base64'), encrypted: true };
  }

  /** For an admin of its appointment's centre, unsealed: PRG_PAM_APP_005, PRG_DATA_SYNC_022, PRG_DATA_SYNC_016 without an appointment, KER-ATH-403. */
  async forAdmin(caller: Caller, preRegId: string): Promise<PreRegistrationArchiveModel> {
    const place = await this.live(preRegId);
    if (!place.booking) throw syncErrors.noBookings();
    if (!reachesCentre(await this.parts.reach.of(caller), place.booking.centreId)) throw syncErrors.notYourCentre('the application’s appointment');
    const archive = await this.archive(place, place.booking.centreId);
    return { ...archive.model, zipBytes: archive.zip.toString('base64'), encrypted: false };
  }

  /** A live application that registration has not taken in. */
  private async live(preRegId: string): Promise<ApplicationPlace> {
    const [[place], consumed] = await Promise.all([this.parts.store.places([preRegId]), this.parts.store.consumedAmong([preRegId])]);
    if (consumed.has(preRegId) || place?.application.statusCode === STATUS.consumed) throw syncErrors.consumed();
    if (!place) throw applicationErrors.notFound();
    return place;
  }

  /** The machine, its centre and key, checked in that order. */
  private async machine(caller: Caller, machineId: string): Promise<{ machine: PlacedMachine & { name: string }; centreId: string; publicKey: KeyObject }> {
    const { known, machine, centreId } = await this.parts.machineWithId(machineId);
    if (!machine) throw syncErrors.machineKey(known ? `machine ${machineId} is not active` : `no machine has the id ${machineId}`);
    if (!centreId) throw syncErrors.centre(`machine ${machineId} is at no registration centre`);
    if (!reachesMachine(await this.parts.reach.of(caller), machine)) throw syncErrors.notYourCentre(`machine ${machineId}`);
    const stored = await this.parts.machineKey(caller, machine.name);
    if (!stored) throw syncErrors.machineKey(`machine ${machineId} has no public key mapped`);
    return { machine, centreId, publicKey: createPublicKey({ key: decodeBase64Any(stored), format: 'der', type: 'spki' }) };
  }

  /** The ZIP and what the answer says of the appointment (only for Booked and Expired, as MOSIP tells it). */
  private async archive(
    place: ApplicationPlace,
    centreId: string,
  ): Promise<{ zip: Buffer; model: Omit<PreRegistrationArchiveModel, 'zipBytes' | 'encrypted'> }> {
    const { application, booking } = place;
    const appointment = booking && WITH_APPOINTMENT.includes(application.statusCode) ? booking : null;
    const identity = await this.identity(place);
    const documents = await this.parts.documentsOf(application.id);
    const named: ArchiveDocument[] = await Promise.all(
      documents.map(async (document) => ({ ...document, typeName: await this.parts.typeName(document.docTypeCode, document.langCode) })),
    );
    return {
      zip: archiveZip(identity, named, this.parts.clock.now()),
      model: {
        preRegistrationId: application.id,
        registrationCenterId: appointment?.centreId ?? centreId,
        appointmentDate: appointment ? dayText(appointment.date) : null,
        fromTimeSlot: appointment?.fromTime ?? null,
        toTimeSlot: appointment?.toTime ?? null,
        zipFilename: application.id,
      },
    };
  }

  /** The identity; one that does not open (decryption, integrity) is PRG_DATA_SYNC_007, its cause logged. */
  private async identity(place: ApplicationPlace): Promise<Record<string, unknown>> {
    try {
      return await this.parts.identityOf(place);
    } catch (error) {
      if (!(error instanceof PlatformError) || !['PRG_PAM_CORE_010', 'PRG_PAM_CORE_012'].includes(error.code)) throw error;
      this.parts.logger.warn({ preRegId: place.application.id, code: error.code }, 'an application’s demographic record does not open');
      throw syncErrors.noDemographic();
    }
  }
}
