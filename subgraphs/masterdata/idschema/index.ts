import { loader } from '../../../lib/graph/loader.js';
import { instantArgument, JsonScalar } from '../../../lib/graph/scalars.js';
import { access } from '../../../lib/roles.js';
import { MASTERDATA_READERS } from '../access.js';
import { defineArea } from '../area.js';
import { idschemaCodeFor, idschemaSchemas } from './inputs.js';
import { fieldsOf, IdSchemaService } from './service.js';
import { IdSchemaStorage } from './storage.js';

// REST's ID schema routes take the schemas from here.
export { idschemaSchemas } from './inputs.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the ID schema: drafts, publishing, and validating identities against the published schema */
    idSchemas: IdSchemaService;
  }
}

const SCHEMA_WRITERS = access.roles('GLOBAL_ADMIN', 'MASTERDATA_ADMIN');
/** The ID schema: drafts, publish, paged list, latest. */
export const idschemaArea = defineArea({
  name: 'idschema',
  access: {
    'Mutation.createIdSchema': SCHEMA_WRITERS,
    'Mutation.updateIdSchema': SCHEMA_WRITERS,
    'Mutation.deleteIdSchema': SCHEMA_WRITERS,
    'Mutation.publishIdSchema': SCHEMA_WRITERS,
    'Query.idSchemaPage': MASTERDATA_READERS,
    'Query.latestIdSchema': access.AUTHENTICATED,
    'Query.idSchemas': MASTERDATA_READERS,
    'IdSchema.__resolveReference': MASTERDATA_READERS,
  },
  schemas: idschemaSchemas,
  codeFor: idschemaCodeFor,
  services: (deps) => ({ idSchemas: new IdSchemaService(new IdSchemaStorage(deps.prisma), deps.clock) }),
  resolvers: (deps) => {
    const service = deps.services.idSchemas;
    const byId = (context: Parameters<typeof loader>[0]) => loader(context, 'masterdata.idSchema', (ids: readonly string[]) => service.byIds(ids));
    const by = async (context: { principal(): Promise<{ subject: string }> }) => (await context.principal()).subject;
    return {
      JSON: JsonScalar,
      Query: {
        idSchemaPage: (_, args) => service.all(args),
        latestIdSchema: (_, args) => service.latest(args.schemaVersion),
        idSchemas: (_, args) => service.list(args, args.filter),
      },
      Mutation: {
        createIdSchema: async (_, args, context) => service.create(await by(context), { ...args, effectiveFrom: instantArgument(args.effectiveFrom) }),
        updateIdSchema: async (_, { id, ...input }, context) =>
          service.update(await by(context), id, { ...input, effectiveFrom: instantArgument(input.effectiveFrom) }),
        deleteIdSchema: async (_, args, context) => service.delete(await by(context), args.id),
        publishIdSchema: async (_, args, context) => service.publish(await by(context), args.id, instantArgument(args.effectiveFrom)),
      },
      IdSchema: {
        __resolveReference: (ref, context) => byId(context)(ref.id),
        schema: (row) => fieldsOf(row),
        status: (row) => row.status as 'DRAFT' | 'PUBLISHED',
        createdBy: (row) => ({ userId: row.createdBy }),
        updatedBy: (row) => (row.updatedBy ? { userId: row.updatedBy } : null),
      },
    };
  },
});
