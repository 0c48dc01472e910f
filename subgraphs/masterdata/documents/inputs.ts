import { z } from 'zod';
import { identifier, pageArguments, text } from '../../../lib/input.js';
import { filterValuesInput, searchInput } from '../search-inputs.js';

/** MOSIP's column sizes: codes 36, language codes 3, names 64, descriptions 128. */
export const code = identifier(36).trim().min(1);
export const langCode = identifier(3).trim().min(1);

export const documentInput = z.object({
  code,
  langCode,
  name: identifier(64).trim().min(1),
  description: text(128).nullish(),
  isActive: z.boolean(),
});

const page = pageArguments();
// `direction` (the graph's one order shape) or the older `descending`: DESC when either says so.
const order = z
  .object({ field: z.enum(['CODE', 'NAME', 'CREATED_AT']), direction: z.enum(['ASC', 'DESC']).nullish(), descending: z.boolean().nullish() })
  .transform(({ field, direction, descending }) => ({ field, descending: direction ? direction === 'DESC' : !!descending }))
  .nullish();
const codedFilter = { langCode: langCode.nullish(), isActive: z.boolean().nullish(), nameContains: identifier(64).nullish() };
const ruleKey = { individualTypeCode: code, ageGroupTypeCode: code, genderTypeCode: code };
const applicantDocument = { applicantTypeCode: code, docCategoryCode: code, docTypeCode: code };
const mapping = z.object({ docCategoryCode: code, docTypeCode: code });

/** The arguments of the documents area's root fields, for GraphQL and REST alike. */
export const documentsSchemas = {
  documentCategories: z.object({ ...page, filter: z.object(codedFilter).nullish(), orderBy: order }),
  documentTypes: z.object({ ...page, filter: z.object({ ...codedFilter, categoryCode: code.nullish() }).nullish(), orderBy: order }),
  documentCategoryList: z.object({ langCode: langCode.nullish() }),
  documentCategory: z.object({ code, langCode }),
  validDocumentTypes: z.object({ categoryCode: code, langCode }),
  documentTypeList: z.object({}),
  searchDocumentCategories: z.object({ input: searchInput }),
  documentCategoryFilterValues: z.object({ input: filterValuesInput }),
  searchDocumentTypes: z.object({ input: searchInput }),
  documentTypeFilterValues: z.object({ input: filterValuesInput }),
  applicantDocuments: z.object({ ...ruleKey, languages: z.array(langCode).max(10).nullish() }),
  checkApplicantDocument: z.object({ applicantTypeCode: code, documentCategoryCode: code, documentTypeCode: code }),
  applicantTypeRules: z.object({ ...page, filter: z.object({ applicantTypeCode: code.nullish() }).nullish() }),
  applicantValidDocuments: z.object({ ...page, filter: z.object({ applicantTypeCode: code.nullish(), docCategoryCode: code.nullish() }).nullish() }),
  createDocumentCategory: z.object({ input: documentInput }),
  updateDocumentCategory: z.object({ input: documentInput }),
  deleteDocumentCategory: z.object({ code }),
  createDocumentType: z.object({ input: documentInput }),
  updateDocumentType: z.object({ input: documentInput }),
  deleteDocumentType: z.object({ code }),
  mapValidDocument: mapping,
  unmapValidDocument: mapping,
  saveApplicantTypeRule: z.object({ input: z.object({ ...ruleKey, applicantTypeCode: code, isActive: z.boolean() }) }),
  deleteApplicantTypeRule: z.object(ruleKey),
  mapApplicantValidDocument: z.object(applicantDocument),
  unmapApplicantValidDocument: z.object(applicantDocument),
};

/** A missing or malformed argument: MOSIP's "Invalid request input" (RequestErrorCode.REQUEST_DATA_NOT_VALID). */
export const documentsCodeFor = (): string => 'KER-MSD-999';
