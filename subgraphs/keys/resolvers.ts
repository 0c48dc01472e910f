import type { RequestContext } from '../../lib/context.js';
import type { Subject } from '../../lib/crypto/certificates.js';
import type { CryptoInput, KeysService } from './service.js';

type Pair = { applicationId: string; referenceId?: string | null };
type Upload = Pair & { certificateData: string };
type Machine = { machineName: string; publicKey: string };

export function keysResolvers(service: KeysService) {
  return {
    Query: {
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
  };
}
