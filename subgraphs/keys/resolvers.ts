import type { Resolvers } from '../../generated/graphql/keys.js';
import type { RequestContext } from '../../lib/context.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar } from '../../lib/graph/scalars.js';
import { certificateView, type KeyInventory } from './inventory.js';
import type { PartnerCertificates } from './partner-certificates.js';
import type { KeysService } from './service.js';

export function keysResolvers(service: KeysService, inventory: KeyInventory, partnerCertificates: PartnerCertificates): Resolvers {
  const keyRef = (context: RequestContext) => loader(context, 'keys.key', (ids: readonly string[]) => inventory.byIds(ids));
  const certificateRef = (context: RequestContext) => loader(context, 'keys.certificate', (ids: readonly string[]) => inventory.certificatesByThumbprint(ids));
  const partnerCertificate = (context: RequestContext) =>
    loader(context, 'keys.partnerCertificate', (ids: readonly string[]) => partnerCertificates.inForce(ids));
  const machineRef = (context: RequestContext) => loader(context, 'keys.machine', (names: readonly string[]) => inventory.machineKeysByName(names));
  return {
    DateTime: DateTimeScalar,
    Query: {
      keys: (_, args) => inventory.keys(args, args.filter),
      key: async (_, args, context) => (await keyRef(context)(args.id)) ?? null,
      machineKeys: (_, args) => inventory.machineKeys(args),
      certificate: (_, args) => service.certificate(args.applicationId, args.referenceId),
      syncPublicKey: (_, args) => service.syncPublicKey(args.applicationId, args.referenceId, args.timeStamp),
    },
    Mutation: {
      generateMasterKey: (_, args) => service.generateMasterKey(args.objectType, args.applicationId, args.referenceId, args.force, args.subject),
      generateCsr: (_, args) => service.generateCsr(args.applicationId, args.referenceId, args.subject),
      uploadCertificate: (_, args) => service.uploadCertificate(args.applicationId, args.referenceId, args.certificateData),
      uploadOtherDomainCertificate: (_, args) => service.uploadOtherDomainCertificate(args.applicationId, args.referenceId, args.certificateData),
      encrypt: async (_, args, context) => service.encrypt(await context.principal(), args),
      decrypt: async (_, args, context) => service.decrypt(await context.principal(), args),
      sign: (_, args) => service.sign(args.data),
      validateSignature: (_, args) => service.validateSignature(args.signature, args.data),
      uploadMachinePublicKey: async (_, args, context) => service.uploadMachinePublicKey(await context.principal(), args.machineName, args.publicKey),
      verifyMachinePublicKey: (_, args) => service.verifyMachinePublicKey(args.machineName, args.publicKey),
    },
    Key: {
      __resolveReference: (ref, context) => keyRef(context)(ref.id),
      referenceId: (entry) => entry.referenceId || null,
      status: (entry) => inventory.statusOf(entry),
      hasPrivateKey: (entry) => entry.privateKey !== null,
      certificate: (entry) => certificateView(entry),
      replaces: (entry, _, context) => (entry.replacesId ? keyRef(context)(entry.replacesId) : null),
    },
    Certificate: {
      __resolveReference: (ref, context) => certificateRef(context)(ref.thumbprint),
    },
    // A partner of partner management: the key store adds the certificate it keeps for it.
    Partner: {
      __resolveReference: (ref) => ref,
      certificate: async (ref, _, context) => {
        const entry = await partnerCertificate(context)(ref.id);
        return entry ? certificateView(entry) : null;
      },
    },
    MachineKey: {
      __resolveReference: (ref, context) => machineRef(context)(ref.machineName),
      createdBy: (row) => (row.createdBy ? { userId: row.createdBy } : null),
      updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
    },
  };
}
