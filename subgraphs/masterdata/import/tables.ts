import { z } from 'zod';
import { jsonSchemaOf, schemaFields } from '../idschema/fields.js';

/** How a file's text cells become a row's values. */
const cell = {
  text: z.string().trim().min(1),
  optionalText: z
    .string()
    .trim()
    .nullish()
    .transform((value) => (value ? value : null)),
  int: z.coerce.number().int(),
  optionalInt: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((value, ctx) => {
      if (value === null || value === undefined || value === '') return null;
      const number = Number(value);
      if (!Number.isInteger(number)) ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
      return number;
    }),
  bool: z
    .union([z.boolean(), z.string()])
    .nullish()
    .transform((value) => value === undefined || value === null || value === '' || value === true || String(value).toLowerCase() === 'true'),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be yyyy-MM-dd')
    .transform((value) => new Date(`${value}T00:00:00.000Z`)),
};

const code = cell.text;
const lang = z.string().trim().length(3);
const named = { code, langCode: lang, name: cell.text, description: cell.optionalText, isActive: cell.bool };

/**
 * The master data tables a country's files fill, in load order (a row may
 * refer only to rows of the tables before it). A file is named after its
 * table, optionally numbered: `03-locations.csv`, `locations.json`. `key`
 * names the columns that find a row already there (the table's primary key),
 * so that a second import updates a row instead of refusing it.
 */
