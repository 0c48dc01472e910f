import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto';

/** MOSIP's client format, decrypted independently of the platform: RSA-OAEP(key) | IV 12 | AAD 32 | AES-GCM with tag. */
export function decryptForMachine(privateKey: KeyObject, data: string): unknown {
  const bytes = Buffer.from(data.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  const key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes.subarray(0, 256));
  const iv = bytes.subarray(256, 268);
  const aad = bytes.subarray(268, 300);
  const sealed = bytes.subarray(300);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8'));
}

/** A registration client machine's TPM key pair (RSA 2048). */
export const machineKeys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

/** The request body of POST /v1/syncdata/tpm/publickey for a machine. */
export const tpmKeyRequest = (machineName: string, publicKey: KeyObject) => ({
  machineName,
  publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
});
