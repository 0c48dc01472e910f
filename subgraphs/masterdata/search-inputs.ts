import { z } from 'zod';
import { MAX_PAGE_START } from './search.js';

/** GraphQL's Int. */
const INT32_MAX = 2_147_483_647;

const text = z.string().max(256);
const filter = z.object({
  columnName: z.string().min(1).max(64),
  type: z.string().min(1).max(16),
  value: text.nullish(),
  fromValue: text.nullish(),
  toValue: text.nullish(),
});

/** MOSIP's search body (`request`), the same for GraphQL's SearchInput and the REST paths. */
export const searchInput = z.object({
  filters: z.array(filter).max(20).nullish(),
  sort: z
    .array(z.object({ sortfield: z.string().min(1).max(64), sorttype: z.string().max(4).nullish() }))
    .max(5)
    .nullish(),
  // Bounded at the edge, so that no page reaches the database as an offset it cannot take; the search checks the rest (negatives, pageFetch).
  pagination: z.object({ pageStart: z.number().int().max(MAX_PAGE_START).nullish(), pageFetch: z.number().int().max(INT32_MAX).nullish() }).nullish(),
  languageCode: z.string().max(3).nullish(),
});

/** The most columns one filter-values request asks for: with MAX_FILTER_VALUES, the bound of its answer. */
export const MAX_FILTER_COLUMNS = 20;

/** MOSIP's filter-values body (`request`). */
export const filterValuesInput = z.object({
  filters: z
    .array(z.object({ columnName: z.string().min(1).max(64), type: z.string().max(16).nullish(), text: text.nullish() }))
    .min(1)
    .max(MAX_FILTER_COLUMNS),
  languageCode: z.string().max(3).nullish(),
  optionalFilters: z.array(filter).max(20).nullish(),
});
