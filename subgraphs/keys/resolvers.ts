import type { Resolvers } from '../../generated/graphql/keys.js';
import type { RequestContext } from '../../lib/context.js';
import { thumbprintOf } from '../../lib/crypto/envelope.js';
import { loader } from '../../lib/graph/loader.js';
import { DateTimeScalar, instantArgument } from '../../lib/graph/scalars.js';
import { certificateView, type CertificateView, type KeyInventory } from './inventory.js';
import { isPartnerCertificate, type KeyCaller, type PartnerCertificateAccess } from './partner-access.js';
import type { PartnerCertificates } from './partner-certificates.js';
import type { KeysService } from './service.js';

/** encrypt's and decrypt's input as the crypto manager takes it: the DateTime timeStamp as ISO 8601 text, absent staying absent. */
const cryptoArguments = <T extends { timeStamp?: Date | string | null }>({ timeStamp, ...rest }: T) => ({
  ...rest,
  timeStamp: instantArgument(timeStamp),
});

/**
 * The caller of an endpoint the spec flags open: nobody when the deployment
 * opened it (PLATFORM_SPEC_OPEN_ENDPOINTS) and no token came; a token, when
 * present, is always verified.
 */
async function openCaller(context: RequestContext, specOpen: boolean): Promise<KeyCaller> {
  if (specOpen && !context.credentials.token) return null;
  return context.principal();
}

export function keysResolvers(
  service: KeysService,
  inventory: KeyInventory,
  partnerCertificates: PartnerCertificates,
  partnerAccess: PartnerCertificateAccess,
  specOpen: boolean,
): Resolvers {
  const keyRef = (context: RequestContext) => loader(context, 'keys.key', (ids: readonly string[]) => inventory.byIds(ids));
  // Partners' certificates by any path only to whom may read them (partner-access.ts): the others resolve to nothing.
  const certificateRef = (context: RequestContext) =>
    loader(context, 'keys.certificate', async (ids: readonly string[]) => {
      const found = await inventory.certificateEntriesByThumbprint(ids);
      const partnerIds = [...found.values()].filter((entry) => isPartnerCertificate(entry.applicationId, entry.referenceId)).map((entry) => entry.referenceId);
      const readable = partnerIds.length ? await partnerAccess.readable(await context.principal(), partnerIds) : new Set<string>();
      const views = new Map<string, CertificateView>();
      for (const [thumbprint, entry] of found) {
        if (!isPartnerCertificate(entry.applicationId, entry.referenceId) || readable.has(entry.referenceId)) views.set(thumbprint, certificateView(entry));
      }
      return views;
    });
  const partnerCertificate = (context: RequestContext) =>
    loader(context, 'keys.partnerCertificate', async (ids: readonly string[]) =>
      partnerCertificates.inForce([...(await partnerAccess.readable(await context.principal(), ids))]),
    );
  const machineRef = (context: RequestContext) =>
    loader(context, 'keys.machine', async (names: readonly string[]) => inventory.machineKeysByName(await context.principal(), names));
  return {
    DateTime: DateTimeScalar,
    Query: {
      keys: (_, args) => inventory.keys(args, args.filter),
      key: async (_, args, context) => (await keyRef(context)(args.id)) ?? null,
      machineKeys: async (_, args, context) => inventory.machineKeys(await context.principal(), args),
      certificate: async (_, args, context) => service.certificate(await context.principal(), args.applicationId, args.referenceId),
      syncPublicKey: async (_, args, context) =>
        service.syncPublicKey(await context.principal(), args.applicationId, args.referenceId, instantArgument(args.timeStamp)),
    },
    Mutation: {
      generateMasterKey: (_, args) => service.generateMasterKey(args.objectType, args.applicationId, args.referenceId, args.force, args.subject),
      generateCsr: (_, args) => service.generateCsr(args.applicationId, args.referenceId, args.subject),
      uploadCertificate: (_, args) => service.uploadCertificate(args.applicationId, args.referenceId, args.certificateData),
      uploadOtherDomainCertificate: async (_, args, context) =>
        service.uploadOtherDomainCertificate(await openCaller(context, specOpen), args.applicationId, args.referenceId, args.certificateData),
      encrypt: async (_, args, context) => service.encrypt(await context.principal(), cryptoArguments(args)),
      decrypt: async (_, args, context) => service.decrypt(await context.principal(), cryptoArguments(args)),
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
    CertificateRecord: {
      inForce: (record, _, context) => certificateRef(context)(thumbprintOf(record.certificate).toString('hex')),
    },
    KeyUploadResult: {
      certificate: (result, _, context) => certificateRef(context)(result.thumbprint),
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
