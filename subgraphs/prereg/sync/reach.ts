import { CentreReach, type Caller, type PlacedMachine, type Reach } from '../../masterdata/centres/reach.js';
import { STATUS } from '../statuses.js';
import type { ApplicationPlace } from './types.js';

/** Who calls, as master data's reach reads it: the token's subject and roles. */
export type { Caller, PlacedMachine, Reach };

/** Master data's answer to who reaches which centres (its staff, the admins of its zones), and whether a centre exists. */
export interface CentreReachPort {
  of(caller: Caller): Promise<Reach>;
  centreExists(centreId: string): Promise<boolean>;
}

/** Whether a caller's reach holds a centre: master data's rule (the centre it works at, the centres of the zones it administers). */
export const reachesCentre = (reach: Reach, centreId: string): boolean => CentreReach.reachesCentre(reach, centreId);

/** Whether a caller's reach holds a machine: master data's rule (at a centre it reaches, or in one of an admin's zones). */
export const reachesMachine = (reach: Reach, machine: PlacedMachine): boolean => CentreReach.reachesMachine(reach, machine);

/**
 * Whether a centre may take an application in (fetch it for a registration,
 * consume it): one Booked only at its appointment's centre; any other — a
 * walk-in without appointment, or one whose appointment expired or was
 * cancelled — at any centre, as MOSIP lets a walk-in be fetched anywhere.
 */
export function takesIn(place: ApplicationPlace, atCentre: (centreId: string) => boolean): boolean {
  if (place.application.statusCode !== STATUS.booked) return true;
  return place.booking !== null && atCentre(place.booking.centreId);
}
