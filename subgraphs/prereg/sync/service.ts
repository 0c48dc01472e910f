import { randomUUID } from 'node:crypto';
import { capped } from '../../../lib/graph/capped.js';
import type { Jobs } from '../../../lib/jobs/types.js';
import type { Logger } from '../../../lib/log.js';
import type { ObjectStore } from '../../../lib/object-store/index.js';
import type { Clock } from '../../../lib/time.js';
import type { RegistrationProcessed } from '../../regproc/pipeline/events.js';
import { bookingErrors, requestErrors, syncErrors } from '../errors.js';
import { reachesCentre, takesIn, type Caller, type CentreReachPort } from './reach.js';
import type { SyncStorage } from './storage.js';
import { dayText, type ApplicationPlace, type ConsumedPreRegistrationsModel, type PreRegistrationSyncModel } from './types.js';

/** The most appointments one sync answers (a centre's kiosks times its slots times the days asked): refused beyond, never cut short. */
export const MAX_SYNCED_IDS = 10_000;
/** How many consumed applications one run of the move takes before it looks again. */
const MOVE_BATCH = 200;
/** A run of the move stops after this many batches: the next run goes on. */
const MOVE_BATCHES_PER_RUN = 10;
/** Who takes in any application, whatever its centre: the registration processor reports what its packets named. */
const ANY_CENTRE = ['REGISTRATION_PROCESSOR'];

export interface SyncServiceParts {
  store: Pick<SyncStorage, 'bookedAt' | 'places' | 'consumedAmong' | 'consume' | 'unmoved' | 'move'>;
  reach: CentreReachPort;
  /** the object keys of an application's documents (removed once it is moved) */
  documentKeys(preRegId: string): Promise<string[]>;
  objects: Pick<ObjectStore, 'delete'>;
  jobs: Pick<Jobs, 'enqueue'>;
  clock: Clock;
  logger: Logger;
}

/** A day of the Date scalar as the table keeps it: UTC midnight. */
const dayOf = (text: string) => new Date(`${text}T00:00:00.000Z`);

/**
 * The registration client's sync and what registration took in. A centre's
 * staff (and the admins of its zone) list the appointments of their centre;
 * consumed ids, reported by the registration processor or a centre, or named
 * by a processed packet, are stored once and their applications Consumed,
 * then moved whole into the consumed history by a job.
 */
export class SyncService {
  constructor(private readonly parts: SyncServiceParts) {}

  /**
   * POST /sync: the ids booked at a centre between two days, each with its
   * slot's start. PRG_CORE_REQ_020 when the days are reversed,
   * PRG_DATA_SYNC_009 for a centre master data does not have, KER-ATH-403
   * for another centre than the caller's, PRG_BOOK_RCI_032 when none is booked.
   */
  async list(caller: Caller, request: { registrationCenterId: string; fromDate: string; toDate?: string | null }): Promise<PreRegistrationSyncModel> {
    const { registrationCenterId: centreId } = request;
    const from = dayOf(request.fromDate);
    const to = request.toDate ? dayOf(request.toDate) : from;
    if (from > to) throw requestErrors.dateOrder();
    if (!(await this.parts.reach.centreExists(centreId))) throw syncErrors.centre(`no registration centre has the id ${centreId}`);
    if (!reachesCentre(await this.parts.reach.of(caller), centreId)) throw syncErrors.notYourCentre(`registration centre ${centreId}`);
    const rows = await capped(
      MAX_SYNCED_IDS,
      (take) => this.parts.store.bookedAt(centreId, from, to, take),
      () => requestErrors.invalid('toDate', `more than ${MAX_SYNCED_IDS} appointments fall between the two days: sync fewer days at once`),
    );
    if (!rows.length) throw bookingErrors.noneInRange();
    return {
      transactionId: randomUUID(),
      countOfPreRegIds: rows.length,
      preRegistrationIds: rows.map((row) => ({
        preRegistrationId: row.preRegId,
        appointmentDate: dayText(row.date),
        fromTimeSlot: row.fromTime,
        toTimeSlot: row.toTime,
      })),
    };
  }

