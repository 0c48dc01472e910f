// The mock ABIS attached to a test platform as an admin would attach an ABIS: a client of role ABIS,
// the mock on the given queues, its certificate uploaded for the ABIS partner. Closed with `close`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { startMockAbis, type MockAbis, type MockAbisOptions } from '../../tools/mock-abis/index.js';
import { envelopeOf, type TestPlatform } from './platform.js';

export async function attachMockAbis(
  t: TestPlatform,
  admin: Record<string, string>,
  options: { stompUrl: string; requests: string; responses: string } & Pick<MockAbisOptions, 'reconnectDelayMs' | 'maxReconnectDelayMs'>,
): Promise<MockAbis> {
  const keysDir = mkdtempSync(path.join(tmpdir(), 'mock-abis-keys-'));
  const abisClient = await t.clientToken(['ABIS'], 'registrationprocessor');
  const mock = await startMockAbis({
    stompUrl: options.stompUrl,
    requestQueue: `/queue/${options.requests}`,
    responseQueue: `/queue/${options.responses}`,
    base: t.baseUrl,
    clientId: abisClient.clientId,
    secretKey: abisClient.secretKey,
    keysDir,
    reconnectDelayMs: options.reconnectDelayMs,
    maxReconnectDelayMs: options.maxReconnectDelayMs,
    // The share's address names the platform's public URL; here the test platform listens elsewhere.
    fetch: (url, init) => fetch((typeof url === 'string' ? url : url instanceof URL ? url.href : url.url).replace(/^https?:\/\/[^/]+/, t.baseUrl), init),
  });
  const uploaded = await t.request('POST', '/v1/keymanager/uploadOtherDomainCertificate', {
    body: envelopeOf({ applicationId: 'PARTNER', referenceId: 'partner-default-abis', certificateData: mock.keys.certificatePem }),
    headers: admin,
  });
  expect(uploaded.json.errors).toBeNull();
  return {
    ...mock,
    close: async () => {
      await mock.close();
      rmSync(keysDir, { recursive: true, force: true });
    },
  };
}
