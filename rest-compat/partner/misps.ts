import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { MISP_STATUS_OF_SPELLING, MISP_STATUS_SPELLING, mispsSchemas as schemas } from '../../subgraphs/partner/misps/inputs.js';
import { found, fromWire, pathParam, present, type RestRoute, timestamp } from '../route.js';
import { partnerErrors } from '../../subgraphs/partner/errors.js';
import { route } from './shared.js';

/** A MISP as MOSIP's MISP service answers it. */
const record = z.object({
  id: z.string(),
  organizationName: z.string(),
  contactNumber: z.string().nullable(),
  emailID: z.string(),
  address: z.string(),
  status: z.string(),
  mispStatus: z.string(),
});
const toRecord = ({ emailId, isActive, status, ...row }: ops.MispRecordFragment): z.input<typeof record> => ({
  ...row,
  status: MISP_STATUS_SPELLING[status],
  emailID: emailId,
  mispStatus: isActive ? 'Active' : 'De-Active',
});
const issued = z.object({ mispID: z.string(), mispLicenseKey: z.string(), mispLicenseKeyExpiry: z.string(), mispLicenseKeyStatus: z.string() });
const mispId = (req: Parameters<typeof pathParam>[0]) => pathParam(req, 'mispId');

/** The sample body names the organisation `name`, the update's `emailID`: both spellings are taken. */
const createBody = z.preprocess(
  (body) => (body && typeof body === 'object' && !('organizationName' in body) && 'name' in body ? { ...body, organizationName: body.name } : body),
  schemas.createMisp,
);
const updateBody = z.preprocess(
  (body) => (body && typeof body === 'object' && !('emailId' in body) && 'emailID' in body ? { ...body, emailId: body.emailID } : body),
  schemas.updateMisp.omit({ mispId: true }),
);
const statusBody = z.object({ mispStatus: z.string().max(16) });

