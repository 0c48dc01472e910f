import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { PARTNER_STATUS, partnersSchemas as schemas, partnerWire, REQUEST_STATUS } from '../../subgraphs/partner/partners/inputs.js';
import { optionalTimestamp, pathParam, timestamp, type RestRoute } from '../route.js';
import { route } from './shared.js';

const message = z.object({ message: z.string() });
const statusRequest = z.object({ status: partnerWire.status });

/** MOSIP's partner record of the partner manager's list. */
const partnerRecord = z.object({
  partnerID: z.string(),
  organizationName: z.string(),
  contactNumber: z.string().nullable(),
  emailId: z.string(),
  address: z.string(),
  policyGroupId: z.string(),
  status: z.enum(['Active', 'De-Active']),
});
const toPartner = ({ id, status, ...row }: ops.PartnersRecordFragment): z.input<typeof partnerRecord> => ({
  partnerID: id,
  ...row,
  status: status === 'ACTIVE' ? 'Active' : 'De-Active',
});

export const partnersRoutes: RestRoute[] = [
  route({
    method: 'post',
    path: '/partners',
    summary: "Self-registration: the caller's login becomes a partner of a policy group (partnerId generated when absent)",
    idSuffix: 'partners.register',
    input: { from: 'envelope', schema: schemas.registerPartner },
    operation: ops.PartnersRegisterDocument,
    response: z.object({ partnerId: z.string(), status: z.string() }),
  }),
  route({
    method: 'get',
    path: '/partners/digitalcertificate',
    summary: "The platform's certificate for partners (PEM)",
    idSuffix: 'partners.digitalcertificate',
    operation: ops.PartnersPlatformCertificateDocument,
    response: z.object({ platformCertificate: z.string() }),
    result: (data) => ({ platformCertificate: data.partnerPlatformCertificate }),
  }),
  route({
    method: 'post',
    path: '/partners/certificate/upload',
    summary: "Uploads a partner's certificate into the key manager; answers it certified by partner management's key",
    idSuffix: 'partners.certificate.upload',
    input: { from: 'envelope', schema: schemas.uploadPartnerCertificate },
    operation: ops.PartnersUploadCertificateDocument,
    response: z.object({ certificateId: z.string(), signedCertificateData: z.string(), timestamp: z.string() }),
    result: ({ uploadPartnerCertificate: uploaded }) => ({ ...uploaded, timestamp: timestamp(uploaded.timestamp) }),
  }),
  route({
    method: 'get',
    path: '/partners/{partnerId}/certificate',
    summary: "The partner's certificate as partner management signed it",
    idSuffix: 'partners.certificate',
    operation: ops.PartnersCertificateDocument,
    variables: (_input, req) => ({ partnerId: pathParam(req, 'partnerId') }),
    response: z.object({ certificateId: z.string(), certificateData: z.string(), timestamp: z.string() }),
    result: ({ partnerCertificate: found }) => ({ ...found, timestamp: timestamp(found.timestamp) }),
  }),
  route({
    method: 'patch',
    path: '/partners/{partnerId}/partnerAPIKeyRequests',
    summary: 'The partner asks for an API key mapped to a policy of its group',
    idSuffix: 'partners.apikey.request',
    input: { from: 'envelope', schema: schemas.requestPartnerApiKey.omit({ partnerId: true }) },
    operation: ops.PartnersRequestApiKeyDocument,
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerId') }),
    response: z.object({ apiRequestId: z.string(), message: z.string() }),
  }),
  route({
    method: 'get',
    path: '/partners/{partnerId}/partnerAPIKeyRequests/{APIKeyReqID}',
    summary: "The status of one of the partner's API key requests",
    idSuffix: 'partners.apikey.status',
    operation: ops.PartnersApiKeyRequestStateDocument,
    variables: (_input, req) => ({ partnerId: pathParam(req, 'partnerId'), apiKeyReqId: pathParam(req, 'APIKeyReqID') }),
    response: z.object({
      apiRequestId: z.string(),
      apikeyReqStatus: z.string(),
      partnerApiKeyHint: z.string().nullable(),
      validityTill: z.string().nullable(),
    }),
    result: ({ apiKeyRequestState: state }) => ({ ...state, validityTill: optionalTimestamp(state.validityTill) }),
  }),
  route({
    method: 'get',
    path: '/pmpartners',
    summary: "The partners of the partner manager's policy groups",
    idSuffix: 'partners.retrieve',
    operation: ops.PartnersManagedDocument,
    response: z.object({ partners: z.array(partnerRecord) }),
    result: (data) => ({ partners: data.managedPartners.map(toPartner) }),
  }),
  // Before /pmpartners/{partnerID}/{PartnerAPIKey}, which would match it too.
  route({
    method: 'patch',
    path: '/pmpartners/PartnerAPIKeyRequests/{APIKeyReqID}',
    summary: 'Approve or reject an API key request; on approval the key, shown this once',
    idSuffix: 'partners.apikey.approval',
    input: { from: 'envelope', schema: z.object({ status: partnerWire.decision }) },
    operation: ops.PartnersDecideApiKeyRequestDocument,
    variables: (input, req) => ({ status: REQUEST_STATUS[input.status], apiKeyReqId: pathParam(req, 'APIKeyReqID') }),
    response: z.object({ message: z.string(), partnerAPIKey: z.string().nullable() }),
  }),
  route({
    method: 'patch',
    path: '/pmpartners/{partnerID}',
    summary: 'Activate or deactivate a partner: Active or De-Active',
    idSuffix: 'partners.status.update',
    input: { from: 'envelope', schema: statusRequest },
    operation: ops.PartnersUpdateStatusDocument,
    variables: (input, req) => ({ status: PARTNER_STATUS[input.status], partnerId: pathParam(req, 'partnerID') }),
    response: message,
  }),
  route({
    method: 'patch',
    path: '/pmpartners/{partnerID}/{PartnerAPIKey}',
    summary: 'Activate or deactivate a partner API key',
    idSuffix: 'partners.apikeystatus.update',
    input: { from: 'envelope', schema: statusRequest },
    operation: ops.PartnersUpdateApiKeyStatusDocument,
    variables: (input, req) => ({
      status: PARTNER_STATUS[input.status],
      partnerId: pathParam(req, 'partnerID'),
      partnerApiKey: pathParam(req, 'PartnerAPIKey'),
    }),
    response: message,
  }),
  route({
    method: 'post',
    path: '/pmpartners/{partnerID}/{PartnerAPIKey}',
    summary: 'Move a partner API key from its policy to another of the group',
    idSuffix: 'partners.policy.mapping',
    input: { from: 'envelope', schema: partnerWire.policyMapping },
    operation: ops.PartnersChangeApiKeyPolicyDocument,
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerID'), partnerApiKey: pathParam(req, 'PartnerAPIKey') }),
    response: message,
  }),
];
