import { z } from 'zod';
import { auditFields, auditShape, type AuditSource } from '../audit.js';
import { masterdata } from '../../subgraphs/masterdata/index.js';
import { routeFactory, type RouteModule } from '../route-factory.js';

/** What every master data route shares (CONTRACT.md: paths under /v1/masterdata); each area names its envelope ids' prefix. */
export const MASTERDATA = { component: masterdata, internalErrorCode: 'KER-MSD-500', pathPrefix: '/v1/masterdata' } satisfies Omit<RouteModule, 'idPrefix'>;

/** The routes of the areas whose envelope ids are MOSIP's kernel master data's (`platform.masterdata.`). */
export const route = routeFactory({ ...MASTERDATA, idPrefix: 'platform.masterdata.' });

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

/** The filter values of a column (a list's filters), as MOSIP answers them. */
export const filtersShape = z.object({ filters: z.array(z.object({ fieldID: z.string(), fieldValue: z.string() })) });

/** A document category or type as MOSIP's lists show it. */
interface Brief {
  code: string;
  langCode: string;
  name: string;
  description: string | null;
  isActive: boolean;
}

export const briefShape = z.object({ code: z.string(), langCode: z.string(), name: z.string(), description: z.string().nullable(), isActive: z.boolean() });
export const auditedShape = briefShape.extend(auditShape);
/** MOSIP's older snake_case shape of a document type (GET /documentcategorytypes, /doccattypes). */
export const legacyShape = z.object({ code: z.string(), name: z.string(), descr: z.string().nullable(), lang_code: z.string(), is_active: z.boolean() });

export const brief = ({ code, langCode, name, description, isActive }: Brief) => ({ code, langCode, name, description, isActive });
export const legacy = (row: Brief) => ({ code: row.code, name: row.name, descr: row.description, lang_code: row.langCode, is_active: row.isActive });
export const audited = (row: Brief & AuditSource) => ({ ...brief(row), ...auditFields(row) });