  /**
   * POST /sync/consumedPreRegIds: each id registration took in is stored
   * once and its application Consumed. An id already stored is kept as it
   * was and answered again; an unknown id, or one the caller may not take
   * in (booked at a centre outside its reach), is skipped: the answer lists
   * and counts the ids held.
   */
  async report(caller: Caller, preRegIds: readonly string[]): Promise<ConsumedPreRegistrationsModel> {
    const ids = [...new Set(preRegIds)];
    const [places, consumed] = await Promise.all([this.parts.store.places(ids), this.parts.store.consumedAmong(ids)]);
    const mayTake = await this.takerOf(caller);
    const taken = places.filter((place) => !consumed.has(place.application.id) && mayTake(place)).map((place) => place.application.id);
    await this.consume(taken, caller.subject);
    const held = ids.filter((id) => consumed.has(id) || taken.includes(id));
    if (held.length < ids.length)
      this.parts.logger.info({ reported: ids.length, held: held.length }, 'consumed pre-registrations: unknown or unreachable ids skipped');
    return { transactionId: randomUUID(), countOfPreRegIds: held.length, preRegistrationIds: held };
  }

  /** Which applications a caller may report consumed: any for the processor; for staff and admins, those `takesIn` allows at a centre they reach. */
  private async takerOf(caller: Caller): Promise<(place: ApplicationPlace) => boolean> {
    if (caller.roles.some((role) => ANY_CENTRE.includes(role))) return () => true;
    const reach = await this.parts.reach.of(caller);
    return (place) => reach.centreIds.size > 0 && takesIn(place, (centreId) => reachesCentre(reach, centreId));
  }

  /** Stores consumed ids and marks their applications, with the job that moves them, in one transaction. */
  private async consume(preRegIds: string[], by: string): Promise<void> {
    if (!preRegIds.length) return;
    await this.parts.store.consume(preRegIds, by, this.parts.clock.now(), (tx) => this.parts.jobs.enqueue('prereg.consumed.move', { preRegIds }, { tx }));
  }

  /** A processed registration (event `registration.processed`): the consumption of the id its packet names, enqueued in the outcome's transaction. */
  async registrationProcessed(event: RegistrationProcessed): Promise<void> {
    const preRegId = event.preRegistrationId;
    if (!preRegId || preRegId.length > 64) return;
    await this.parts.jobs.enqueue('prereg.consumed.registration', { preRegId, rid: event.rid, centreId: event.centreId }, { tx: event.tx });
  }

  /**
   * Consumes the application a processed packet names, as a report does,
   * when the packet's centre may take it in (a booked application only at
   * its appointment's centre); otherwise it is left as it is, and logged.
   */
  async consumeRegistered(registered: { preRegId: string; rid: string; centreId: string }): Promise<boolean> {
    const { preRegId, rid, centreId } = registered;
    const [[place], consumed] = await Promise.all([this.parts.store.places([preRegId]), this.parts.store.consumedAmong([preRegId])]);
    if (consumed.has(preRegId)) return false;
    if (!place) {
      this.parts.logger.info({ rid }, 'a processed packet names a pre-registration id that has no application: nothing consumed');
      return false;
    }
    if (!takesIn(place, (booked) => booked === centreId)) {
      this.parts.logger.warn({ rid, preRegId, centreId }, 'a processed packet names an application booked at another centre: not consumed');
      return false;
    }
    await this.consume([preRegId], rid);
    return true;
  }

  /**
   * Moves consumed applications into the consumed history: the given ids
   * (a report's), or every one not moved yet (the recurring run). Their
   * documents' files are removed first: no row names them once the
   * application is moved, and a run cut short leaves rows, which the next
   * run moves, never files no row names. Returns how many were moved.
   */
  async moveConsumed(preRegIds?: readonly string[]): Promise<number> {
    if (preRegIds) {
      const consumed = await this.parts.store.consumedAmong(preRegIds);
      return this.moveEach(preRegIds.filter((id) => consumed.has(id)));
    }
    let moved = 0;
    for (let batch = 0; batch < MOVE_BATCHES_PER_RUN; batch++) {
      const ids = await this.parts.store.unmoved(MOVE_BATCH);
      moved += await this.moveEach(ids);
      if (ids.length < MOVE_BATCH) break;
    }
    return moved;
  }

  private async moveEach(preRegIds: readonly string[]): Promise<number> {
    let moved = 0;
    for (const preRegId of preRegIds) {
      for (const key of await this.parts.documentKeys(preRegId)) await this.parts.objects.delete(key);
      if (await this.parts.store.move(preRegId, this.parts.clock.now())) moved++;
    }
    return moved;
  }
}
