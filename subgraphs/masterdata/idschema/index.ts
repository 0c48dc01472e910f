import { z } from 'zod';
import { loader } from '../../../lib/graph/loader.js';
import { JsonScalar } from '../../../lib/graph/scalars.js';
import { access } from '../../../lib/roles.js';
import { MASTERDATA_READERS } from '../access.js';
import { defineArea } from '../area.js';
import { pagedListInput } from '../paged.js';
import { fieldsOf, IdSchemaService } from './service.js';

declare module '../../../lib/deps.js' {
  interface PlatformServices {
    /** the ID schema: drafts, publishing, and validating identities against the published schema */
    idSchemas: IdSchemaService;
  }
}

const SCHEMA_WRITERS = access.roles('GLOBAL_ADMIN', 'MASTERDATA_ADMIN');
const text = z.string().trim().min(1).max(1024);
const draft = z.object({ title: text, description: text, effectiveFrom: z.string().max(64), schemaVersion: z.number().nonnegative(), schema: z.unknown() });
const id = z.string().min(1).max(64);

/** The arguments of the ID schema's root fields, for GraphQL and REST alike. */
export const idschemaSchemas = {
  createIdSchema: draft,
  updateIdSchema: draft.extend({ id }),
  deleteIdSchema: z.object({ id }),
  publishIdSchema: z.object({ id, effectiveFrom: z.string().max(64) }),
  idSchemaPage: pagedListInput,
  latestIdSchema: z.object({ schemaVersion: z.coerce.number().nonnegative().nullish() }),
};

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

  // A missing draft field is an insert error, a bad one on update an update error (MOSIP's codes).
  codeFor: (_field, _missing, rootField) =>
    rootField === 'createIdSchema'
      ? 'KER-SCH-005'
      : rootField.startsWith('update') || rootField.startsWith('publish') || rootField.startsWith('delete')
        ? 'KER-SCH-006'
        : 'KER-SCH-004',
  services: (deps) => ({ idSchemas: new IdSchemaService(deps.prisma, deps.clock) }),
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
        createIdSchema: async (_, args, context) => service.create(await by(context), args),
        updateIdSchema: async (_, { id, ...input }, context) => service.update(await by(context), id, input),
        deleteIdSchema: async (_, args, context) => service.delete(await by(context), args.id),
        publishIdSchema: async (_, args, context) => service.publish(await by(context), args.id, args.effectiveFrom),
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
