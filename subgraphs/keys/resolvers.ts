import type { RequestContext } from '../../lib/context.js';
import type { Subject } from '../../lib/crypto/certificates.js';
import type { KeyStoreEntry, MachinePublicKey } from '../../generated/prisma/client.js';
import type { PageArgs } from '../../lib/graph/connection.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { certificateView, type KeyFilter, type KeyInventory } from './inventory.js';
import type { CryptoInput, KeysService } from './service.js';

type Pair = { applicationId: string; referenceId?: string | null };
type Upload = Pair & { certificateData: string };
type Machine = { machineName: string; publicKey: string };

export function keysResolvers(service: KeysService, inventory: KeyInventory) {
  const keyRef = (context: RequestContext) => loader(context, 'keys.key', (ids: readonly string[]) => inventory.byIds(ids));
  const certificateRef = (context: RequestContext) => loader(context, 'keys.certificate', (ids: readonly string[]) => inventory.certificatesByThumbprint(ids));
  const machineRef = (context: RequestContext) => loader(context, 'keys.machine', (names: readonly string[]) => inventory.machineKeysByName(names));
  return {
    DateTime: DateTimeScalar,
    Query: {
      keys: (_: unknown, args: PageArgs & { filter?: KeyFilter | null }) => inventory.keys(args, args.filter),
      key: async (_: unknown, args: { id: string }, context: RequestContext) => (await keyRef(context)(args.id)) ?? null,
      machineKeys: (_: unknown, args: PageArgs) => inventory.machineKeys(args),
      certificate: (_: unknown, args: Pair) => service.certificate(args.applicationId, args.referenceId),
      syncPublicKey: (_: unknown, args: Pair & { timeStamp: string }) => service.syncPublicKey(args.applicationId, args.referenceId, args.timeStamp),
    },
    Mutation: {
      generateMasterKey: (_: unknown, args: Pair & { objectType: string; force: boolean; subject?: Subject | null }) =>
        service.generateMasterKey(args.objectType, args.applicationId, args.referenceId, args.force, args.subject),
      generateCsr: (_: unknown, args: Pair & { subject: Subject }) => service.generateCsr(args.applicationId, args.referenceId, args.subject),
      uploadCertificate: (_: unknown, args: Upload) => service.uploadCertificate(args.applicationId, args.referenceId, args.certificateData),
      uploadOtherDomainCertificate: (_: unknown, args: Upload) => service.uploadOtherDomainCertificate(args.applicationId, args.referenceId, args.certificateData),
      encrypt: async (_: unknown, args: CryptoInput, context: RequestContext) => service.encrypt(await context.principal(), args),
      decrypt: async (_: unknown, args: CryptoInput, context: RequestContext) => service.decrypt(await context.principal(), args),
      sign: (_: unknown, args: { data: string }) => service.sign(args.data),
      validateSignature: (_: unknown, args: { signature: string; data?: string | null }) => service.validateSignature(args.signature, args.data),
      uploadMachinePublicKey: async (_: unknown, args: Machine, context: RequestContext) =>
        service.uploadMachinePublicKey(await context.principal(), args.machineName, args.publicKey),
      verifyMachinePublicKey: (_: unknown, args: Machine) => service.verifyMachinePublicKey(args.machineName, args.publicKey),
    },
    Key: {
      __resolveReference: (ref: { id: string }, context: RequestContext) => keyRef(context)(ref.id),
      referenceId: (entry: KeyStoreEntry) => entry.referenceId || null,
      status: (entry: KeyStoreEntry) => inventory.statusOf(entry),
      hasPrivateKey: (entry: KeyStoreEntry) => entry.privateKey !== null,
      certificate: (entry: KeyStoreEntry) => certificateView(entry),
      replaces: (entry: KeyStoreEntry, _: unknown, context: RequestContext) => (entry.replacesId ? keyRef(context)(entry.replacesId) : null),
    },
    Certificate: {
      __resolveReference: (ref: { thumbprint: string }, context: RequestContext) => certificateRef(context)(ref.thumbprint),
    },
    MachineKey: {
      __resolveReference: (ref: { machineName: string }, context: RequestContext) => machineRef(context)(ref.machineName),
      createdBy: (row: Partial<MachinePublicKey>) => (row.createdBy ? { userId: row.createdBy } : null),
      updatedBy: (row: Partial<MachinePublicKey>) => (row.updatedBy ? { userId: row.updatedBy } : null),
    },
  };
}
