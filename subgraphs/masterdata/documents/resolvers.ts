import type { RequestContext } from '../../../lib/context.js';
import type { PlatformDeps } from '../../../lib/deps.js';
import { loader } from '../../../lib/graph/loader.js';
import type { Resolvers } from '../../../generated/graphql/masterdata.js';
import { codedKey, type CodedRow, type CodedRows } from './coded.js';

/** Who and when of a write: the caller's subject, the platform's clock. */
async function actor(deps: PlatformDeps, context: RequestContext): Promise<[by: string, now: Date]> {
  return [(await context.principal()).subject, deps.clock.now()];
}

const userOf = (userId: string | null) => (userId ? { userId } : null);

/** The audit fields every row of the area shows the same way. */
const auditFields = {
  createdBy: (row: { createdBy: string }) => userOf(row.createdBy),
  updatedBy: (row: { updatedBy: string | null }) => userOf(row.updatedBy),
};

export function documentsResolvers(deps: PlatformDeps): Resolvers {
  const { documents, applicantDocuments: applicants } = deps.services;
  const { categories, types } = documents;
  const byKey = (rows: CodedRows, name: string) => (context: RequestContext, ref: { code: string; langCode: string }) =>
    loader(context, name, (keys: readonly string[]) => rows.byKeys(keys))(codedKey(ref.code, ref.langCode));
  const categoryRef = byKey(categories, 'documents.category');
  const typeRef = byKey(types, 'documents.type');
  const entity = <T extends CodedRow>(resolve: (context: RequestContext, ref: { code: string; langCode: string }) => Promise<T | null>) => ({
    __resolveReference: (ref: { code: string; langCode: string }, context: RequestContext) => resolve(context, ref),
    ...auditFields,
  });

  return {
    Query: {
      documentCategories: (_, args) => categories.list(args, args.filter ?? {}, args.orderBy),
      documentTypes: (_, args) => documents.listTypes(args, args.filter, args.orderBy),
      documentCategoryList: (_, args) => documents.categoryList(args.langCode),
      documentCategory: (_, args) => documents.category(args.code, args.langCode),
      validDocumentTypes: (_, args) => documents.validTypes(args.categoryCode, args.langCode),
      documentTypeList: () => documents.typeList(),
      searchDocumentCategories: (_, args) => documents.search(categories, args.input),
      documentCategoryFilterValues: (_, args) => documents.filterValues(categories, args.input),
      searchDocumentTypes: (_, args) => documents.search(types, args.input),
      documentTypeFilterValues: (_, args) => documents.filterValues(types, args.input),
      applicantDocuments: (_, { languages, ...key }) => applicants.documentsOf(key, languages),
      checkApplicantDocument: (_, args) =>
        applicants.check({ applicantTypeCode: args.applicantTypeCode, docCategoryCode: args.documentCategoryCode, docTypeCode: args.documentTypeCode }),
      applicantTypeRules: (_, args) => applicants.rules(args, args.filter),
      applicantValidDocuments: (_, args) => applicants.validDocuments(args, args.filter),
    },
    Mutation: {
      createDocumentCategory: async (_, args, context) => documents.create(categories, args.input, ...(await actor(deps, context))),
      updateDocumentCategory: async (_, args, context) => documents.update(categories, args.input, ...(await actor(deps, context))),
      deleteDocumentCategory: async (_, args, context) => categories.remove(args.code, ...(await actor(deps, context))),
      createDocumentType: async (_, args, context) => documents.create(types, args.input, ...(await actor(deps, context))),
      updateDocumentType: async (_, args, context) => documents.update(types, args.input, ...(await actor(deps, context))),
      deleteDocumentType: async (_, args, context) => types.remove(args.code, ...(await actor(deps, context))),
      mapValidDocument: async (_, args, context) => documents.map(args.docCategoryCode, args.docTypeCode, ...(await actor(deps, context))),
      unmapValidDocument: async (_, args, context) => documents.unmap(args.docCategoryCode, args.docTypeCode, ...(await actor(deps, context))),
      saveApplicantTypeRule: async (_, args, context) => applicants.saveRule(args.input, ...(await actor(deps, context))),
      deleteApplicantTypeRule: async (_, args, context) => applicants.deleteRule(args, ...(await actor(deps, context))),
      mapApplicantValidDocument: async (_, args, context) => applicants.mapDocument(args, ...(await actor(deps, context))),
      unmapApplicantValidDocument: async (_, args, context) => applicants.unmapDocument(args, ...(await actor(deps, context))),
    },
    ValidDocumentMapping: {
      documentCategory: (mapping, args, context) => categoryRef(context, { code: mapping.docCategoryCode, langCode: args.langCode }),
      documentType: (mapping, args, context) => typeRef(context, { code: mapping.docTypeCode, langCode: args.langCode }),
    },
    DocumentCategory: entity(categoryRef),
    DocumentType: entity(typeRef),
    ApplicantTypeRule: auditFields,
    ApplicantValidDocument: auditFields,
  };
}
