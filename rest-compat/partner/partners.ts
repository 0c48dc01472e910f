import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { partnersArea, partnersSchemas as schemas } from '../../subgraphs/partner/partners/index.js';
import { operation } from '../operations.js';
import { defineRoute, optionalTimestamp, pathParam, type RestRoute } from '../route.js';

const PREFIX = '/partnermanagement/v1';
const code = (rootField: string) => (field: string, missing: boolean) => partnersArea.codeFor(field, missing, rootField);
/** What every partner management route shares: `errors: []` on success, PMS_COR_003 for the platform's failures. */
const pms = { emptyErrors: [] as [], internalErrorCode: 'PMS_COR_003' };

const message = z.object({ message: z.string() });
const statusRequest = schemas.updatePartnerStatus.pick({ status: true });

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
  defineRoute({
    method: 'post',
    path: `${PREFIX}/partners`,
    summary: "Self-registration: the caller's login becomes a partner of a policy group (partnerId generated when absent)",
    id: 'platform.partnermanagement.partners.register',
    input: { from: 'envelope', schema: schemas.registerPartner },
    operation: operation(ops.PartnersRegisterDocument),
    variables: (input) => input,
    response: z.object({ partnerId: z.string(), status: z.string() }),
    result: (data) => data.registerPartner,
    codeFor: code('registerPartner'),
    ...pms,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/partners/digitalcertificate`,
    summary: "The platform's certificate for partners (PEM)",
    id: 'platform.partnermanagement.partners.digitalcertificate',
    input: { from: 'none' },
    operation: operation(ops.PartnersPlatformCertificateDocument),
    variables: () => ({}),
    response: z.object({ platformCertificate: z.string() }),
    result: (data) => ({ platformCertificate: data.partnerPlatformCertificate }),
    codeFor: code('partnerPlatformCertificate'),
    ...pms,
  }),
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/partners/{partnerId}/partnerAPIKeyRequests`,
    summary: 'The partner asks for an API key mapped to a policy of its group',
    id: 'platform.partnermanagement.partners.apikey.request',
    input: { from: 'envelope', schema: schemas.requestPartnerApiKey.omit({ partnerId: true }) },
    operation: operation(ops.PartnersRequestApiKeyDocument),
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerId') }),
    response: z.object({ apiRequestId: z.string(), message: z.string() }),
    result: (data) => data.requestPartnerApiKey,
    codeFor: code('requestPartnerApiKey'),
    ...pms,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/partners/{partnerId}/partnerAPIKeyRequests/{APIKeyReqID}`,
    summary: "The status of one of the partner's API key requests",
    id: 'platform.partnermanagement.partners.apikey.status',
    input: { from: 'none' },
    operation: operation(ops.PartnersApiKeyRequestStateDocument),
    variables: (_input, req) => ({ partnerId: pathParam(req, 'partnerId'), apiKeyReqId: pathParam(req, 'APIKeyReqID') }),
    response: z.object({
      apiRequestId: z.string(),
      apikeyReqStatus: z.string(),
      partnerApiKeyHint: z.string().nullable(),
      validityTill: z.string().nullable(),
    }),
    result: ({ apiKeyRequestState: state }) => ({ ...state, validityTill: optionalTimestamp(state.validityTill) }),
    codeFor: code('apiKeyRequestState'),
    ...pms,
  }),
  defineRoute({
    method: 'get',
    path: `${PREFIX}/pmpartners`,
    summary: "The partners of the partner manager's policy groups",
    id: 'platform.partnermanagement.partners.retrieve',
    input: { from: 'none' },
    operation: operation(ops.PartnersManagedDocument),
    variables: () => ({}),
    response: z.object({ partners: z.array(partnerRecord) }),
    result: (data) => ({ partners: data.managedPartners.map(toPartner) }),
    codeFor: code('managedPartners'),
    ...pms,
  }),
  // Before /pmpartners/{partnerID}/{PartnerAPIKey}, which would match it too.
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/pmpartners/PartnerAPIKeyRequests/{APIKeyReqID}`,
    summary: 'Approve or reject an API key request; on approval the key, shown this once',
    id: 'platform.partnermanagement.partners.apikey.approval',
    input: { from: 'envelope', schema: schemas.decideApiKeyRequest.pick({ status: true }) },
    operation: operation(ops.PartnersDecideApiKeyRequestDocument),
    variables: (input, req) => ({ ...input, apiKeyReqId: pathParam(req, 'APIKeyReqID') }),
    response: z.object({ message: z.string(), partnerAPIKey: z.string().nullable() }),
    result: (data) => data.decideApiKeyRequest,
    codeFor: code('decideApiKeyRequest'),
    ...pms,
  }),
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/pmpartners/{partnerID}`,
    summary: 'Activate or deactivate a partner: Active or De-Active',
    id: 'platform.partnermanagement.partners.status.update',
    input: { from: 'envelope', schema: statusRequest },
    operation: operation(ops.PartnersUpdateStatusDocument),
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerID') }),
    response: message,
    result: (data) => data.updatePartnerStatus,
    codeFor: code('updatePartnerStatus'),
    ...pms,
  }),
  defineRoute({
    method: 'patch',
    path: `${PREFIX}/pmpartners/{partnerID}/{PartnerAPIKey}`,
    summary: 'Activate or deactivate a partner API key',
    id: 'platform.partnermanagement.partners.apikeystatus.update',
    input: { from: 'envelope', schema: statusRequest },
    operation: operation(ops.PartnersUpdateApiKeyStatusDocument),
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerID'), partnerApiKey: pathParam(req, 'PartnerAPIKey') }),
    response: message,
    result: (data) => data.updatePartnerApiKeyStatus,
    codeFor: code('updatePartnerApiKeyStatus'),
    ...pms,
  }),
  defineRoute({
    method: 'post',
    path: `${PREFIX}/pmpartners/{partnerID}/{PartnerAPIKey}`,
    summary: 'Move a partner API key from its policy to another of the group',
    id: 'platform.partnermanagement.partners.policy.mapping',
    input: { from: 'envelope', schema: schemas.changePartnerApiKeyPolicy.pick({ oldPolicyID: true, newPolicyID: true }) },
    operation: operation(ops.PartnersChangeApiKeyPolicyDocument),
    variables: (input, req) => ({ ...input, partnerId: pathParam(req, 'partnerID'), partnerApiKey: pathParam(req, 'PartnerAPIKey') }),
    response: message,
    result: (data) => data.changePartnerApiKeyPolicy,
    codeFor: code('changePartnerApiKeyPolicy'),
    ...pms,
  }),
];
