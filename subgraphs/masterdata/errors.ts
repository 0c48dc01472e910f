import { PlatformError } from '../../lib/errors.js';

/**
 * Master data's codes: those of spec Document 1, then MOSIP's own for what the
 * spec names without a code (kernel-masterdata-service's error constants).
 */
export const masterdataErrors = {
  internal: (what: string) => new PlatformError('KER-MSD-500', `Internal Server Error: ${what}`),
  /** a whole list (the spec's lists by language have no paging) longer than one answer holds: the portal pages through the named connection */
  listTooLong: (what: string, cap: number, connection: string) =>
    new PlatformError('KER-MSD-500', `Internal Server Error: more than ${cap} ${what}, more than one answer holds; page through the graph's ${connection}`),
  // devices
  deviceNotFound: (id?: string) => new PlatformError('KER-MSD-010', id ? `Device not Found: ${id}` : 'Device not Found'),
  deviceInsert: (why: string) => new PlatformError('KER-MSD-069', `Error while inserting device details: ${why}`),
  /** the spec's code for a device outside the caller's zones; centres, machines and centre users outside them answer it too */
  zoneNotAuthorized: (what = 'device') => new PlatformError('KER-MSD-439', `Admin not authorized to access this ${what} for this zone`),
  /** registration staff asking for another centre's machines or users */
  notYourCentre: (what: string) => new PlatformError('KER-ATH-403', `Forbidden: ${what} is not at a registration centre the caller works at`),
  // holidays and locations
  holidayFetch: (why: string) => new PlatformError('KER-MSD-019', `Error while fetching holidays: ${why}`),
  holidayNotFound: () => new PlatformError('KER-MSD-020', 'Holiday not found'),
  locationHierarchyFetch: (why: string) => new PlatformError('KER-MSD-025', `Error while fetching location hierarchy: ${why}`),
  locationNotFound: (code?: string) => new PlatformError('KER-MSD-026', code ? `Location not found: ${code}` : 'Location not found'),
  locationInsert: (why: string) => new PlatformError('KER-MSD-064', `Error while inserting location: ${why}`),
  holidayInsert: (why: string) => new PlatformError('KER-MSD-065', `Error while inserting holiday: ${why}`),
  holidayUpdate: (why: string) => new PlatformError('KER-MSD-099', `Error while updating holiday: ${why}`),
  holidayDelete: (why: string) => new PlatformError('KER-MSD-100', `Error while deleting holiday: ${why}`),
  // search and filter values (MOSIP's RequestError / ValidationErrorCode)
  badSearch: (why: string) => new PlatformError('KER-MSD-317', `Invalid search request: ${why}`),
  badFilterColumn: (column: string) => new PlatformError('KER-MSD-317', `Filter column ${column} is not supported`),
  badSortColumn: (column: string) => new PlatformError('KER-MSD-313', `Invalid sort field ${column}`),
  badSortType: (type: string) => new PlatformError('KER-MSD-358', `Sort type ${type} is not ASC or DESC`),
  badPagination: () => new PlatformError('KER-MSD-316', 'Pagination cannot be negative'),
  // languages
  languageNotSupported: (lang: string) => new PlatformError('KER-MSD-999', `Language ${lang} is not supported`),
  // documents (MOSIP's DocumentCategoryErrorCode, DocumentTypeErrorCode, ValidDocumentErrorCode, ApplicantTypeErrorCode)
  documentCategoryNotFound: (code?: string) => new PlatformError('KER-MSD-014', code ? `Document Category not found: ${code}` : 'Document Category not found'),
  documentCategoryInsert: (why: string) => new PlatformError('KER-MSD-051', `Error occurred while inserting Document Category details: ${why}`),
  documentCategoryDependency: (code: string) => new PlatformError('KER-MSD-123', `Cannot delete dependency found: document category ${code} is mapped`),
  documentTypeNotFound: (code?: string) => new PlatformError('KER-MSD-118', code ? `Document Type not found: ${code}` : 'Document Type not found'),
  documentTypeInsert: (why: string) => new PlatformError('KER-MSD-052', `Error occurred while inserting Document Type details: ${why}`),
  documentTypeDependency: (code: string) => new PlatformError('KER-MSD-124', `Cannot delete dependency found: document type ${code} is mapped`),
  validDocumentAlreadyMapped: () => new PlatformError('KER-MSD-360', 'Document Type is already mapped to the received Document Category'),
  validDocumentNotMapped: (category: string, type: string) =>
    new PlatformError('KER-MSD-361', `Document Category Code ${category} - Document Type ${type} Mapping does not exist`),
  validDocumentAlreadyUnmapped: () => new PlatformError('KER-MSD-363', 'Document Type is already unmapped from the received Document Category'),
  applicantDocumentsNotFound: (what: string) => new PlatformError('KER-MSD-150', `Document Category- Document Type mapping not found: ${what}`),
  // --- centres, machines, centre users (kernel-masterdata-service RegistrationCenterErrorCode, MachineErrorCode,
  // RegistrationCenterUserErrorCode, UserDetailsErrorCode, RequestErrorCode) ---
  badCentreInput: (why: string) => new PlatformError('KER-MSD-999', `Invalid request input: ${why}`),
  centreNotFound: (id?: string) => new PlatformError('KER-MSD-215', id ? `Registration Center not found: ${id}` : 'Registration Center not found'),
  centreExists: (id: string, lang: string) => new PlatformError('KER-MSD-996', `Id already exists: centre ${id} in ${lang}`),
  centreDependency: (what: string) => new PlatformError('KER-MSD-192', `Cannot delete as dependency found: ${what}`),
  centreHours: (code: 'KER-MSD-259' | 'KER-MSD-260' | 'KER-MSD-308' | 'KER-MSD-309', why: string) => new PlatformError(code, why),
  centreCoordinates: () => new PlatformError('KER-MSD-307', 'Latitude must be a number in [-90, 90] and longitude in [-180, 180]'),
  centreZoneNotFound: (zone: string) => new PlatformError('KER-MSD-340', `Zone ${zone} doesn't exist`),
  machineNotFound: (id?: string) => new PlatformError('KER-MSD-030', id ? `Machine not Found: ${id}` : 'Machine not Found'),
  machineExists: (id: string, lang: string) => new PlatformError('KER-MSD-996', `Id already exists: machine ${id} in ${lang}`),
  machineNameExists: (name: string) => new PlatformError('KER-MSD-413', `Entry already found for the provided machine name: ${name}`),
  machineZoneNotFound: (zone: string) => new PlatformError('KER-MSD-343', `Zone ${zone} doesn't exist`),
  badValidity: () => new PlatformError('KER-MSD-043', "Invalid date format: validityDateTime must be ISO 8601 (yyyy-MM-dd'T'HH:mm:ss.SSS'Z')"),
  userNotFound: (userId: string) => new PlatformError('KER-USR-007', `User not found: ${userId}`),
  mappingCentreNotFound: (id: string) =>
    new PlatformError('KER-MSD-428', `Cannot map as the Registration Center is Decommissioned State or does not exist: ${id}`),
  mappingExists: () => new PlatformError('KER-MSD-426', 'Registration Center-User mapping already exist'),
  mappedElsewhere: (centre: string) => new PlatformError('KER-MSD-432', `Cannot map the User as it is mapped to another Registration Center (${centre})`),
  mappingNotFound: (userId: string, centre: string) => new PlatformError('KER-MSD-423', `User Id ${userId} - Center Id ${centre} mapping does not exist`),

  // --- devices, device types and specifications, zones (MOSIP's DeviceErrorCode, DeviceTypeErrorCode,
  // DeviceSpecificationErrorCode, ZoneErrorCode; KER-MSD-394/395 are this platform's: MOSIP creates zones by script) ---
  deviceUpdate: (why: string) => new PlatformError('KER-MSD-083', `Error while updating device: ${why}`),
  deviceDependency: (id: string) => new PlatformError('KER-MSD-147', `Cannot delete as dependency found: device ${id} is placed at a registration centre`),
  deviceMappedToCentre: (id: string) =>
    new PlatformError('KER-MSD-440', `Cannot decommission device ${id} as it is mapped to a registration centre: unmap it first`),
  deviceTypeNotFound: (code: string) => new PlatformError('KER-MSD-003', `Required Device Type detail Not Found: ${code}`),
  deviceTypeInsert: (why: string) => new PlatformError('KER-MSD-053', `Error occurred while inserting Device Type details: ${why}`),
  deviceSpecNotFound: (what: string) => new PlatformError('KER-MSD-012', `Device Specification not found: ${what}`),
  deviceSpecInsert: (why: string) => new PlatformError('KER-MSD-054', `Error occurred while inserting Device Specification details: ${why}`),
  userZoneUnavailable: (userId: string) => new PlatformError('KER-MSD-339', `No zone found for the logged-in user ${userId}`),
  zoneUserNotFound: (what: string) => new PlatformError('KER-MSD-391', `Entity for user ID specified Not Found: ${what}`),
  zoneNotFound: (code: string) => new PlatformError('KER-MSD-392', `Zone not found: ${code}`),
  zoneInsert: (why: string) => new PlatformError('KER-MSD-394', `Error while inserting zone (platform code KER-MSD-394): ${why}`),
  zoneUserInsert: (why: string) => new PlatformError('KER-MSD-395', `Error while mapping the user to the zone (platform code KER-MSD-395): ${why}`),
};