export const mispsRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/misps',
    summary: 'Register a MISP (status Active)',
    idSuffix: 'misp.create',
    input: { from: 'envelope', schema: createBody },
    operation: ops.MispsCreateDocument,
    variables: ({ organizationName, contactNumber, emailId, address }) => ({ organizationName, contactNumber, emailId, address }),
    response: z.object({ mispStatus: z.string(), mispID: z.string() }),
    result: (data) => ({ mispStatus: MISP_STATUS_SPELLING[data.createMisp.status], mispID: data.createMisp.id }),
  }),
  route({
    method: 'patch',
    path: '/misps/{mispId}/status',
    summary: 'Approve (a license key is issued) or reject a MISP',
    idSuffix: 'misp.status',
    input: { from: 'envelope', schema: statusBody },
    operation: ops.MispsDecideDocument,
    variables: (input, req) => ({
      mispId: mispId(req),
      mispStatus: fromWire(input.mispStatus, MISP_STATUS_OF_SPELLING, () => partnerErrors.invalid('mispStatus', 'Approved or Rejected')),
    }),
    response: z.object({
      mispID: z.string(),
      mispStatus: z.string(),
      mispStatusCode: z.string(),
      mispLicenseKey: z.string().nullable(),
      mispLicenseKeyExpiry: z.string().nullable(),
      mispLicenseKeyStatus: z.string().nullable(),
      message: z.string(),
    }),
    result: ({ decideMisp: { misp, license } }) => ({
      mispID: misp.id,
      mispStatus: misp.isActive ? 'Active' : 'De-Active',
      mispStatusCode: MISP_STATUS_SPELLING[misp.status],
      mispLicenseKey: license?.mispLicenseKey ?? null,
      mispLicenseKeyExpiry: license ? timestamp(license.mispLicenseKeyExpiry) : null,
      mispLicenseKeyStatus: license?.mispLicenseKeyStatus ?? null,
      message: license ? 'MISP approved; license key issued' : `MISP ${MISP_STATUS_SPELLING[misp.status]}`,
    }),
  }),
  route({
    method: 'patch',
    path: '/misps/{mispId}/licenseKey',
    summary: "Check that a license key is the MISP's, valid and active",
    idSuffix: 'misp.license.validate',
    input: { from: 'envelope', schema: z.object({ mispLicenseKey: z.string().max(256) }) },
    operation: ops.MispsValidateLicenseDocument,
    variables: (input, req) => ({ mispId: mispId(req), mispLicenseKey: input.mispLicenseKey }),
    response: z.object({ message: z.string() }),
    result: () => ({ message: 'Valid' }),
  }),
  route({
    method: 'put',
    path: '/misps/{mispId}/licenseKey',
    summary: 'Issue a new license key to an approved MISP (its active keys are blocked)',
    idSuffix: 'misp.license.regenerate',
    operation: ops.MispsRegenerateLicenseDocument,
    variables: (_input, req) => ({ mispId: mispId(req) }),
    response: issued,
    result: ({ regenerateMispLicense: { mispId: id, ...license } }) => ({
      ...license,
      mispID: id,
      mispLicenseKeyExpiry: timestamp(license.mispLicenseKeyExpiry),
    }),
  }),
  route({
    method: 'put',
    path: '/misps/{mispId}',
    summary: "Change a MISP's details (at least one)",
    idSuffix: 'misp.update',
    input: { from: 'envelope', schema: updateBody },
    operation: ops.MispsUpdateDocument,
    variables: (input, req) => ({ ...input, mispId: mispId(req) }),
    response: record.omit({ status: true, mispStatus: true }),
    result: (data) => {
      const { status: _status, mispStatus: _active, ...row } = toRecord(data.updateMisp);
      return row;
    },
  }),
  route({
    method: 'patch',
    path: '/misps/{mispId}',
    summary: 'Switch a MISP on (Active) or off (De-Active)',
    idSuffix: 'misp.status.update',
    input: { from: 'envelope', schema: statusBody },
    operation: ops.MispsSetActiveDocument,
    variables: (input, req) => ({
      mispId: mispId(req),
      isActive: fromWire(input.mispStatus, { Active: true, 'De-Active': false }, () => partnerErrors.invalid('mispStatus', 'Active or De-Active')),
    }),
    response: z.object({ mispID: z.string(), mispStatus: z.string(), message: z.string() }),
    result: (data) => {
      const status = data.setMispActive.isActive ? 'Active' : 'De-Active';
      return { mispID: data.setMispActive.id, mispStatus: status, message: `MISP status changed to ${status}` };
    },
  }),
  route({
    method: 'get',
    path: '/misps',
    summary: 'Every MISP',
    idSuffix: 'misp.read',
    operation: ops.MispsAllDocument,
    response: z.array(record),
    result: (data) => data.allMisps.map(toRecord),
  }),
  route({
    method: 'get',
    path: '/misps/mispId/{mispId}',
    summary: 'A MISP',
    idSuffix: 'misp.read',
    operation: ops.MispsByIdDocument,
    variables: (_input, req) => ({ mispId: mispId(req) }),
    response: record,
    result: (data, { res }) => toRecord(found(data.misp, () => partnerErrors.mispNotFound(mispId(res.req)))),
  }),
  route({
    method: 'get',
    path: '/misps/name/{mispOrgName}',
    summary: 'MISPs whose organisation name contains the text',
    idSuffix: 'misp.read',
    operation: ops.MispsByNameDocument,
    variables: (_input, req) => ({ name: pathParam(req, 'mispOrgName') }),
    response: z.array(record),
    result: (data) => data.mispsByName.map(toRecord),
  }),
  route({
    method: 'get',
    path: '/misps/{mispId}/licenseKey',
    summary: "A MISP's newest license key as kept: its last characters, status and expiry",
    idSuffix: 'misp.license.read',
    operation: ops.MispsLicenseDocument,
    variables: (_input, req) => ({ mispId: mispId(req) }),
    response: z.object({ mispId: z.string(), licenseKeyHint: z.string(), licenseKeyStatus: z.string(), licenseKeyExpiry: z.string() }).nullable(),
    result: ({ mispLicense }) =>
      mispLicense
        ? {
            mispId: mispLicense.mispId,
            licenseKeyHint: present(mispLicense.keyHint, 'keyHint'),
            licenseKeyStatus: mispLicense.status,
            licenseKeyExpiry: timestamp(mispLicense.expiresAt),
          }
        : null,
  }),
];