export const IMPORT_TABLES = [
  {
    file: 'languages',
    key: ['code'],
    model: 'language',
    row: z.object({ code: lang, name: cell.text, family: cell.optionalText, nativeName: cell.optionalText, isActive: cell.bool }),
  },
  {
    file: 'location-levels',
    key: ['level', 'langCode'],
    model: 'locationHierarchyLevel',
    row: z.object({ level: cell.int, langCode: lang, name: cell.text, isActive: cell.bool }),
  },
  {
    file: 'locations',
    key: ['code', 'langCode'],
    model: 'location',
    row: z.object({
      code,
      langCode: lang,
      name: cell.text,
      hierarchyLevel: cell.int,
      hierarchyName: cell.text,
      parentCode: cell.optionalText,
      isActive: cell.bool,
    }),
  },
  {
    file: 'zones',
    key: ['code', 'langCode'],
    model: 'zone',
    row: z.object({
      code,
      langCode: lang,
      name: cell.text,
      hierarchyLevel: cell.int,
      hierarchyName: cell.text,
      parentZoneCode: cell.optionalText,
      path: cell.text,
      isActive: cell.bool,
    }),
  },
  { file: 'zone-users', key: ['userId', 'zoneCode'], model: 'zoneUser', row: z.object({ userId: cell.text, zoneCode: code, isActive: cell.bool }) },
  { file: 'document-categories', key: ['code', 'langCode'], model: 'documentCategory', row: z.object(named) },
  { file: 'document-types', key: ['code', 'langCode'], model: 'documentType', row: z.object(named) },
  {
    file: 'valid-documents',
    key: ['docCategoryCode', 'docTypeCode'],
    model: 'validDocument',
    row: z.object({ docCategoryCode: code, docTypeCode: code, isActive: cell.bool }),
  },
  {
    file: 'applicant-type-rules',
    key: ['individualTypeCode', 'ageGroupTypeCode', 'genderTypeCode'],
    model: 'applicantTypeRule',
    row: z.object({ individualTypeCode: code, ageGroupTypeCode: code, genderTypeCode: code, applicantTypeCode: code, isActive: cell.bool }),
  },
  {
    file: 'applicant-valid-documents',
    key: ['applicantTypeCode', 'docCategoryCode', 'docTypeCode'],
    model: 'applicantValidDocument',
    row: z.object({ applicantTypeCode: code, docCategoryCode: code, docTypeCode: code, isActive: cell.bool }),
  },
  {
    file: 'holidays',
    key: ['id', 'langCode'],
    naturalKey: ['locationCode', 'holidayDate', 'holidayName', 'langCode'],
    model: 'holiday',
    row: z.object({
      id: cell.optionalInt,
      langCode: lang,
      locationCode: code,
      holidayDate: cell.date,
      holidayName: cell.text,
      holidayDesc: cell.optionalText,
      isActive: cell.bool,
    }),
  },
  { file: 'device-types', key: ['code', 'langCode'], model: 'deviceType', row: z.object(named) },
  {
    file: 'device-specifications',
    key: ['id', 'langCode'],
    model: 'deviceSpecification',
    row: z.object({
      id: code,
      langCode: lang,
      name: cell.text,
      brand: cell.text,
      model: cell.text,
      deviceTypeCode: code,
      minDriverVersion: cell.optionalText,
      description: cell.optionalText,
      isActive: cell.bool,
    }),
  },
  {
    file: 'registration-centers',
    key: ['id', 'langCode'],
    model: 'registrationCenter',
    row: z.object({
      id: code,
      langCode: lang,
      name: cell.text,
      centerTypeCode: code,
      addressLine1: cell.optionalText,
      addressLine2: cell.optionalText,
      addressLine3: cell.optionalText,
      latitude: cell.optionalText,
      longitude: cell.optionalText,
      locationCode: code,
      holidayLocationCode: code,
      contactPhone: cell.optionalText,
      contactPerson: cell.optionalText,
      numberOfKiosks: cell.int,
      workingHours: cell.optionalText,
      perKioskProcessTime: cell.optionalText,
      centerStartTime: cell.optionalText,
      centerEndTime: cell.optionalText,
      lunchStartTime: cell.optionalText,
      lunchEndTime: cell.optionalText,
      timeZone: cell.optionalText,
      zoneCode: code,
      isActive: cell.bool,
    }),
  },
  {
    file: 'registration-center-working-days',
    key: ['regCenterId', 'dayCode', 'langCode'],
    model: 'registrationCenterWorkingDay',
    row: z.object({
      regCenterId: code,
      dayCode: z.enum(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']),
      langCode: lang,
      isWorking: cell.bool,
      isActive: cell.bool,
    }),
  },
  {
    file: 'machines',
    key: ['id', 'langCode'],
    model: 'machine',
    row: z.object({
      id: code,
      langCode: lang,
      name: cell.text,
      serialNum: cell.optionalText,
      macAddress: cell.optionalText,
      ipAddress: cell.optionalText,
      machineSpecId: cell.optionalText,
      regCenterId: cell.optionalText,
      zoneCode: code,
      isActive: cell.bool,
    }),
  },
  {
    file: 'registration-center-users',
    key: ['regCenterId', 'userId'],
    model: 'registrationCenterUser',
    row: z.object({ regCenterId: code, userId: cell.text, isActive: cell.bool }),
  },
  {
    file: 'devices',
    key: ['id', 'langCode'],
    model: 'device',
    row: z.object({
      id: code,
      langCode: lang,
      name: cell.text,
      serialNum: cell.text,
      deviceSpecId: code,
      macAddress: cell.text,
      ipAddress: cell.optionalText,
      zoneCode: code,
      regCenterId: cell.optionalText,
      isActive: cell.bool,
    }),
  },
  {
    file: 'id-schemas',
    key: ['idVersion', 'title', 'schemaVersion'],
    model: 'idSchema',
    row: z
      .object({
        title: cell.text,
        description: cell.text,
        schemaVersion: z.coerce.number(),
        status: z.enum(['DRAFT', 'PUBLISHED']),
        idVersion: z.coerce.number().int(),
        effectiveFrom: z.iso.datetime().transform((value) => new Date(value)),
        schema: schemaFields,
      })
      .transform((row) => ({ ...row, schemaJson: jsonSchemaOf(row.title, row.description, row.schema) })),
  },
] as const;

export type ImportTable = (typeof IMPORT_TABLES)[number];

/** The columns that find a row's stored twin: a holiday without an id (the sequence gives it one) by its place, day, name and language. */
export function keyColumns(table: ImportTable, row: Record<string, unknown>): readonly string[] {
  return 'naturalKey' in table && (row.id === null || row.id === undefined) ? table.naturalKey : table.key;
}
