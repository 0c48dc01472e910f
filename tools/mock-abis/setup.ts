import { randomBytes } from 'node:crypto';
import { envelopeOf, firstError, GRAPHQL_PATH, graphqlData, graphqlRequest, type MutationPayload } from '../registration/client.js';
import { uploadRequest } from './keys.js';

/**
 * What a platform's admin does for a new ABIS, through the platform's own
 * API (GraphQL and REST, signed in as `cookie`): a client of role ABIS for
 * it, and its certificate uploaded for the ABIS partner (data shares are
 * encrypted for it). Used by the tools that start the mock ABIS for you.
 */
export async function createAbisClient(base: string, cookie: string): Promise<{ clientId: string; secretKey: string }> {
  const clientId = `mock-abis-${randomBytes(4).toString('hex')}`;
  const { createClient } = await graphqlData<{ createClient: MutationPayload<'clientCredentials', { secretKey: string }> }>(
    await fetch(`${base}${GRAPHQL_PATH}`, {
      ...graphqlRequest(
        'mutation($input: ClientInput!) { createClient(input: $input) { clientCredentials { secretKey } userErrors { field code message } } }',
        {
          input: { clientId, roles: ['ABIS'], appIds: ['registrationprocessor'] },
        },
      ),
      headers: { 'content-type': 'application/json', cookie },
    }),
    'creating the ABIS client',
  );
  const refusal = createClient.userErrors[0];
  if (refusal) throw new Error(`creating the ABIS client: ${refusal.code}: ${refusal.message}`);
  return { clientId, secretKey: createClient.clientCredentials!.secretKey };
}

export async function uploadAbisCertificate(base: string, cookie: string, certificatePem: string): Promise<void> {
  const response = await fetch(`${base}/v1/keymanager/uploadOtherDomainCertificate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(uploadRequest(certificatePem)),
  });
  const envelope = await envelopeOf(response, 'uploadOtherDomainCertificate');
  if (!response.ok || envelope.errors?.length) throw new Error(`the mock ABIS's certificate was refused: ${firstError(envelope) ?? `HTTP ${response.status}`}`);
}
