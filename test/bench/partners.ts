// The validatePartnerMisp benchmark's chain, built through the platform's own REST and GraphQL
// calls: a MISP approved with a license key, a policy of the default group, a partner with an
// approved API key. Returns the path ID authentication calls on every authentication.
import { envelope } from './platform.js';

type Call = (
  method: string,
  urlPath: string,
  body?: unknown,
  cookie?: string,
) => Promise<{ json: { response: Record<string, unknown> | null; errors: unknown; data?: Record<string, Record<string, string>> }; setCookie: string }>;

const PASSWORD = 'Bench-user-password-1';

export async function partnerChain(call: Call, adminCookie: string): Promise<string> {
  const must = async (method: string, urlPath: string, body: unknown, cookie: string) => {
    const { json } = await call(method, urlPath, body === undefined ? undefined : envelope(body), cookie);
    if (!json.response) throw new Error(`${method} ${urlPath}: ${JSON.stringify(json.errors)}`);
    return json.response;
  };
  const login = async (userId: string, role: string) => {
    await call(
      'POST',
      '/graphql',
      {
        query: `mutation { createUser(input: {userId: "${userId}", password: "${PASSWORD}", roles: [${role}], appIds: ["partnermanagement"]}) { user { userId } userErrors { field code message } } }`,
      },
      adminCookie,
    );
    const token = (
      await must('POST', '/v1/authmanager/authenticate/internal/useridPwd', { userName: userId, password: PASSWORD, appId: 'partnermanagement' }, '')
    ).token as string;
    return `Authorization=Platform-Token${token}`;
  };
  const pm = '/partnermanagement/v1';
  const policyManager = await login('bench-policy-manager', 'POLICYMANAGER');
  const partnerManager = await login('bench-partner-manager', 'PARTNERMANAGER');
  const partner = await login('bench-partner', 'PARTNER');
  for (const userId of ['bench-policy-manager', 'bench-partner-manager']) await must('POST', `${pm}/policies/group/default/managers`, { userId }, adminCookie);
  const misp = await must('POST', `${pm}/misps`, { organizationName: 'Bench Telco', emailId: 'bench@example.org', address: 'Rabat' }, adminCookie);
  const license = await must('PATCH', `${pm}/misps/${misp.mispID as string}/status`, { mispStatus: 'Approved' }, adminCookie);
  await must(
    'POST',
    `${pm}/policies`,
    {
      name: 'Bench policy',
      desc: 'OTP authentication',
      policies: { authPolicies: [{ authType: 'otp', authSubType: null, mandatory: true }], allowedKycAttributes: [] },
    },
    policyManager,
  );
  await must(
    'POST',
    `${pm}/partners`,
    {
      partnerId: 'BENCH-PARTNER',
      organizationName: 'Bench Bank',
      contactNumber: '9876543210',
      emailId: 'bank@example.org',
      address: 'Casablanca',
      policyGroup: 'default',
    },
    partner,
  );
  const request = await must(
    'PATCH',
    `${pm}/partners/BENCH-PARTNER/partnerAPIKeyRequests`,
    { policyName: 'Bench policy', useCaseDescription: 'bench' },
    partner,
  );
  const approved = await must('PATCH', `${pm}/pmpartners/PartnerAPIKeyRequests/${request.apiRequestId as string}`, { status: 'Approved' }, partnerManager);
  return `${pm}/pmpartners/validatePartnerMisp/partnerId/BENCH-PARTNER/partnerApiKey/${approved.partnerAPIKey as string}/mispLicenseKey/${license.mispLicenseKey as string}`;
}
