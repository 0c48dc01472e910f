import type { Machine, PrismaClient, RegistrationCenter } from '../../generated/prisma/client.js';

/** The rows of one entity a client is sent: all live ones, or every one changed (deletions included) since its last sync. */
export interface EntityQuery {
  prisma: PrismaClient;
  /** `{ isDeleted: false }`, or `{ changedAt: { gt: lastUpdated, lte: now } }` */
  changed: { isDeleted: false } | { changedAt: { gt: Date; lte: Date } };
  centre: RegistrationCenter;
  machine: Machine;
}

type Rows = (query: EntityQuery) => Promise<object[]>;

/**
 * What a registration client needs to register offline, entity by entity (MOSIP 1.2's client settings):
 * the shared master data, and of its own centre the centre, its days, devices, users and holidays, and
 * the machine itself. Read straight from master data's tables.
 */
export const SYNC_ENTITIES: readonly (readonly [entityName: string, rows: Rows])[] = [
  ['Language', ({ prisma, changed }) => prisma.language.findMany({ where: changed, orderBy: { code: 'asc' } })],
  ['LocationHierarchy', ({ prisma, changed }) => prisma.locationHierarchyLevel.findMany({ where: changed, orderBy: [{ level: 'asc' }, { langCode: 'asc' }] })],
  ['Location', ({ prisma, changed }) => prisma.location.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] })],
  ['DocumentCategory', ({ prisma, changed }) => prisma.documentCategory.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] })],
  ['DocumentType', ({ prisma, changed }) => prisma.documentType.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] })],
  ['ValidDocument', ({ prisma, changed }) => prisma.validDocument.findMany({ where: changed, orderBy: [{ docCategoryCode: 'asc' }, { docTypeCode: 'asc' }] })],
  ['ApplicantValidDocument', ({ prisma, changed }) => prisma.applicantValidDocument.findMany({ where: changed })],
  [
    'Holiday',
    ({ prisma, changed, centre }) =>
      prisma.holiday.findMany({ where: { ...changed, locationCode: centre.holidayLocationCode }, orderBy: [{ holidayDate: 'asc' }, { langCode: 'asc' }] }),
  ],
  ['DeviceType', ({ prisma, changed }) => prisma.deviceType.findMany({ where: changed, orderBy: [{ code: 'asc' }, { langCode: 'asc' }] })],
  ['DeviceSpecification', ({ prisma, changed }) => prisma.deviceSpecification.findMany({ where: changed, orderBy: [{ id: 'asc' }, { langCode: 'asc' }] })],
  [
    'Device',
    ({ prisma, changed, centre }) => prisma.device.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: [{ id: 'asc' }, { langCode: 'asc' }] }),
  ],
  [
    'RegistrationCenter',
    ({ prisma, changed, centre }) => prisma.registrationCenter.findMany({ where: { ...changed, id: centre.id }, orderBy: { langCode: 'asc' } }),
  ],
  [
    'RegistrationCenterWorkingDay',
    ({ prisma, changed, centre }) =>
      prisma.registrationCenterWorkingDay.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: [{ langCode: 'asc' }, { dayCode: 'asc' }] }),
  ],
  ['Machine', ({ prisma, changed, machine }) => prisma.machine.findMany({ where: { ...changed, id: machine.id }, orderBy: { langCode: 'asc' } })],
  [
    'RegistrationCenterUser',
    ({ prisma, changed, centre }) => prisma.registrationCenterUser.findMany({ where: { ...changed, regCenterId: centre.id }, orderBy: { userId: 'asc' } }),
  ],
  // The schema in force: the latest published one (sent again only when it changed).
  ['IdSchema', ({ prisma, changed }) => prisma.idSchema.findMany({ where: { ...changed, status: 'PUBLISHED' }, orderBy: { idVersion: 'desc' }, take: 1 })],
];
