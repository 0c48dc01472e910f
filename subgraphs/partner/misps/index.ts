import { z } from 'zod';
import type { RequestContext } from '../../../lib/context.js';
import { identifier, text } from '../../../lib/input.js';
import { loader } from '../../../lib/graph/loader.js';
import { MISP_ADMINS } from '../access.js';
import { defineArea } from '../area.js';
import { mispName } from './names.js';
import { MispService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** MISPs: registration, approval (license keys), status */
    misps: MispService;
  }
}

const id = identifier(36).trim().min(1);
/** A MISP's name as it is kept (names.ts): two names that differ only in width, invisible characters or spacing are one name. */
const name = identifier(256).transform(mispName).pipe(z.string().min(1).max(128));
const email = z.email().max(128);
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{4,20}$/, 'a phone number');
const address = text(512).trim().min(1);
const status = identifier(16);

/** The arguments of the MISP root fields, for GraphQL and REST alike. */
export const mispsSchemas = {
  createMisp: z.object({ organizationName: name, contactNumber: phone.nullish(), emailId: email, address }),
  decideMisp: z.object({ mispId: id, mispStatus: status }),
  setMispActive: z.object({ mispId: id, mispStatus: status }),
  updateMisp: z.object({ mispId: id, organizationName: name.nullish(), contactNumber: phone.nullish(), emailId: email.nullish(), address: address.nullish() }),
  validateMispLicense: z.object({ mispId: id, mispLicenseKey: identifier(256) }),
  regenerateMispLicense: z.object({ mispId: id }),
  misp: z.object({ mispId: id }),
  mispsByName: z.object({ name }),
  mispLicense: z.object({ mispId: id }),
  misps: z.object({
    first: z.number().int().nullish(),
    after: identifier(512).nullish(),
    filter: z.object({ status: status.nullish(), isActive: z.boolean().nullish(), nameContains: identifier(128).nullish() }).nullish(),
  }),
};

/** MISP administration: registration, decisions, license keys. */
export const mispsArea = defineArea({
  name: 'misps',
  desk: 'misp',
  access: {
    'Query.misp': MISP_ADMINS,
    'Query.mispsByName': MISP_ADMINS,
    'Query.allMisps': MISP_ADMINS,
    'Query.mispLicense': MISP_ADMINS,
    'Query.misps': MISP_ADMINS,
    'Mutation.createMisp': MISP_ADMINS,
    'Mutation.decideMisp': MISP_ADMINS,
    'Mutation.setMispActive': MISP_ADMINS,
    'Mutation.updateMisp': MISP_ADMINS,
    'Mutation.validateMispLicense': MISP_ADMINS,
    'Mutation.regenerateMispLicense': MISP_ADMINS,
    'Misp.__resolveReference': MISP_ADMINS,
  },
  schemas: mispsSchemas,
  codeFor: (_field, missing) => (missing ? 'PMS_COR_001' : 'PMS_COR_002'),
  services: (deps, settings) => ({ misps: new MispService(deps.prisma, deps.clock, deps.services.license, settings) }),
  resolvers: (deps) => {
    const service = deps.services.misps;
    const byId = (context: RequestContext) => loader(context, 'partner.misp', (ids: readonly string[]) => service.byIds(ids));
    const by = async (context: RequestContext) => (await context.principal()).subject;
    return {
      Query: {
        misp: (_, args) => service.get(args.mispId),
        mispsByName: (_, args) => service.byName(args.name),
        allMisps: () => service.all(),
        mispLicense: async (_, args) => {
          const key = await service.currentLicense(args.mispId);
          return key ? { mispId: args.mispId, keyHint: key.keyHint, status: key.status, expiresAt: key.expiresAt } : null;
        },
        misps: (_, args) => service.list(args, args.filter),
      },
      Mutation: {
        createMisp: async (_, args, context) => service.create(await by(context), args),
        decideMisp: async (_, args, context) => service.decide(await by(context), args.mispId, args.mispStatus),
        setMispActive: async (_, args, context) => service.setActive(await by(context), args.mispId, args.mispStatus),
        updateMisp: async (_, { mispId, ...input }, context) => service.update(await by(context), mispId, input),
        validateMispLicense: async (_, args) => {
          await service.validateLicense(args.mispId, args.mispLicenseKey);
          return true;
        },
        regenerateMispLicense: async (_, args, context) => service.regenerateLicense(await by(context), args.mispId),
      },
      Misp: {
        __resolveReference: (ref, context) => byId(context)(ref.id),
        status: (row) => row.status as 'Active' | 'Approved' | 'Rejected',
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
      },
    };
  },
});
