import { generateKeyPairSync, constants, createDecipheriv, privateDecrypt, type KeyObject } from 'node:crypto';
import { readZip } from '../../lib/packet/zip.js';
import { graphqlData, graphqlRequest, GRAPHQL_PATH, type SessionCall } from './client.js';
import { answerOf, envelope, json, PREREG } from './prereg-calls.js';

/** The centre's side of a pre-registered day: its machine's key, its day's ids, each application fetched for the machine. */

/** The machine's key pair: its public half registered for the machine (as a registration client does at its first start). */
export async function machineKey(admin: SessionCall, machineName: string): Promise<KeyObject> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const response = await admin(
    '/v1/syncdata/tpm/publickey',
    json(
      JSON.stringify({
        id: 'platform.syncdata.tpm.publickey',
        version: '1.0',
        requesttime: new Date().toISOString(),
        request: { machineName, publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') },
      }),
    ),
  );
  await answerOf(response, 'machine key');
  return privateKey;
}

/** The ids booked at the centre from `fromDate` to `toDate` (POST /sync, as the centre's staff). */
export async function syncedIds(admin: SessionCall, centreId: string, fromDate: string, toDate: string): Promise<string[]> {
  const answer = await answerOf<{ preRegistrationIds: Record<string, string> | null }>(
    await admin(`${PREREG}/sync`, json(envelope('datasync', { registrationCenterId: centreId, fromDate, toDate }))),
    'sync',
  );
  return Object.keys(answer.preRegistrationIds ?? {});
}

/** MOSIP's client format: RSA-OAEP-SHA256(key) | IV 12 | AAD 32 | AES-256-GCM with its tag. */
function openForMachine(privateKey: KeyObject, sealed: Buffer): Buffer {
  const key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, sealed.subarray(0, 256));
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(256, 268));
  decipher.setAAD(sealed.subarray(268, 300));
  const body = sealed.subarray(300);
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
}

/** One application as the centre's machine fetches it (GET /sync/{id}/{machine}): the identity the resident gave, and each document's bytes by entry name. */
export async function fetchedApplication(
  admin: SessionCall,
  preRegistrationId: string,
  machineId: string,
  privateKey: KeyObject,
): Promise<{ identity: Record<string, unknown>; documents: Map<string, Buffer> }> {
  const answer = await answerOf<{ 'zip-bytes': string }>(await admin(`${PREREG}/sync/${preRegistrationId}/${machineId}`, { method: 'GET' }), 'fetch');
  const zip = openForMachine(privateKey, Buffer.from(answer['zip-bytes'], 'base64'));
  const entries = await readZip(zip, { maxUncompressedBytes: 64 * 1024 * 1024 });
  const identity = entries.find((file) => file.name === 'ID.json');
  if (!identity) throw new Error(`the application ${preRegistrationId} came without ID.json`);
  return {
    identity: (JSON.parse(identity.data.toString('utf8')) as { identity: Record<string, unknown> }).identity,
    documents: new Map(entries.filter((file) => file.name !== 'ID.json').map((file) => [file.name, file.data])),
  };
}

/** The machine's name, which its key is mapped under (master data's machine, in English). */
export async function machineName(admin: SessionCall, machineId: string): Promise<string> {
  const { machine } = await graphqlData<{ machine: { name: string } | null }>(
    await admin(GRAPHQL_PATH, graphqlRequest('query($id: ID!) { machine(id: $id, langCode: "eng") { name } }', { id: machineId })),
    'machine',
  );
  if (!machine) throw new Error(`machine ${machineId} is not in master data`);
  return machine.name;
}
