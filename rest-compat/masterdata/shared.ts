import { z } from 'zod';
import { masterdata } from '../../subgraphs/masterdata/index.js';
import type { RouteModule } from '../route-factory.js';

/** What every master data route shares (CONTRACT.md: paths under /v1/masterdata); each area names its envelope ids' prefix. */
export const MASTERDATA = { component: masterdata, internalErrorCode: 'KER-MSD-500', pathPrefix: '/v1/masterdata' } satisfies Omit<RouteModule, 'idPrefix'>;

/** MOSIP's answer to a search (PageResponseDto): the rows and their record numbers. */
export const searchPageShape = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), fromRecord: z.number(), toRecord: z.number(), totalRecord: z.number() });

/** MOSIP's paged list (PageDto): the rows, the page number and the totals. */
export const pageShape = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), pageNo: z.number(), totalItems: z.number(), totalPages: z.number() });

/** A page of the graph with its rows in their REST shape. */
export const mapRows = <Page extends { data: readonly unknown[] }, Out>(
  page: Page,
  map: (row: Page['data'][number]) => Out,
): Omit<Page, 'data'> & { data: Out[] } => ({
  ...page,
  data: page.data.map((row) => map(row)),
});
