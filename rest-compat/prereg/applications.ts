import { z } from 'zod';
import * as ops from '../../generated/graphql/prereg.operations.js';
import { identifier } from '../../lib/input.js';
import { optionalTimestamp, pathParam, timestamp, type RestRoute } from '../route.js';
import { preregRoute } from './shared.js';

/** The body of create and update: the identity under demographicDetails, as MOSIP's portal sends it. */
const applicationBody = z.object({
  langCode: z.unknown(),
  demographicDetails: z.object({ identity: z.unknown() }),
  requiredFields: z.array(identifier(64)).max(100).nullish(),
});

const record = z.object({
  preRegistrationId: z.string(),
  createdBy: z.string(),
  createdDateTime: z.string(),
  updatedBy: z.string().nullable(),
  updatedDateTime: z.string().nullable(),
  statusCode: z.string(),
  langCode: z.string(),
  demographicDetails: z.object({ identity: z.record(z.string(), z.unknown()) }),
});

type Record = { createdDateTime: Date | string; updatedDateTime?: Date | string | null; demographicDetails: unknown };
const recordOf = <T extends Record>(row: T) => ({
  ...row,
  createdDateTime: timestamp(row.createdDateTime),
  updatedDateTime: optionalTimestamp(row.updatedDateTime),
  demographicDetails: row.demographicDetails as { identity: { [key: string]: unknown } },
});

const createRoute = (path: string) =>
  preregRoute({
    method: 'post',
    path,
    summary: 'A new application for the signed-in applicant: the identity is validated, sealed, and given a pre-registration id',
    idSuffix: 'demographic.create',
    input: { from: 'envelope', schema: applicationBody },
    operation: ops.PreregCreateApplicationDocument,
    variables: ({ langCode, demographicDetails }) => ({ langCode: langCode as string, identity: demographicDetails.identity }),
    response: record,
    result: ({ createPreRegistration: created }) => recordOf(created),
  });

/** Applications (spec: POST /applications; MOSIP 1.2's /applications/prereg paths for the rest). */
export const applicationsRoutes: RestRoute[] = [
  createRoute('/applications'),
  createRoute('/applications/prereg'),
  preregRoute({
    method: 'put',
    path: '/applications/prereg/{preRegistrationId}',
    summary: "Replaces the identity of the applicant's own application (not once it is booked)",
    idSuffix: 'demographic.update',
    input: { from: 'envelope', schema: applicationBody },
    operation: ops.PreregUpdateApplicationDocument,
    variables: ({ langCode, demographicDetails }, req) => ({
      preRegistrationId: pathParam(req, 'preRegistrationId'),
      langCode: langCode as string,
      identity: demographicDetails.identity,
    }),
    response: record,
    result: ({ updatePreRegistration: updated }) => recordOf(updated),
  }),
  preregRoute({
    method: 'get',
    path: '/applications/prereg/{preRegistrationId}',
    summary: 'One application with its identity (the applicant’s own; any, for pre-registration administrators)',
    idSuffix: 'demographic.retrieve.details',
    operation: ops.PreregApplicationDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: record,
    result: ({ preRegistration }) => recordOf(preRegistration),
  }),
  preregRoute({
    method: 'get',
    path: '/applications/prereg',
    summary: "The applicant's applications, 20 a page",
    idSuffix: 'demographic.retrieve.basic',
    input: { from: 'query', schema: z.object({ pageIndex: z.string().optional() }) },
    operation: ops.PreregApplicationPageDocument,
    // A page that is not a number reaches the service as -1: PRG_PAM_APP_016.
    variables: ({ pageIndex }) => ({ pageIndex: pageIndex === undefined ? 0 : /^\d{1,7}$/.test(pageIndex) ? Number(pageIndex) : -1 }),
    response: z.object({
      basicDetails: z.array(
        z.object({
          preRegistrationId: z.string(),
          statusCode: z.string(),
          bookingMetadata: z
            .object({ registration_center_id: z.string(), appointment_date: z.string(), time_slot_from: z.string(), time_slot_to: z.string() })
            .nullable(),
          demographicMetadata: z.object({ fullName: z.unknown(), postalCode: z.unknown() }),
          dataCaptureLanguage: z.string(),
        }),
      ),
      totalRecords: z.string(),
      noOfRecords: z.string(),
      pageIndex: z.string(),
    }),
    result: ({ preRegistrationPage: page }) => ({
      basicDetails: page.applications.map((application) => {
        const { identity } = application.demographicDetails as { identity: { [key: string]: unknown } };
        return {
          preRegistrationId: application.preRegistrationId,
          statusCode: application.statusCode,
          // MOSIP's BookingRegistrationDTO, snake case as its portal reads it.
          bookingMetadata: application.booking && {
            registration_center_id: application.booking.registrationCenterId,
            appointment_date: application.booking.appointmentDate,
            time_slot_from: application.booking.timeSlotFrom,
            time_slot_to: application.booking.timeSlotTo,
          },
          demographicMetadata: { fullName: identity.fullName ?? null, postalCode: identity.postalCode ?? null },
          dataCaptureLanguage: application.langCode,
        };
      }),
      // MOSIP's portal reads these as text.
      totalRecords: String(page.totalRecords),
      noOfRecords: String(page.applications.length),
      pageIndex: String(page.pageIndex),
    }),
  }),
  preregRoute({
    method: 'get',
    path: '/applications/prereg/status/{preRegistrationId}',
    summary: 'Where an application stands',
    idSuffix: 'demographic.retrieve.status',
    operation: ops.PreregApplicationDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    // MOSIP's key, misspelt as its clients read it.
    response: z.object({ preRegistartionId: z.string(), statusCode: z.string() }),
    result: ({ preRegistration }) => ({ preRegistartionId: preRegistration.preRegistrationId, statusCode: preRegistration.statusCode }),
  }),
  preregRoute({
    method: 'put',
    path: '/applications/prereg/status/{preRegistrationId}',
    summary: 'Moves an incomplete application to Pending_Appointment once its mandatory documents are in',
    idSuffix: 'demographic.status.update',
    input: { from: 'query', schema: z.object({ statusCode: z.string().optional() }) },
    operation: ops.PreregUpdateStatusDocument,
    variables: ({ statusCode }, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId'), statusCode: statusCode ?? '' }),
    response: z.string(),
    result: () => 'STATUS_UPDATED_SUCESSFULLY',
  }),
  preregRoute({
    method: 'delete',
    path: '/applications/prereg/{preRegistrationId}',
    summary: "Deletes the applicant's own application, its documents and appointment",
    idSuffix: 'demographic.delete',
    operation: ops.PreregDeleteApplicationDocument,
    variables: (_input, req) => ({ preRegistrationId: pathParam(req, 'preRegistrationId') }),
    response: z.object({ preRegistrationId: z.string(), deletedBy: z.string(), deletedDateTime: z.string() }),
    result: ({ deletePreRegistration: deleted }) => ({ ...deleted, deletedDateTime: timestamp(deleted.deletedDateTime) }),
  }),
];
