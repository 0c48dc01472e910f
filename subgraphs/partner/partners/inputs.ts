import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';
import { DECISIONS } from './api-keys.js';
import { PARTNER_STATUSES } from './service.js';

const id = identifier(64).trim().min(1);
/** A name, code or key: no control characters. */
const word = (max: number) => identifier(max).trim().min(1);
/** Free text (an address, a certificate): line breaks allowed, NUL not. */
const prose = (max: number) => text(max).trim();
/** A string first, so that an absent value reads as missing (PMS_COR_001), not as a wrong option. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.string().pipe(z.enum(values));
/** The stored (and REST wire) statuses of partners and API keys, as the graph's PartnerStatus. */
export const PARTNER_STATUS = { Active: 'ACTIVE', 'De-Active': 'DE_ACTIVE' } as const satisfies Record<(typeof PARTNER_STATUSES)[number], string>;
/** The stored statuses of API key requests (REST's decisions among them), as the graph's ApiKeyRequestStatus. */
export const REQUEST_STATUS = { 'in-progress': 'IN_PROGRESS', Approved: 'APPROVED', Rejected: 'REJECTED' } as const;
/** The REST bodies that carry these statuses as the spec writes them (Active, De-Active; Approved, Rejected). */
export const partnerWire = {
  status: oneOf(PARTNER_STATUSES),
  decision: oneOf(DECISIONS),
  /** POST …/pmpartners/{partnerID}/{PartnerAPIKey}: the policies by REST's names */
  policyMapping: z.object({ oldPolicyID: id, newPolicyID: id }),
};
const partnerStatus = oneOf(['ACTIVE', 'DE_ACTIVE']);
const page = pageArguments();

/** The arguments of the partner root fields, for GraphQL and REST alike. */
export const partnersSchemas = {
  registerPartner: z.object({
    partnerId: id.nullish(),
    organizationName: word(128),
    contactNumber: word(16),
    emailId: z.string().trim().max(128).email(),
    address: prose(256).min(1),
    policyGroup: word(128),
  }),
  uploadPartnerCertificate: z.object({ partnerId: id, certificateData: prose(16_384).min(1), partnerDomain: word(16) }),
  partnerCertificate: z.object({ partnerId: id }),
  updatePartnerStatus: z.object({ partnerId: id, status: partnerStatus }),
  requestPartnerApiKey: z.object({ partnerId: id, policyName: word(128), useCaseDescription: prose(512).nullish() }),
  apiKeyRequestState: z.object({ partnerId: id, apiKeyReqId: id }),
  decideApiKeyRequest: z.object({ apiKeyReqId: id, status: oneOf(['APPROVED', 'REJECTED']) }),
  updatePartnerApiKeyStatus: z.object({ partnerId: id, partnerApiKey: word(128), status: partnerStatus }),
  // The policies under the graph's names or REST's (oldPolicyID, newPolicyID: deprecated in the graph); the rules read the graph's.
  changePartnerApiKeyPolicy: z
    .object({
      partnerId: id,
      partnerApiKey: word(128),
      oldPolicyId: id.nullish(),
      newPolicyId: id.nullish(),
      oldPolicyID: id.nullish(),
      newPolicyID: id.nullish(),
    })
    .transform(({ oldPolicyID, newPolicyID, oldPolicyId, newPolicyId, ...rest }) => ({
      ...rest,
      oldPolicyId: oldPolicyId ?? oldPolicyID,
      newPolicyId: newPolicyId ?? newPolicyID,
    }))
    .pipe(z.object({ partnerId: z.string(), partnerApiKey: z.string(), oldPolicyId: id, newPolicyId: id })),
  partners: z.object({ ...page, filter: z.object({ status: z.string().nullish(), policyGroupId: identifier(64).nullish() }).nullish() }),
  apiKeyRequests: z.object({ ...page, filter: z.object({ status: z.string().nullish(), partnerId: identifier(64).nullish() }).nullish() }),
};
