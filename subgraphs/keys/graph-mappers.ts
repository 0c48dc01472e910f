import type { KeyStoreEntry, MachinePublicKey } from '../../generated/prisma/client.js';
import type { Connection } from '../../lib/graph/connection.js';

export type KeyConnectionModel = Connection<KeyStoreEntry>;
export type MachineKeyConnectionModel = Connection<MachinePublicKey>;
/** a mapped machine key, or the answer to mapping or verifying one (which carries `verified`) */
export type MachineKeyView = Pick<MachinePublicKey, 'machineName' | 'keyIndex'> & Partial<MachinePublicKey> & { verified?: boolean | null };

/** An upload's answer with the thumbprint of the certificate it put in force. */
export interface KeyUploadModel {
  status: string;
  timestamp: string;
  thumbprint: string;
}

/** GraphQL type → the value its resolvers receive as parent (npm run codegen; paths from this folder). */
export const graphMappers = {
  Key: '../../generated/prisma/client.js#KeyStoreEntry',
  MachineKey: './graph-mappers.js#MachineKeyView',
  Certificate: './inventory.js#CertificateView',
  KeyUploadResult: './graph-mappers.js#KeyUploadModel',
  KeyConnection: './graph-mappers.js#KeyConnectionModel',
  MachineKeyConnection: './graph-mappers.js#MachineKeyConnectionModel',
  User: '../../lib/graph/refs.js#UserRef',
  Partner: '../../lib/graph/refs.js#PartnerRef',
};
