import type { Machine, PrismaClient, RegistrationCenter } from '../../../generated/prisma/client.js';
import { LIVE } from '../audit.js';

export type MachineRow = Machine;
export type CentreRow = RegistrationCenter;

/**
 * The entities whose rows master data answers to those that keep a copy of
 * it (registration clients through sync data; pre-registration), by MOSIP
 * 1.2's client settings names, in the order sync data sends them.
 */
export const CHANGE_ENTITIES = [
  'Language',
  'LocationHierarchy',
  'Location',
  'DocumentCategory',
  'DocumentType',
  'ValidDocument',
  'ApplicantValidDocument',
  'Holiday',
  'DeviceType',
  'DeviceSpecification',
  'Device',
  'RegistrationCenter',
  'RegistrationCenterWorkingDay',
  'Machine',
  'RegistrationCenterUser',
  'IdSchema',
] as const;
export type ChangeEntity = (typeof CHANGE_ENTITIES)[number];

/** Which rows of an entity: every live one (null), or every one changed in (since, until], deleted ones included. */
export type ChangeWindow = { since: Date; until: Date } | null;

/**
 * Where the reader stands: the rows that belong to a place (a centre's
 * holidays, devices, working days, users, the centre and machine themselves)
 * are only its own; the shared ones (languages, locations, documents, device
 * types and specifications, the ID schema) do not depend on it.
 */
export interface ChangePlace {
  centre: Pick<CentreRow, 'id' | 'holidayLocationCode'>;
  machine: Pick<MachineRow, 'id'>;
}

/** Master data's tables as the changes read sees them: one entity's rows in a window, for a place. */
export interface ChangesStore {
  rows(entity: ChangeEntity, window: ChangeWindow, place: ChangePlace): Promise<object[]>;
}

/** Where a registration client stands, as the place reads see it. */
export interface ClientPlaceStore {
  /** the live rows of the machines of a name, by language */
  machinesNamed(name: string): Promise<MachineRow[]>;
  /** the live rows of the machine of an id, by language */
  machinesWithId(id: string): Promise<MachineRow[]>;
  /** a live centre's row in its first language (by language code) */
  centre(id: string): Promise<CentreRow | null>;
  /** the users actively mapped to a centre (live mappings), by user id, at most `take` */
  activeStaff(regCenterId: string, take: number): Promise<string[]>;
}

/** A window as Prisma's condition: `{ isDeleted: false }`, or `{ changedAt: { gt: since, lte: until } }` (every write moves changedAt, a soft delete too). */
type Changed = typeof LIVE | { changedAt: { gt: Date; lte: Date } };

type Read = (prisma: PrismaClient, changed: Changed, place: ChangePlace) => Promise<object[]>;

/** Each entity's rows: its table, condition and order (what clients receive, so every one stays exactly as it is). */
const READS: Record<ChangeEntity, Read> = {
  Language: (prisma, changed) => prisma.language.findMany({ where: changed, orderBy: { code: 'asc' } }),
  LocationHierarchy: (prisma, changed) => prisma.locationHierarchyLevel.findMany({ where: changed, orderBy: [{ level: 'asc' }, { langCode: 'asc' }] }),
  Location: (prisma, changed) => prisma.location.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] }),
  DocumentCategory: (prisma, changed) => prisma.documentCategory.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] }),
  DocumentType: (prisma, changed) => prisma.documentType.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] }),
  ValidDocument: (prisma, changed) => prisma.validDocument.findMany({ where: changed, orderBy: [{ docCategoryCode: 'asc' }, { docTypeCode: 'asc' }] }),
  ApplicantValidDocument: (prisma, changed) => prisma.applicantValidDocument.findMany({ where: changed }),
  // the holidays of the centre's holiday location
  Holiday: (prisma, changed, { centre }) =>
    prisma.holiday.findMany({ where: { ...changed, locationCode: centre.holidayLocationCode }, orderBy: [{ holidayDate: 'asc' }, { langCode: 'asc' }] }),
  DeviceType: (prisma, changed) => prisma.deviceType.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] }),
  DeviceSpecification: (prisma, changed) => prisma.deviceSpecification.findMany({ where: changed, orderBy: [{ id: 'asc' }, { langCode: 'asc' }] }),
  Device: (prisma, changed, { centre }) =>
    prisma.device.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: [{ id: 'asc' }, { langCode: 'asc' }] }),
  RegistrationCenter: (prisma, changed, { centre }) =>
    prisma.registrationCenter.findMany({ where: { ...changed, id: centre.id }, orderBy: { langCode: 'asc' } }),
  RegistrationCenterWorkingDay: (prisma, changed, { centre }) =>
    prisma.registrationCenterWorkingDay.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: [{ langCode: 'asc' }, { dayCode: 'asc' }] }),
  Machine: (prisma, changed, { machine }) => prisma.machine.findMany({ where: { ...changed, id: machine.id }, orderBy: { langCode: 'asc' } }),
  RegistrationCenterUser: (prisma, changed, { centre }) =>
    prisma.registrationCenterUser.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: { userId: 'asc' } }),
  // The schema in force: the latest published one (sent again only when it changed).
  IdSchema: (prisma, changed) => prisma.idSchema.findMany({ where: { ...changed, status: 'PUBLISHED' }, orderBy: { idVersion: 'desc' }, take: 1 }),
};

/**
 * Master data's rows as those that keep a copy read them, across the areas'
 * tables (languages, locations, documents, devices, centres, the ID schema):
 * a read of each table by the audit's `changedAt`, writing nothing. The only
 * code that reads them for that purpose; each area's own storage keeps its writes.
 */
export class ChangesStorage implements ChangesStore {
  constructor(private readonly prisma: PrismaClient) {}

  rows(entity: ChangeEntity, window: ChangeWindow, place: ChangePlace): Promise<object[]> {
    const changed: Changed = window ? { changedAt: { gt: window.since, lte: window.until } } : LIVE;
    return READS[entity](this.prisma, changed, place);
  }
}

/** The machines, centres and centre users (md_machine, md_registration_center, md_reg_center_user) as a registration client's place is read. */
export class ClientPlaceStorage implements ClientPlaceStore {
  constructor(private readonly prisma: PrismaClient) {}

  machinesNamed(name: string): Promise<MachineRow[]> {
    return this.prisma.machine.findMany({ where: { name, ...LIVE }, orderBy: { langCode: 'asc' } });
  }

  machinesWithId(id: string): Promise<MachineRow[]> {
    return this.prisma.machine.findMany({ where: { id, ...LIVE }, orderBy: { langCode: 'asc' } });
  }

  centre(id: string): Promise<CentreRow | null> {
    return this.prisma.registrationCenter.findFirst({ where: { id, ...LIVE }, orderBy: { langCode: 'asc' } });
  }

  async activeStaff(regCenterId: string, take: number): Promise<string[]> {
    const rows = await this.prisma.registrationCenterUser.findMany({
      where: { regCenterId, isActive: true, ...LIVE },
      orderBy: { userId: 'asc' },
      take,
      select: { userId: true },
    });
    return rows.map((row) => row.userId);
  }
}
