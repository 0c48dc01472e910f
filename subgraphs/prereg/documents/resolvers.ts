import type { z } from 'zod';
import type { Resolvers } from '../../../generated/graphql/prereg.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import { readableApplication } from '../applications/loaders.js';
import type { documentsSchemas } from './inputs.js';

type Parsed<F extends keyof typeof documentsSchemas> = z.output<(typeof documentsSchemas)[F]>;

/** The documents area's fields: each call acts as the caller, whose reach the applications service decides. */
export function documentsResolvers(deps: PlatformDeps): Resolvers {
  const documents = deps.services.preregDocuments;
  return {
    Query: {
      preRegistrationDocuments: async (_, args, context) =>
        documents.list(await context.principal(), (args as Parsed<'preRegistrationDocuments'>).preRegistrationId),
      preRegistrationDocumentContent: async (_, args, context) => {
        const { preRegistrationId, documentId } = args as Parsed<'preRegistrationDocumentContent'>;
        return documents.content(await context.principal(), preRegistrationId, documentId);
      },
    },
    Mutation: {
      uploadPreRegistrationDocument: async (_, args, context) => documents.upload(await context.principal(), args as Parsed<'uploadPreRegistrationDocument'>),
      deletePreRegistrationDocument: async (_, args, context) => {
        const { preRegistrationId, documentId } = args as Parsed<'deletePreRegistrationDocument'>;
        return documents.deleteOne(await context.principal(), preRegistrationId, documentId);
      },
      deletePreRegistrationDocuments: async (_, args, context) =>
        documents.deleteAll(await context.principal(), (args as Parsed<'deletePreRegistrationDocuments'>).preRegistrationId),
      copyPreRegistrationDocument: async (_, args, context) => {
        const { preRegistrationId, sourcePreRegistrationId, docCatCode } = args as Parsed<'copyPreRegistrationDocument'>;
        return documents.copy(await context.principal(), preRegistrationId, sourcePreRegistrationId, docCatCode);
      },
      updatePreRegistrationDocumentReference: async (_, args, context) => {
        const { preRegistrationId, documentId, refNumber } = args as Parsed<'updatePreRegistrationDocumentReference'>;
        return documents.setRefNumber(await context.principal(), preRegistrationId, documentId, refNumber);
      },
    },
    PreRegistrationDocument: { application: readableApplication(deps.services.preregApplications) },
    Application: {
      // The application was reached already (its query or reference checked the caller): one read for every application of the request.
      documents: async (row, _args, context) =>
        (await loader(context, 'prereg.documents', (ids: readonly string[]) => documents.metadataOf(ids))(row.id)) ?? [],
    },
  };
}
