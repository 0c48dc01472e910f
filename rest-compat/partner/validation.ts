import { z } from 'zod';
import * as ops from '../../generated/graphql/partner.operations.js';
import { spelledPolicies } from '../../subgraphs/partner/policies/inputs.js';
import { pathParam, type RestRoute } from '../route.js';
import { route } from './shared.js';

const policies = z.object({
  authPolicies: z.array(z.object({ authType: z.string(), authSubType: z.string().nullable(), mandatory: z.boolean() })),
  allowedKycAttributes: z.array(z.object({ attributeName: z.string(), required: z.boolean() })),
});

export const validationRoutes: RestRoute[] = [
  route({
    method: 'get',
    path: '/pmpartners/validatePartnerMisp/partnerId/{partnerId}/partnerApiKey/{partner_api_key}/mispLicenseKey/{misp_license_key}',
    summary: "Validate a MISP license key, the MISP, a partner and its API key; answer the key's policy",
    idSuffix: 'partners.validate',
    operation: ops.ValidationPartnerMispDocument,
    variables: (_input, req) => ({
      partnerId: pathParam(req, 'partnerId'),
      partnerApiKey: pathParam(req, 'partner_api_key'),
      mispLicenseKey: pathParam(req, 'misp_license_key'),
    }),
    response: z.object({
      policyId: z.string(),
      policyName: z.string(),
      policyDescription: z.string(),
      policyStatus: z.boolean(),
      policy: z.object({ policyId: z.string(), policies }),
      partnerId: z.string(),
      partnerName: z.string(),
    }),
    result: ({ validatePartnerMisp: answer }) => ({ ...answer, policy: { ...answer.policy, policies: spelledPolicies(answer.policy.policies) } }),
  }),
];
